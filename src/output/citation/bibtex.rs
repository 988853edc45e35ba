//! BibTeX (`fetch -f bibtex`, docs/cite.md "BibTeX"): `@article`,
//! `@book` and `@incollection` entries with stable keys, values escaped
//! for LaTeX (the ten special characters, and non-ASCII letters as accent
//! commands unless `--bib-unicode` asks for UTF-8, as biber reads it).

use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::OnceLock;

use icu_normalizer::DecomposingNormalizerBorrowed;

use crate::core::citation::{NameParts, full_pages, item_id, name_parts, retraction_note};
use crate::core::record::{Author, Record, RecordKind};
use crate::core::text::printable;

crate::core::choice::choice! {
    /// How entry keys are made (`--bib-key`).
    #[derive(Default)]
    pub enum KeyStyle {
        /// `pmid12091962`: stable, unique per record.
        #[default]
        Pmid = "pmid",
        /// `Olivero1990`: first author's family name (ASCII letters and
        /// digits) and year; a repeat in the same output gets `a`, `b`, … in
        /// output order (`Smith2020`, `Smith2020a`).
        AuthorYear = "author-year",
    }
}

/// BibTeX output options.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BibOptions {
    /// How keys are made.
    pub keys: KeyStyle,
    /// Keep non-ASCII characters as UTF-8 (biblatex with biber) instead of
    /// LaTeX commands.
    pub unicode: bool,
}

/// Makes entry keys in output order, remembering the author-year keys
/// given so far (one short string per distinct key).
#[derive(Debug, Default)]
pub struct Keys {
    style: KeyStyle,
    seen: HashMap<String, usize>,
}

/// `a`, `b`, … `z`, `aa`, `ab`, … for the n-th repeat (1-based).
fn suffix(mut n: usize) -> String {
    let mut s = Vec::new();
    while n > 0 {
        n -= 1;
        s.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

impl Keys {
    /// A key maker for one output.
    pub fn new(style: KeyStyle) -> Keys {
        Keys {
            style,
            seen: HashMap::new(),
        }
    }

    /// The key of the next record.
    pub fn key(&mut self, r: &Record) -> String {
        match self.style {
            KeyStyle::Pmid => item_id(&r.pmid),
            KeyStyle::AuthorYear => {
                let base = author_year(r);
                let n = self.seen.entry(base.clone()).or_insert(0);
                let key = if *n == 0 {
                    base
                } else {
                    format!("{base}{}", suffix(*n))
                };
                *n += 1;
                key
            }
        }
    }
}

/// `Olivero1990`, `GomezAyerbe2012`, `NationalToxicologyProgram2011`:
/// the first author's family name (else the first editor's, else
/// `Anonymous`) folded to ASCII letters and digits, and the year (`nd`
/// without one).
pub fn author_year(r: &Record) -> String {
    let first = r
        .authors
        .first()
        .or_else(|| r.book.as_ref().and_then(|b| b.editors.first()));
    let name = first.map(|a| match name_parts(a) {
        NameParts::Person { family, .. } => family,
        NameParts::Literal(l) => l,
    });
    let mut base = name.map(|n| ascii_fold(&n)).unwrap_or_default();
    if base.is_empty() {
        base = "Anonymous".into();
    }
    match r.date_parts.year {
        Some(y) => format!("{base}{y}"),
        None => format!("{base}nd"),
    }
}

fn nfd() -> &'static DecomposingNormalizerBorrowed<'static> {
    static NFD: OnceLock<DecomposingNormalizerBorrowed<'static>> = OnceLock::new();
    NFD.get_or_init(DecomposingNormalizerBorrowed::new_nfd)
}

/// The ASCII letters and digits of `s`, accents dropped (`Gómez Ayerbe` →
/// `GomezAyerbe`, `Ørsted` → `Orsted`, `Straße` → `Strasse`).
pub fn ascii_fold(s: &str) -> String {
    let mut out = String::new();
    for c in nfd().normalize(s).chars() {
        match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' => out.push(c),
            'ø' => out.push('o'),
            'Ø' => out.push('O'),
            'æ' => out.push_str("ae"),
            'Æ' => out.push_str("AE"),
            'œ' => out.push_str("oe"),
            'Œ' => out.push_str("OE"),
            'ß' => out.push_str("ss"),
            'ł' => out.push('l'),
            'Ł' => out.push('L'),
            'đ' => out.push('d'),
            'Đ' => out.push('D'),
            'ı' => out.push('i'),
            _ => {}
        }
    }
    out
}

/// The LaTeX accent command of a combining mark.
fn accent(mark: char) -> Option<&'static str> {
    Some(match mark {
        '\u{300}' => "`",
        '\u{301}' => "'",
        '\u{302}' => "^",
        '\u{303}' => "~",
        '\u{304}' => "=",
        '\u{306}' => "u",
        '\u{307}' => ".",
        '\u{308}' => "\"",
        '\u{30A}' => "r",
        '\u{30B}' => "H",
        '\u{30C}' => "v",
        '\u{323}' => "d",
        '\u{327}' => "c",
        '\u{328}' => "k",
        '\u{331}' => "b",
        _ => return None,
    })
}

/// LaTeX for characters with no decomposition into an ASCII letter.
fn special(c: char) -> Option<&'static str> {
    Some(match c {
        'ø' => "{\\o}",
        'Ø' => "{\\O}",
        'æ' => "{\\ae}",
        'Æ' => "{\\AE}",
        'œ' => "{\\oe}",
        'Œ' => "{\\OE}",
        'ß' => "{\\ss}",
        'ł' => "{\\l}",
        'Ł' => "{\\L}",
        'ı' => "{\\i}",
        '\u{a0}' => "~",
        '\u{2009}' | '\u{202f}' => "\\,",
        '\u{2013}' => "--",
        '\u{2014}' => "---",
        '\u{2018}' => "`",
        '\u{2019}' => "'",
        '\u{201c}' => "``",
        '\u{201d}' => "''",
        '\u{2026}' => "\\ldots{}",
        '\u{2122}' => "\\texttrademark{}",
        '\u{ae}' => "\\textregistered{}",
        '\u{a9}' => "\\textcopyright{}",
        '\u{b0}' => "\\textdegree{}",
        '\u{a7}' => "\\S{}",
        '\u{b6}' => "\\P{}",
        '\u{a3}' => "\\pounds{}",
        '\u{20ac}' => "\\texteuro{}",
        '\u{b1}' => "$\\pm$",
        '\u{d7}' => "$\\times$",
        '\u{b7}' => "$\\cdot$",
        '\u{2264}' => "$\\leq$",
        '\u{2265}' => "$\\geq$",
        '\u{2192}' => "$\\rightarrow$",
        '\u{2190}' => "$\\leftarrow$",
        '\u{2212}' => "$-$",
        '\u{b5}' => "$\\mu$",
        '\u{b9}' => "$^{1}$",
        '\u{b2}' => "$^{2}$",
        '\u{b3}' => "$^{3}$",
        'α' => "$\\alpha$",
        'β' => "$\\beta$",
        'γ' => "$\\gamma$",
        'δ' => "$\\delta$",
        'ε' => "$\\epsilon$",
        'ζ' => "$\\zeta$",
        'η' => "$\\eta$",
        'θ' => "$\\theta$",
        'ι' => "$\\iota$",
        'κ' => "$\\kappa$",
        'λ' => "$\\lambda$",
        'μ' => "$\\mu$",
        'ν' => "$\\nu$",
        'ξ' => "$\\xi$",
        'π' => "$\\pi$",
        'ρ' => "$\\rho$",
        'σ' => "$\\sigma$",
        'ς' => "$\\varsigma$",
        'τ' => "$\\tau$",
        'υ' => "$\\upsilon$",
        'φ' => "$\\phi$",
        'χ' => "$\\chi$",
        'ψ' => "$\\psi$",
        'ω' => "$\\omega$",
        'Γ' => "$\\Gamma$",
        'Δ' => "$\\Delta$",
        'Θ' => "$\\Theta$",
        'Λ' => "$\\Lambda$",
        'Ξ' => "$\\Xi$",
        'Π' => "$\\Pi$",
        'Σ' => "$\\Sigma$",
        'Υ' => "$\\Upsilon$",
        'Φ' => "$\\Phi$",
        'Ψ' => "$\\Psi$",
        'Ω' => "$\\Omega$",
        _ => return None,
    })
}

/// The ten LaTeX special characters, escaped. Braces become
/// `\textbraceleft{}`/`\textbraceright{}`: BibTeX 0.99d and biber count
/// the brace of `\{` too, so an unbalanced one in a title would end the
/// field (and a following `@article{` open a new entry).
fn push_ascii(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\textbackslash{}"),
        '{' => out.push_str("\\textbraceleft{}"),
        '}' => out.push_str("\\textbraceright{}"),
        '&' => out.push_str("\\&"),
        '%' => out.push_str("\\%"),
        '$' => out.push_str("\\$"),
        '#' => out.push_str("\\#"),
        '_' => out.push_str("\\_"),
        '~' => out.push_str("\\textasciitilde{}"),
        '^' => out.push_str("\\textasciicircum{}"),
        c if c.is_control() => out.push(' '),
        c => out.push(c),
    }
}

/// A letter with accents as LaTeX (`é` → `{\'{e}}`, `í` → `{\'{\i}}`,
/// `ǘ` → `{\'{\"{u}}}`), or `None` when it is not an ASCII letter with
/// marks LaTeX has commands for.
fn accented(c: char) -> Option<String> {
    let d: Vec<char> = nfd()
        .normalize(c.encode_utf8(&mut [0; 4]))
        .chars()
        .collect();
    let (base, marks) = d.split_first()?;
    if !base.is_ascii_alphabetic() || marks.is_empty() {
        return None;
    }
    let mut s = match base {
        'i' => "\\i".to_string(),
        'j' => "\\j".to_string(),
        b => b.to_string(),
    };
    for m in marks {
        s = format!("\\{}{{{s}}}", accent(*m)?);
    }
    Some(format!("{{{s}}}"))
}

/// `text` made safe for a BibTeX value: the special characters `& % $ #
/// _ { } ~ ^ \` escaped; non-ASCII as LaTeX commands (accents, `{\ss}`,
/// `$\alpha$`, `--`), kept as UTF-8 when no command exists or `unicode`
/// is set; line breaks and runs of white space as one space.
pub fn latex(text: &str, unicode: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    let mut prev = ' ';
    for c in text.chars() {
        // `--` and `---` are dashes to TeX: a hyphen after a hyphen stays one.
        if c == '-' && prev == '-' {
            out.push_str("{}");
        }
        prev = c;
        if c.is_whitespace() && (unicode || c != '\u{a0}') {
            if !blank {
                out.push(' ');
            }
            blank = true;
            continue;
        }
        blank = false;
        if c.is_ascii() {
            push_ascii(&mut out, c);
        } else if unicode {
            out.push(c);
        } else if let Some(s) = special(c) {
            out.push_str(s);
        } else if let Some(s) = accented(c) {
            out.push_str(&s);
        } else {
            out.push(c);
        }
    }
    out.trim().to_string()
}

/// A value read verbatim by BibTeX styles and biber (`doi`, `url`): only
/// the characters that would break the entry (braces, backslash, space)
/// are changed.
fn verbatim(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '{' | '}' | '\\') && !c.is_whitespace())
        .collect()
}

/// One part of a person's name. A part holding the word `and` or a comma
/// is braced: BibTeX, biber and bibtexparser split a name list at ` and `
/// and a name at `,` outside braces (`Smith and Jones` would be two
/// authors).
fn name_part(text: &str, unicode: bool) -> String {
    let s = latex(text, unicode);
    let splits = s.contains(',') || s.split_whitespace().any(|w| w.eq_ignore_ascii_case("and"));
    if splits { format!("{{{s}}}") } else { s }
}

/// A name in BibTeX form: `Last, Given` (`Last, Jr, Given`), a group in
/// braces so it is never split into names (`{ASPIRE Investigators}`).
fn bib_name(a: &Author, unicode: bool) -> String {
    match name_parts(a) {
        NameParts::Literal(l) => format!("{{{}}}", latex(&l, unicode)),
        NameParts::Person {
            family,
            given,
            suffix,
        } => {
            let mut s = name_part(&family, unicode);
            if let Some(x) = suffix {
                s.push_str(&format!(", {}", name_part(&x, unicode)));
            }
            if let Some(g) = given {
                s.push_str(&format!(", {}", name_part(&g, unicode)));
            }
            s
        }
    }
}

fn names(list: &[Author], unicode: bool) -> String {
    list.iter()
        .map(|a| bib_name(a, unicode))
        .collect::<Vec<_>>()
        .join(" and ")
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// The entry type: `@article`, `@book` (a whole book) or `@incollection`
/// (a part of one).
pub fn entry_type(r: &Record) -> &'static str {
    match r.kind() {
        RecordKind::JournalArticle => "article",
        RecordKind::Book => "book",
        RecordKind::BookChapter => "incollection",
    }
}

/// Writes one entry with key `key`: `author`, `editor`, `title` (in
/// braces, so styles keep PubMed's capitalisation), `journal` and
/// `shortjournal`, or `booktitle`/`publisher`/`address`/`edition`/`isbn`
/// for books, `year`, `month` (a month macro, when written), `volume`,
/// `number`, `pages` (`113--125`), `issn`, `doi`, `pmid`, `pmcid`, `url`,
/// `keywords` (MeSH headings and keywords), `abstract`, and
/// `note` (the retraction note).
pub fn write_entry(out: &mut dyn Write, r: &Record, key: &str, o: BibOptions) -> io::Result<()> {
    let u = o.unicode;
    let mut fields: Vec<(&str, String)> = Vec::new();
    let text = |name: &'static str, v: Option<&str>, fields: &mut Vec<(&str, String)>| {
        if let Some(v) = v.map(str::trim).filter(|v| !v.is_empty()) {
            fields.push((name, latex(v, u)));
        }
    };
    if !r.authors.is_empty() {
        fields.push(("author", names(&r.authors, u)));
    }
    if let Some(b) = r.book.as_ref().filter(|b| !b.editors.is_empty()) {
        fields.push(("editor", names(&b.editors, u)));
    }
    fields.push(("title", format!("{{{}}}", latex(&r.title, u))));
    if let Some(j) = &r.journal {
        text("journal", Some(&j.title), &mut fields);
        text(
            "shortjournal",
            j.iso_abbreviation.as_deref().or(j.medline_ta.as_deref()),
            &mut fields,
        );
    }
    if let Some(b) = &r.book {
        if r.kind() == RecordKind::BookChapter {
            fields.push(("booktitle", format!("{{{}}}", latex(&b.title, u))));
        }
        text("series", b.collection_title.as_deref(), &mut fields);
        text("publisher", b.publisher.as_deref(), &mut fields);
        text("address", b.publisher_location.as_deref(), &mut fields);
        text("edition", b.edition.as_deref(), &mut fields);
        text("volume", b.volume.as_deref(), &mut fields);
        text("isbn", b.isbn.first().map(String::as_str), &mut fields);
    }
    if let Some(y) = r.date_parts.year {
        fields.push(("year", y.to_string()));
    }
    if let Some(m) = r.date_parts.month {
        // A month macro, unbraced (see the writer below).
        fields.push(("month", format!("\u{0}{}", MONTHS[usize::from(m) - 1])));
    }
    if let Some(j) = &r.journal {
        text("volume", j.volume.as_deref(), &mut fields);
        text("number", j.issue.as_deref(), &mut fields);
    }
    if let Some(p) = pages(r, u) {
        fields.push(("pages", p));
    }
    if let Some(j) = &r.journal {
        text("issn", j.issn.as_deref(), &mut fields);
    }
    if let Some(d) = &r.doi {
        fields.push(("doi", verbatim(d)));
    }
    fields.push(("pmid", r.pmid.clone()));
    if let Some(p) = &r.pmcid {
        fields.push(("pmcid", verbatim(p)));
    }
    fields.push(("url", verbatim(&r.pubmed_url)));
    let keywords = keywords(r, u);
    if !keywords.is_empty() {
        fields.push(("keywords", keywords.join(", ")));
    }
    text("abstract", r.r#abstract.as_deref(), &mut fields);
    text("note", retraction_note(r).as_deref(), &mut fields);
    writeln!(out, "@{}{{{key},", entry_type(r))?;
    let last = fields.len().saturating_sub(1);
    for (i, (name, value)) in fields.iter().enumerate() {
        let comma = if i < last { "," } else { "" };
        match value.strip_prefix('\u{0}') {
            Some(mac) => writeln!(out, "  {name} = {mac}{comma}")?,
            None => writeln!(out, "  {name} = {{{value}}}{comma}")?,
        }
    }
    writeln!(out, "}}\n")
}

/// `pages` with the end page written out in full and an en dash between
/// a plain range's ends (`113--125`); any other form as written.
fn pages(r: &Record, unicode: bool) -> Option<String> {
    let p = latex(&full_pages(r)?, unicode);
    Some(match p.split_once('-') {
        Some((a, b)) if !a.is_empty() && !b.is_empty() && !b.contains('-') => {
            format!("{a}--{b}")
        }
        _ => p,
    })
}

/// `keywords`: each MeSH heading with its qualifiers
/// (`Aspirin/administration & dosage`), then each keyword, escaped.
fn keywords(r: &Record, unicode: bool) -> Vec<String> {
    r.mesh_headings
        .iter()
        .map(|m| {
            let mut s = m.descriptor.clone();
            for q in &m.qualifiers {
                s.push('/');
                s.push_str(&q.name);
            }
            s
        })
        .chain(r.keywords.iter().cloned())
        .map(|k| {
            // `Antineoplastic Agents, Hormonal`: braces keep a comma inside
            // one keyword of biblatex's comma-separated list.
            let k = latex(&k, unicode);
            if k.contains(',') {
                format!("{{{k}}}")
            } else {
                k
            }
        })
        .collect()
}

/// The comment standing in for a PMID without a record (text outside
/// entries is ignored by BibTeX and biber; `@` is left out so it never
/// starts one), so entry N of the output is still input N.
pub fn write_error(out: &mut dyn Write, pmid: &str, reason: &str, message: &str) -> io::Result<()> {
    // The PMID and message may quote an input line: no control character
    // (ESC, NUL) leaves raw.
    let text = printable(&format!("% pubmed: PMID {pmid}: {reason}: {message}"))
        .replace(['@', '{', '}'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    writeln!(out, "{text}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specials_and_accents() {
        // Braces as commands: BibTeX counts `\{` as a brace (docs/cite.md).
        assert_eq!(
            latex(r"50% & $5 #1 a_b {x} ~ ^ \", false),
            r"50\% \& \$5 \#1 a\_b \textbraceleft{}x\textbraceright{} \textasciitilde{} \textasciicircum{} \textbackslash{}"
        );
        assert_eq!(latex("Gómez Pérez", false), r"G{\'{o}}mez P{\'{e}}rez");
        assert_eq!(latex("Ruíz", false), r"Ru{\'{\i}}z");
        assert_eq!(latex("Müller Straße", false), r#"M{\"{u}}ller Stra{\ss}e"#);
        assert_eq!(latex("Çelik", false), r"{\c{C}}elik");
        assert_eq!(latex("GeneReviews™", false), r"GeneReviews\texttrademark{}");
        assert_eq!(latex("TNF-α", false), r"TNF-$\alpha$");
        assert_eq!(latex("Gómez & co", true), r"Gómez \& co");
        assert_eq!(latex("a\n  b", false), "a b");
        assert_eq!(latex("a--b", false), "a-{}-b");
    }

    /// ` and ` and `,` split names outside braces (BibTeX's `num.names$`,
    /// biber, bibtexparser's `SeparateCoAuthors`): such a part is braced.
    #[test]
    fn name_parts_that_would_split_are_braced() {
        let p = |last: &str, fore: &str| {
            let a = Author::person(Some(last.into()), Some(fore.into()), None, None);
            names(&[a], false)
        };
        assert_eq!(p("Smith and Jones", "Bob"), "{Smith and Jones}, Bob");
        assert_eq!(p("Lee", "Kim AND Park"), "Lee, {Kim AND Park}");
        assert_eq!(p("Smith, Jr", "Ann"), "{Smith, Jr}, Ann");
        assert_eq!(p("Anderson", "Andy"), "Anderson, Andy");
        assert_eq!(
            p("van der {Berg", "Jan"),
            r"van der \textbraceleft{}Berg, Jan"
        );
    }

    #[test]
    fn folded_keys() {
        assert_eq!(ascii_fold("Gómez Ayerbe"), "GomezAyerbe");
        assert_eq!(ascii_fold("Ørsted-Ærø"), "OrstedAEro");
        assert_eq!(suffix(1), "a");
        assert_eq!(suffix(26), "z");
        assert_eq!(suffix(27), "aa");
    }
}
