//! Presentation MathML as linear TeX: the one converter behind `fetch`'s
//! abstracts and titles (`ncbi::efetch`) and `fulltext`'s paragraphs
//! (`core::jats`). Pure: a [`Math`] tree in, a TeX string out (no
//! delimiters; callers write `$…$` or `$$…$$`, docs/fulltext.md
//! "Formulas").
//!
//! The TeX is spelled as pandoc 3.9 (texmath) spells it, so an independent
//! reference can check it: `tests/mathml_tex.rs` compares every formula of
//! the fixtures with pandoc's answers (`scripts/mathml_tex_pandoc.py`),
//! after folding whitespace runs to one space. Two documented departures:
//! a `<semantics>` with a TeX/LaTeX annotation gives the author's TeX
//! (pandoc takes the first child), and a stretchy arrow is a plain relation
//! (pandoc wraps its row in `\left. … \right.`).

/// A MathML element: local name (no `mml:` prefix), attributes, children.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Math {
    /// Local name (`mi`, `mrow`, …).
    pub name: String,
    /// Attributes as written (unescaped), local names.
    pub attrs: Vec<(String, String)>,
    /// Children in document order.
    pub children: Vec<MathChild>,
}

/// A child of a [`Math`] element.
#[derive(Debug, Clone, PartialEq)]
pub enum MathChild {
    /// A nested element.
    El(Math),
    /// Character data, entities resolved.
    Text(String),
}

impl Math {
    /// An element with no attributes or children.
    pub fn new(name: &str) -> Self {
        Math {
            name: local(name).to_string(),
            ..Math::default()
        }
    }

    fn attr(&self, k: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| local(n) == k)
            .map(|(_, v)| v.as_str())
    }

    fn elements(&self) -> impl Iterator<Item = &Math> {
        self.children.iter().filter_map(|c| match c {
            MathChild::El(e) => Some(e),
            MathChild::Text(_) => None,
        })
    }

    fn text(&self) -> String {
        let mut s = String::new();
        fn walk(m: &Math, s: &mut String) {
            for c in &m.children {
                match c {
                    MathChild::Text(t) => s.push_str(t),
                    MathChild::El(e) => walk(e, s),
                }
            }
        }
        walk(self, &mut s);
        s
    }

    /// True for `display="block"` (a display formula).
    pub fn is_display(&self) -> bool {
        self.attr("display") == Some("block")
    }
}

/// The local part of a name (`mml:mi` → `mi`).
pub fn local(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// The TeX of a `<math>` element (or any MathML element), without
/// delimiters, on one line.
pub fn to_tex(m: &Math) -> String {
    let p = piece(m);
    let s = match p.kind {
        Kind::Empty => String::new(),
        _ => p.tex,
    };
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The body of a `<tex-math>`: PMC's is often a whole LaTeX document
/// (`\documentclass…\begin{document}$$x$$\end{document}`); the formula is
/// what is between `\begin{document}` and `\end{document}`, its `$$`, `$`,
/// `\[ \]` or `\( \)` delimiters removed, whitespace folded.
pub fn tex_math_body(tex: &str) -> String {
    let mut s = tex;
    if let Some(i) = s.find("\\begin{document}") {
        s = &s[i + "\\begin{document}".len()..];
        if let Some(j) = s.find("\\end{document}") {
            s = &s[..j];
        }
    }
    let mut s = s.trim();
    for (a, b) in [("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$")] {
        if s.len() >= a.len() + b.len() && s.starts_with(a) && s.ends_with(b) {
            s = s[a.len()..s.len() - b.len()].trim();
            break;
        }
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Reads one MathML element from XML text (`<mml:math …>…</mml:math>`):
/// the tree [`to_tex`] takes. Errors: the XML's own error, or no element.
pub fn parse(xml: &str) -> Result<Math, String> {
    use quick_xml::events::Event;
    let mut r = quick_xml::Reader::from_str(xml);
    let mut stack: Vec<Math> = Vec::new();
    let open = |e: &quick_xml::events::BytesStart<'_>| -> Result<Math, String> {
        let mut m = Math::new(e.name().as_ref());
        for a in e.attributes() {
            let a = a.map_err(|e| e.to_string())?;
            let v = a
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map_err(|e| e.to_string())?;
            m.attrs
                .push((local(a.key.as_ref()).to_string(), v.into_owned()));
        }
        Ok(m)
    };
    loop {
        match r.read_event().map_err(|e| e.to_string())? {
            Event::Start(e) => stack.push(open(&e)?),
            Event::Empty(e) => {
                let m = open(&e)?;
                match stack.last_mut() {
                    Some(p) => p.children.push(MathChild::El(m)),
                    None => return Ok(m),
                }
            }
            Event::End(_) => {
                let m = stack.pop().ok_or("unbalanced end tag")?;
                match stack.last_mut() {
                    Some(p) => p.children.push(MathChild::El(m)),
                    None => return Ok(m),
                }
            }
            Event::Text(t) => {
                if let Some(p) = stack.last_mut() {
                    p.children
                        .push(MathChild::Text(t.xml10_content().into_owned()));
                }
            }
            Event::GeneralRef(g) => {
                let c = match g.resolve_char_ref().map_err(|e| e.to_string())? {
                    Some(c) => c.to_string(),
                    None => {
                        let name = g.xml10_content().into_owned();
                        quick_xml::escape::resolve_predefined_entity(&name)
                            .map_or_else(|| format!("&{name};"), str::to_string)
                    }
                };
                if let Some(p) = stack.last_mut() {
                    p.children.push(MathChild::Text(c));
                }
            }
            Event::Eof => return Err("no element".into()),
            _ => {}
        }
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    /// Nothing (`<none/>`, invisible operators, layout spaces).
    Empty,
    /// One token: never braced.
    Atom,
    /// A row of several pieces: braced in a row and as a script base.
    Group,
    /// A scripted or built piece: braced as a script base only.
    Script,
    /// An operator spaced on both sides (binary or relation).
    Spaced,
}

struct Piece {
    tex: String,
    kind: Kind,
}

fn atom(tex: impl Into<String>) -> Piece {
    Piece {
        tex: tex.into(),
        kind: Kind::Atom,
    }
}

fn empty() -> Piece {
    Piece {
        tex: String::new(),
        kind: Kind::Empty,
    }
}

/// Appends `s`, with a space where a control word would run into a letter
/// (`\mu` + `g` → `\mu g`).
fn push_tex(out: &mut String, s: &str) {
    if s.starts_with(|c: char| c.is_ascii_alphabetic()) && ends_in_control_word(out) {
        out.push(' ');
    }
    out.push_str(s);
}

fn ends_in_control_word(s: &str) -> bool {
    let letters = s.len() - s.trim_end_matches(|c: char| c.is_ascii_alphabetic()).len();
    letters > 0 && {
        let head = &s[..s.len() - letters];
        head.ends_with('\\') && !head.ends_with("\\\\")
    }
}

/// A row: pieces joined, operators spaced; one piece stands for itself.
fn row<'a>(kids: impl Iterator<Item = &'a Math>) -> Piece {
    let pieces: Vec<Piece> = kids.map(piece).filter(|p| p.kind != Kind::Empty).collect();
    join(pieces)
}

fn join(mut pieces: Vec<Piece>) -> Piece {
    match pieces.len() {
        0 => return empty(),
        1 => return pieces.pop().unwrap_or_else(empty),
        _ => {}
    }
    let mut out = String::new();
    for p in &pieces {
        match p.kind {
            Kind::Spaced => {
                if !out.is_empty() && !out.ends_with(' ') {
                    out.push(' ');
                }
                out.push_str(&p.tex);
                out.push(' ');
            }
            Kind::Group => push_tex(&mut out, &format!("{{{}}}", p.tex)),
            _ => push_tex(&mut out, &p.tex),
        }
    }
    Piece {
        tex: out.trim().to_string(),
        kind: Kind::Group,
    }
}

/// A piece's TeX as a script's base: rows and scripts braced.
fn base(p: &Piece) -> String {
    match p.kind {
        Kind::Group | Kind::Script => format!("{{{}}}", p.tex),
        _ => p.tex.clone(),
    }
}

/// A piece's TeX inside braces already there (`_{…}`, `\frac{…}`).
fn arg(p: &Piece) -> String {
    p.tex.trim().to_string()
}

fn nth(kids: &[&Math], i: usize) -> Piece {
    kids.get(i).map_or_else(empty, |k| piece(k))
}

fn piece(m: &Math) -> Piece {
    let kids: Vec<&Math> = m.elements().collect();
    match m.name.as_str() {
        "mi" => identifier(m),
        "mn" => {
            let t = m.text();
            let t = t.trim();
            if t.is_empty() {
                empty()
            } else {
                atom(chars_tex(t))
            }
        }
        "mo" => operator(m.text().trim()),
        "mtext" => text(&m.text()),
        "ms" => atom(format!("\\text{{“{}”}}", escape_text(&m.text()))),
        "mspace" => space(m.attr("width")),
        "none" | "mprescripts" | "annotation" | "annotation-xml" | "mphantom" => empty(),
        "mfrac" => Piece {
            tex: format!(
                "\\frac{{{}}}{{{}}}",
                arg(&nth(&kids, 0)),
                arg(&nth(&kids, 1))
            ),
            kind: Kind::Script,
        },
        "msqrt" => Piece {
            tex: format!("\\sqrt{{{}}}", arg(&row(kids.iter().copied()))),
            kind: Kind::Script,
        },
        "mroot" => Piece {
            tex: format!("\\sqrt[{}]{{{}}}", arg(&nth(&kids, 1)), arg(&nth(&kids, 0))),
            kind: Kind::Script,
        },
        "msub" => script(&nth(&kids, 0), Some(&nth(&kids, 1)), None),
        "msup" => script(&nth(&kids, 0), None, Some(&nth(&kids, 1))),
        "msubsup" => script(&nth(&kids, 0), Some(&nth(&kids, 1)), Some(&nth(&kids, 2))),
        "munder" => under_over(&kids, Some(1), None),
        "mover" => under_over(&kids, None, Some(1)),
        "munderover" => under_over(&kids, Some(1), Some(2)),
        "mmultiscripts" => multiscripts(&kids),
        "mfenced" => fenced(m, &kids),
        "mtable" => table(m, &kids),
        "semantics" => {
            let tex = kids.iter().find(|k| {
                k.name == "annotation"
                    && matches!(
                        k.attr("encoding").map(str::to_ascii_lowercase).as_deref(),
                        Some("tex" | "latex" | "application/x-tex" | "application/x-latex")
                    )
            });
            match tex {
                Some(a) if !a.text().trim().is_empty() => Piece {
                    tex: tex_math_body(&a.text()),
                    kind: Kind::Script,
                },
                _ => kids.first().map_or_else(empty, |k| piece(k)),
            }
        }
        "maction" => kids.first().map_or_else(empty, |k| piece(k)),
        // mrow, math, mstyle, mpadded, menclose, merror, mtd, and any
        // element not known: its children as a row (nothing dropped).
        _ => row(kids.into_iter()),
    }
}

fn identifier(m: &Math) -> Piece {
    let t = m.text();
    let t = t.trim();
    if t.is_empty() {
        return empty();
    }
    if FUNCTIONS.contains(&t) {
        return atom(format!("\\{t}"));
    }
    let n = t.chars().count();
    let wrap = match m.attr("mathvariant") {
        Some("bold") => Some("mathbf"),
        Some("italic") if n > 1 => Some("mathit"),
        Some("double-struck") => Some("mathbb"),
        Some("script") => Some("mathcal"),
        Some("fraktur") => Some("mathfrak"),
        Some("sans-serif") => Some("mathsf"),
        Some("monospace") => Some("mathtt"),
        _ => None,
    };
    if let Some(w) = wrap {
        return atom(format!("\\{w}{{{}}}", chars_tex(t)));
    }
    if n == 1 {
        atom(chars_tex(t))
    } else {
        // Several letters: a row of identifiers (braced in a row).
        join(t.chars().map(|c| atom(chars_tex(&c.to_string()))).collect())
    }
}

/// Functions TeX has a command for (`<mi>sin</mi>` → `\sin`).
const FUNCTIONS: [&str; 30] = [
    "arccos", "arcsin", "arctan", "arg", "cos", "cosh", "cot", "coth", "csc", "deg", "det", "dim",
    "exp", "gcd", "hom", "inf", "ker", "lg", "lim", "liminf", "limsup", "ln", "log", "max", "min",
    "Pr", "sec", "sin", "sinh", "sup",
];

/// Operators spaced on both sides (binary operators and relations).
const SPACED: &str = "+−-±∓×÷·⋅∗∘∙∩∪∧∨⊕⊗∖=<>≤≥≦≧≠≈∼~≃≡≅∝≪≫∈∉∋⊂⊃⊆⊇→←↔⇒⇐⇔↦≜≲≳⊥∥≺≻";

fn operator(t: &str) -> Piece {
    match t {
        "" | "\u{2061}" | "\u{2062}" | "\u{2063}" | "\u{2064}" => return empty(),
        "°" => return atom("{^\\circ}"),
        _ => {}
    }
    if FUNCTIONS.contains(&t) {
        return atom(format!("\\{t}"));
    }
    let mut cs = t.chars();
    let single = matches!((cs.next(), cs.next()), (Some(_), None));
    let tex = chars_tex(t);
    if single && SPACED.contains(t) {
        Piece {
            tex,
            kind: Kind::Spaced,
        }
    } else {
        atom(tex)
    }
}

fn text(t: &str) -> Piece {
    if t.trim().is_empty() {
        // Layout spaces: the widths TeX has a command for.
        let mut s = String::new();
        for c in t.chars() {
            match c {
                '\u{2009}' | '\u{202F}' => s.push_str("\\,"),
                '\u{00A0}' => s.push_str("\\ "),
                '\u{2003}' => s.push_str("\\quad "),
                '\u{2002}' => s.push_str("\\enspace "),
                '\u{2005}' => s.push_str("\\:"),
                '\u{2004}' => s.push_str("\\;"),
                _ => {}
            }
        }
        return if s.is_empty() { empty() } else { atom(s) };
    }
    atom(format!("\\text{{{}}}", escape_text(t)))
}

/// Text-mode escapes for `\text{…}`.
fn escape_text(t: &str) -> String {
    let mut s = String::new();
    for c in t.chars() {
        match c {
            '\\' => s.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '%' | '&' | '#' | '_' => {
                s.push('\\');
                s.push(c);
            }
            '^' => s.push_str("\\textasciicircum{}"),
            '~' => s.push_str("\\textasciitilde{}"),
            c if c.is_whitespace() => {
                if !s.ends_with(' ') {
                    s.push(' ');
                }
            }
            c => s.push(c),
        }
    }
    s
}

fn space(width: Option<&str>) -> Piece {
    let Some(w) = width.map(str::trim) else {
        return empty();
    };
    let em: Option<f64> = w.strip_suffix("em").and_then(|n| n.trim().parse().ok());
    let Some(em) = em else {
        return if w.is_empty() { empty() } else { atom("\\ ") };
    };
    let mu = (em * 18.0).round() as i64;
    atom(match mu {
        0 => return empty(),
        3 => "\\,".to_string(),
        4 => "\\:".to_string(),
        5 => "\\;".to_string(),
        -3 => "\\!".to_string(),
        18 => "\\quad ".to_string(),
        36 => "\\qquad ".to_string(),
        n => format!("\\mspace{{{n}mu}} "),
    })
}

fn is_prime(p: &Piece) -> bool {
    !p.tex.is_empty() && p.tex.chars().all(|c| c == '\'')
}

fn script(b: &Piece, sub: Option<&Piece>, sup: Option<&Piece>) -> Piece {
    let mut s = base(b);
    if let Some(sub) = sub {
        s.push_str(&format!("_{{{}}}", arg(sub)));
    }
    if let Some(sup) = sup {
        if is_prime(sup) && sub.is_none() {
            s.push_str(&sup.tex);
        } else {
            s.push_str(&format!("^{{{}}}", arg(sup)));
        }
    }
    Piece {
        tex: s,
        kind: Kind::Script,
    }
}

/// Large operators whose limits go under and over (`\sum\limits_{…}^{…}`).
const LARGE: [&str; 10] = [
    "\\sum", "\\prod", "\\coprod", "\\int", "\\oint", "\\bigcup", "\\bigcap", "\\lim", "\\max",
    "\\min",
];

fn under_over(kids: &[&Math], under: Option<usize>, over: Option<usize>) -> Piece {
    let b = nth(kids, 0);
    let u = under.map(|i| nth(kids, i));
    let o = over.map(|i| nth(kids, i));
    if LARGE.contains(&b.tex.as_str()) {
        let mut s = format!("{}\\limits", b.tex);
        if let Some(u) = &u {
            s.push_str(&format!("_{{{}}}", arg(u)));
        }
        if let Some(o) = &o {
            s.push_str(&format!("^{{{}}}", arg(o)));
        }
        return Piece {
            tex: s,
            kind: Kind::Script,
        };
    }
    let accent = |p: &Piece, over: bool| -> Option<&'static str> {
        Some(match (p.tex.as_str(), over) {
            ("¯" | "‾" | "\\_" | "-", true) => "overline",
            ("\\hat{}" | "ˆ" | "^", true) => "hat",
            ("\\sim" | "˜", true) => "tilde",
            ("\\rightarrow" | "\u{20D7}", true) => "vec",
            ("." | "˙", true) => "dot",
            ("¨", true) => "ddot",
            ("⏞" | "︷", true) => "overbrace",
            ("¯" | "‾" | "\\_" | "-", false) => "underline",
            ("⏟" | "︸", false) => "underbrace",
            _ => return None,
        })
    };
    let mut s = arg(&b);
    if let Some(u) = &u {
        s = match accent(u, false) {
            Some(a) if o.is_none() => format!("\\{a}{{{s}}}"),
            _ => format!("\\underset{{{}}}{{{s}}}", arg(u)),
        };
    }
    if let Some(o) = &o {
        s = match accent(o, true) {
            Some(a) if u.is_none() => format!("\\{a}{{{s}}}"),
            _ => format!("\\overset{{{}}}{{{s}}}", arg(o)),
        };
    }
    Piece {
        tex: s,
        kind: Kind::Script,
    }
}

fn multiscripts(kids: &[&Math]) -> Piece {
    let b = nth(kids, 0);
    let at = kids.iter().position(|k| k.name == "mprescripts");
    let (post, pre) = match at {
        Some(i) => (&kids[1.min(i)..i], &kids[i + 1..]),
        None => (kids.get(1..).unwrap_or(&[]), &[][..]),
    };
    let pairs = |ks: &[&Math]| -> String {
        let mut s = String::new();
        for pair in ks.chunks(2) {
            let sub = pair.first().map_or_else(empty, |k| piece(k));
            let sup = pair.get(1).map_or_else(empty, |k| piece(k));
            s.push_str(&format!("_{{{}}}^{{{}}}", arg(&sub), arg(&sup)));
        }
        s
    };
    let mut s = String::new();
    if !pre.is_empty() {
        s.push_str("{}");
        s.push_str(&pairs(pre));
    }
    s.push_str(&base(&b));
    s.push_str(&pairs(post));
    Piece {
        tex: s,
        kind: Kind::Group,
    }
}

fn delimiter(d: &str) -> String {
    match d {
        "" => ".".to_string(),
        "{" => "\\{".to_string(),
        "}" => "\\}".to_string(),
        "⟨" | "〈" => "\\langle".to_string(),
        "⟩" | "〉" => "\\rangle".to_string(),
        "‖" => "\\|".to_string(),
        d => d.to_string(),
    }
}

fn fenced(m: &Math, kids: &[&Math]) -> Piece {
    let open = m.attr("open").unwrap_or("(");
    let close = m.attr("close").unwrap_or(")");
    let seps: Vec<char> = m
        .attr("separators")
        .unwrap_or(",")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut pieces = Vec::new();
    for (i, k) in kids.iter().enumerate() {
        if i > 0
            && let Some(c) = seps.get(i - 1).or(seps.last())
        {
            pieces.push(operator(&c.to_string()));
        }
        pieces.push(piece(k));
    }
    let inner = join(
        pieces
            .into_iter()
            .filter(|p| p.kind != Kind::Empty)
            .collect(),
    );
    let inner = match inner.kind {
        Kind::Group => format!("{{{}}}", inner.tex),
        _ => inner.tex,
    };
    atom(format!(
        "\\left{} {} \\right{}",
        delimiter(open),
        inner,
        delimiter(close)
    ))
}

fn table(m: &Math, rows: &[&Math]) -> Piece {
    let mut aligned = m.attr("columnalign").is_some();
    let mut body = Vec::new();
    let mut width = 0;
    for r in rows {
        let cells: Vec<&Math> = if r.name == "mtr" || r.name == "mlabeledtr" {
            r.elements().collect()
        } else {
            vec![*r]
        };
        width = width.max(cells.len());
        let mut out = Vec::new();
        for c in cells {
            aligned |= c.attr("columnalign").is_some() || r.attr("columnalign").is_some();
            let p = row(c.elements());
            out.push(match p.kind {
                Kind::Group => format!("{{{}}}", p.tex),
                Kind::Empty => String::new(),
                _ => p.tex,
            });
        }
        body.push(out.join(" & "));
    }
    let body = body.join(" \\\\ ");
    if aligned {
        let spec_of = |v: &str| -> Vec<char> {
            v.split_whitespace()
                .map(|a| match a {
                    "left" => 'l',
                    "right" => 'r',
                    _ => 'c',
                })
                .collect()
        };
        let mut spec: Vec<char> = m.attr("columnalign").map(spec_of).unwrap_or_default();
        if spec.is_empty()
            && let Some(r) = rows.first()
        {
            spec = r
                .elements()
                .map(|c| {
                    c.attr("columnalign")
                        .or(r.attr("columnalign"))
                        .and_then(|v| spec_of(v).first().copied())
                        .unwrap_or('c')
                })
                .collect();
        }
        let last = spec.last().copied().unwrap_or('c');
        let spec: String = (0..width.max(1))
            .map(|i| spec.get(i).copied().unwrap_or(last))
            .collect();
        atom(format!("\\begin{{array}}{{{spec}}} {body} \\end{{array}}"))
    } else {
        atom(format!("\\begin{{matrix}} {body} \\end{{matrix}}"))
    }
}

/// Characters in math mode: Greek letters and operators as TeX commands
/// (the table below), TeX's special characters escaped, others as they
/// are (`é`).
fn chars_tex(t: &str) -> String {
    let mut out = String::new();
    for c in t.chars() {
        match char_tex(c) {
            Some(s) => push_tex(&mut out, s),
            None => out.push(c),
        }
    }
    out
}

/// Characters MathML writes as themselves and TeX as a command (Greek
/// letters, operators, arrows, TeX's special characters), as pandoc 3.9
/// writes them (tests: `mathml_tex`).
const CHAR_TEX: &[(char, &str)] = &[
    ('α', "\\alpha"),
    ('β', "\\beta"),
    ('γ', "\\gamma"),
    ('δ', "\\delta"),
    ('ε', "\\varepsilon"),
    ('ϵ', "\\epsilon"),
    ('ζ', "\\zeta"),
    ('η', "\\eta"),
    ('θ', "\\theta"),
    ('ϑ', "\\vartheta"),
    ('ι', "\\iota"),
    ('κ', "\\kappa"),
    ('λ', "\\lambda"),
    ('μ', "\\mu"),
    ('µ', "\\mu"),
    ('ν', "\\nu"),
    ('ξ', "\\xi"),
    ('ο', "o"),
    ('π', "\\pi"),
    ('ϖ', "\\varpi"),
    ('ρ', "\\rho"),
    ('ϱ', "\\varrho"),
    ('σ', "\\sigma"),
    ('ς', "\\varsigma"),
    ('τ', "\\tau"),
    ('υ', "\\upsilon"),
    ('φ', "\\varphi"),
    ('ϕ', "\\phi"),
    ('χ', "\\chi"),
    ('ψ', "\\psi"),
    ('ω', "\\omega"),
    ('Γ', "\\Gamma"),
    ('Δ', "\\Delta"),
    ('Θ', "\\Theta"),
    ('Λ', "\\Lambda"),
    ('Ξ', "\\Xi"),
    ('Π', "\\Pi"),
    ('Σ', "\\Sigma"),
    ('Υ', "\\Upsilon"),
    ('Φ', "\\Phi"),
    ('Ψ', "\\Psi"),
    ('Ω', "\\Omega"),
    ('∞', "\\infty"),
    ('∂', "\\partial"),
    ('∇', "\\nabla"),
    ('ℓ', "\\ell"),
    ('ℏ', "\\hbar"),
    ('∅', "\\emptyset"),
    ('∀', "\\forall"),
    ('∃', "\\exists"),
    ('¬', "\\neg"),
    ('∑', "\\sum"),
    ('∏', "\\prod"),
    ('∐', "\\coprod"),
    ('∫', "\\int"),
    ('∮', "\\oint"),
    ('⋃', "\\bigcup"),
    ('⋂', "\\bigcap"),
    ('√', "\\surd"),
    ('…', "\\ldots"),
    ('⋯', "\\cdots"),
    ('⋮', "\\vdots"),
    ('⋱', "\\ddots"),
    ('′', "'"),
    ('″', "''"),
    ('±', "\\pm"),
    ('∓', "\\mp"),
    ('×', "\\times"),
    ('÷', "\\div"),
    ('·', "\\cdot"),
    ('⋅', "\\cdot"),
    ('∗', "\\ast"),
    ('∘', "\\circ"),
    ('∙', "\\bullet"),
    ('∩', "\\cap"),
    ('∪', "\\cup"),
    ('∧', "\\wedge"),
    ('∨', "\\vee"),
    ('⊕', "\\oplus"),
    ('⊗', "\\otimes"),
    ('∖', "\\setminus"),
    ('≤', "\\leq"),
    ('≦', "\\leq"),
    ('≥', "\\geq"),
    ('≧', "\\geq"),
    ('≠', "\\neq"),
    ('≈', "\\approx"),
    ('∼', "\\sim"),
    ('~', "\\sim"),
    ('≃', "\\simeq"),
    ('≡', "\\equiv"),
    ('≅', "\\cong"),
    ('∝', "\\propto"),
    ('≪', "\\ll"),
    ('≫', "\\gg"),
    ('≲', "\\lesssim"),
    ('≳', "\\gtrsim"),
    ('≺', "\\prec"),
    ('≻', "\\succ"),
    ('∈', "\\in"),
    ('∉', "\\notin"),
    ('∋', "\\ni"),
    ('⊂', "\\subset"),
    ('⊃', "\\supset"),
    ('⊆', "\\subseteq"),
    ('⊇', "\\supseteq"),
    ('→', "\\rightarrow"),
    ('←', "\\leftarrow"),
    ('↔', "\\leftrightarrow"),
    ('⇒', "\\Rightarrow"),
    ('⇐', "\\Leftarrow"),
    ('⇔', "\\Leftrightarrow"),
    ('↦', "\\mapsto"),
    ('↑', "\\uparrow"),
    ('↓', "\\downarrow"),
    ('≜', "\\triangleq"),
    ('⊥', "\\perp"),
    ('∥', "\\parallel"),
    ('∠', "\\angle"),
    ('△', "\\bigtriangleup"),
    ('⟨', "\\langle"),
    ('〈', "\\langle"),
    ('⟩', "\\rangle"),
    ('〉', "\\rangle"),
    ('‖', "\\|"),
    ('−', "-"),
    ('ℝ', "\\mathbb{R}"),
    ('ℕ', "\\mathbb{N}"),
    ('ℤ', "\\mathbb{Z}"),
    ('ℚ', "\\mathbb{Q}"),
    ('ℂ', "\\mathbb{C}"),
    ('{', "\\{"),
    ('}', "\\}"),
    ('%', "\\%"),
    ('#', "\\#"),
    ('&', "\\&"),
    ('_', "\\_"),
    ('$', "\\$"),
    ('\\', "\\backslash"),
    ('^', "\\hat{}"),
    ('°', "{^\\circ}"),
];

fn char_tex(c: char) -> Option<&'static str> {
    CHAR_TEX.iter().find(|(k, _)| *k == c).map(|(_, v)| *v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(name: &str, kids: Vec<MathChild>) -> MathChild {
        MathChild::El(Math {
            name: name.into(),
            attrs: vec![],
            children: kids,
        })
    }
    fn tok(name: &str, t: &str) -> MathChild {
        el(name, vec![MathChild::Text(t.into())])
    }
    fn math(kids: Vec<MathChild>) -> Math {
        Math {
            name: "math".into(),
            attrs: vec![],
            children: kids,
        }
    }

    #[test]
    fn control_words_are_kept_apart_from_letters() {
        let m = math(vec![tok("mn", "5"), tok("mi", "μ"), tok("mi", "g")]);
        assert_eq!(to_tex(&m), "5\\mu g");
    }

    #[test]
    fn tex_math_documents_give_their_formula() {
        let doc = "\\documentclass[12pt]{minimal}\n\\usepackage{amsmath}\n\\begin{document}$$\\alpha_{1} + b$$\\end{document}";
        assert_eq!(tex_math_body(doc), "\\alpha_{1} + b");
        assert_eq!(tex_math_body(" \\(x^2\\) "), "x^2");
        assert_eq!(tex_math_body("x^2"), "x^2");
    }

    #[test]
    fn empty_math_is_empty() {
        assert_eq!(to_tex(&math(vec![])), "");
        assert_eq!(to_tex(&math(vec![el("none", vec![])])), "");
    }
}
