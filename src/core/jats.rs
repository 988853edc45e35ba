//! JATS full text (PMC EFetch `db=pmc`, the PMC OA packages' `.nxml`,
//! Europe PMC `fullTextXML`) read into a typed [`Article`]: front matter,
//! licence, sections as a tree, figure and table captions, table cells,
//! supplementary material and references (docs/fulltext.md "Reading
//! JATS"). Pure: reads any [`BufRead`], one event at a time, with no
//! document tree, so memory is the article's text, not its markup
//! (`bench/` measures it). Nesting is capped at [`MAX_DEPTH`].

use std::io::BufRead;

use quick_xml::Reader;
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesStart, Event};
use serde::Serialize;

use super::mathml;

/// Elements read as one paragraph each (their inline content folded).
const PARAGRAPHS: [&str; 6] = [
    "p",
    "list",
    "disp-formula",
    "def-list",
    "preformat",
    "speech",
];

/// Deepest element nesting read; deeper is [`JatsError`], never a stack
/// overflow (the same figure as `ncbi::xml`).
pub const MAX_DEPTH: usize = 256;

/// Why a JATS document could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JatsError(pub String);

impl std::fmt::Display for JatsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The licence an article carries (`<permissions>`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct License {
    /// `<license xlink:href>` (e.g. `http://creativecommons.org/licenses/by/2.0`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// `<license license-type>` (e.g. `open-access`).
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The `<license-p>` text, whitespace folded.
    pub text: String,
}

/// A figure (`<fig>`): its caption, never the image.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Figure {
    /// `@id`.
    pub id: String,
    /// `<label>` (`Figure 1`).
    pub label: String,
    /// `<caption>` text: its title and paragraphs, whitespace folded.
    pub caption: String,
}

/// One table cell (`<th>`/`<td>`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// The cell's text, whitespace folded.
    pub text: String,
    /// True for `<th>` or a cell of `<thead>`.
    pub header: bool,
    /// `@colspan` (1 when absent).
    pub colspan: u32,
    /// `@rowspan` (1 when absent).
    pub rowspan: u32,
}

/// A table (`<table-wrap>`): caption and cells, row by row.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Table {
    /// `@id`.
    pub id: String,
    /// `<label>` (`Table 1`).
    pub label: String,
    /// `<caption>` text.
    pub caption: String,
    /// The `<tr>` rows in order (`<thead>` first); empty when the table is
    /// an image only.
    pub rows: Vec<Vec<Cell>>,
    /// `<table-wrap-foot>` text.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub foot: String,
}

impl Table {
    /// True when Markdown can hold it: rows of one width with no spans.
    pub fn is_simple(&self) -> bool {
        let Some(first) = self.rows.first() else {
            return false;
        };
        self.rows
            .iter()
            .all(|r| r.len() == first.len() && r.iter().all(|c| c.colspan == 1 && c.rowspan == 1))
    }
}

/// Supplementary material (`<supplementary-material>`): a link, never the file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Supplement {
    /// `@id`.
    pub id: String,
    /// `<label>`.
    pub label: String,
    /// `<caption>` text.
    pub caption: String,
    /// The file's name or address (`<media xlink:href>` or the element's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
}

/// One reference (`<ref>`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Reference {
    /// `@id` (what `<xref rid>` points at).
    pub id: String,
    /// `<label>` (`1`), when the XML numbers it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub label: String,
    /// The citation's text, whitespace folded.
    pub text: String,
    /// `<pub-id pub-id-type="pmid">`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pmid: Option<String>,
    /// `<pub-id pub-id-type="doi">`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doi: Option<String>,
}

/// What a section holds, in document order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// A paragraph's text.
    Paragraph(String),
    /// Index into [`Article::figures`].
    Figure(usize),
    /// Index into [`Article::tables`].
    Table(usize),
    /// Index into [`Article::supplements`].
    Supplement(usize),
}

/// A section (`<sec>`, or the paragraphs of `<body>` before any).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Section {
    /// `<title>`, whitespace folded; empty when it has none.
    pub title: String,
    /// `@sec-type` (`methods`, `results`, …).
    pub kind: Option<String>,
    /// Paragraphs and floats, in order.
    pub blocks: Vec<Block>,
    /// Nested sections, in order.
    pub sections: Vec<Section>,
}

impl Section {
    /// The paragraphs' texts, in order.
    pub fn paragraphs(&self) -> impl Iterator<Item = &str> {
        self.blocks.iter().filter_map(|b| match b {
            Block::Paragraph(p) => Some(p.as_str()),
            _ => None,
        })
    }
}

/// True when `sec` is one of `wanted` (`--section`): a wanted name equals
/// one of its `sec-type` parts (`materials|methods`) or is in its title,
/// case-insensitively.
pub fn section_matches(sec: &Section, wanted: &[String]) -> bool {
    let title = sec.title.to_lowercase();
    wanted.iter().any(|w| {
        let w = w.trim().to_lowercase();
        !w.is_empty()
            && (sec
                .kind
                .as_deref()
                .is_some_and(|k| k.split('|').any(|p| p.trim().eq_ignore_ascii_case(&w)))
                || title.contains(&w))
    })
}

/// The sections `wanted` selects, in document order: a matching section
/// whole, else its matching subsections. An empty `wanted` keeps all.
pub fn select_sections<'a>(sections: &'a [Section], wanted: &[String]) -> Vec<&'a Section> {
    if wanted.is_empty() {
        return sections.iter().collect();
    }
    let mut out = Vec::new();
    for s in sections {
        if section_matches(s, wanted) {
            out.push(s);
        } else {
            out.extend(select_sections(&s.sections, wanted));
        }
    }
    out
}

/// One article of a JATS document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Article {
    /// `<article-id pub-id-type="pmc">` (or `pmcid`) as `PMC` + digits.
    pub pmcid: Option<String>,
    /// `<article-id pub-id-type="pmid">`.
    pub pmid: Option<String>,
    /// `<article-id pub-id-type="doi">`.
    pub doi: Option<String>,
    /// Set when the article is an author manuscript (the accepted
    /// manuscript a funder's policy deposited, not the publisher's
    /// version): PMC's `<?properties manuscript?>` instruction or a
    /// `<article-id pub-id-type="manuscript">`.
    pub manuscript: Option<Manuscript>,
    /// `<article @article-type>` (`research-article`, `review-article`, `case-report`).
    pub article_type: Option<String>,
    /// `<article @xml:lang>`.
    pub language: Option<String>,
    /// `<article-title>`.
    pub title: String,
    /// The authors (`<contrib contrib-type="author">`): `Given Surname`, or the collab's name.
    pub authors: Vec<String>,
    /// `<journal-title>`.
    pub journal: Option<String>,
    /// The first `<abstract>` with no `@abstract-type`, as sections (an
    /// unstructured abstract is one untitled section).
    pub abstract_sections: Vec<Section>,
    /// `<license>`.
    pub license: Option<License>,
    /// True when the article has a `<body>`: PMC's answer for a publisher
    /// who does not allow the full text in XML has front matter only.
    pub has_body: bool,
    /// `<body>` sections.
    pub sections: Vec<Section>,
    /// Every `<fig>`, in document order.
    pub figures: Vec<Figure>,
    /// Every `<table-wrap>`, in document order.
    pub tables: Vec<Table>,
    /// Every `<supplementary-material>`, in document order.
    pub supplements: Vec<Supplement>,
    /// `<ref-list>` references, in order.
    pub references: Vec<Reference>,
}

/// What marks an article as an author manuscript (docs/fulltext.md
/// "Author manuscripts").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Manuscript {
    /// `<article-id pub-id-type="manuscript">` as written: the deposit's
    /// ID (`NIHMS1793594` for NIH, `EMS…` for Europe PMC funders,
    /// `HHSPA…`/`EPAPA…` for other agencies); `None` when only PMC's
    /// `<?properties manuscript?>` says so.
    pub id: Option<String>,
}

/// One item of a `<pmc-articleset>` (or a bare `<article>` document).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetItem {
    /// An article.
    Article(Box<Article>),
    /// PMC's `<Reply Id="…" error="The following PMCID is not available: …"/>`.
    Reply {
        /// `@Id` (the PMCID's digits as sent).
        id: String,
        /// `@error`.
        error: String,
    },
}

/// An owned event: only what the reader needs.
enum Ev {
    Start(Tag),
    Empty(Tag),
    End,
    Text(String),
    Eof,
}

struct Tag {
    name: String,
    attrs: Vec<(String, String)>,
}

impl Tag {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn tag(e: &BytesStart<'_>) -> Result<Tag, JatsError> {
    let name = e.name().as_ref().to_string();
    let mut attrs = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|err| JatsError(err.to_string()))?;
        let k = a.key.as_ref().to_string();
        let v = a
            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .map_err(|err| JatsError(err.to_string()))?
            .into_owned();
        attrs.push((k, v));
    }
    Ok(Tag { name, attrs })
}

fn math_el(t: &Tag) -> mathml::Math {
    let mut m = mathml::Math::new(&t.name);
    m.attrs = t.attrs.clone();
    m
}

/// Appends a formula: ` label $tex$` or ` label $$tex$$` (display).
fn push_formula(out: &mut String, label: &str, tex: &str, display: bool) {
    if tex.is_empty() {
        return;
    }
    if display || !label.is_empty() {
        space(out);
    }
    if !label.is_empty() {
        out.push_str(label);
        out.push(' ');
    }
    let d = if display { "$$" } else { "$" };
    out.push_str(d);
    out.push_str(tex);
    out.push_str(d);
    if display {
        out.push(' ');
    }
}

/// Appends `s` with whitespace folded to single spaces.
fn push_folded(out: &mut String, s: &str) {
    for (i, part) in s.split(char::is_whitespace).enumerate() {
        if i > 0 && !out.ends_with(' ') && !out.is_empty() {
            out.push(' ');
        }
        out.push_str(part);
    }
}

fn space(out: &mut String) {
    if !out.is_empty() && !out.ends_with(' ') {
        out.push(' ');
    }
}

fn finish(s: String) -> String {
    s.trim().to_string()
}

struct Parser<R> {
    reader: Reader<R>,
    buf: Vec<u8>,
    depth: usize,
    /// Byte offset where the last event returned began (after any
    /// declaration, DOCTYPE or comment skipped before it).
    began: usize,
    /// A `<?properties … manuscript …?>` was passed since the current
    /// `<article>` began (PMC writes it right after the start tag).
    manuscript_pi: bool,
}

impl<R: BufRead> Parser<R> {
    fn next(&mut self) -> Result<Ev, JatsError> {
        loop {
            self.buf.clear();
            self.began = self.reader.buffer_position() as usize;
            let ev = self
                .reader
                .read_event_into(&mut self.buf)
                .map_err(|e| JatsError(e.to_string()))?;
            return Ok(match ev {
                Event::Start(e) => {
                    if self.depth >= MAX_DEPTH {
                        return Err(JatsError(format!(
                            "elements nested more than {MAX_DEPTH} levels deep"
                        )));
                    }
                    self.depth += 1;
                    Ev::Start(tag(&e)?)
                }
                Event::Empty(e) => Ev::Empty(tag(&e)?),
                Event::End(_) => {
                    self.depth = self.depth.saturating_sub(1);
                    Ev::End
                }
                Event::Text(t) => Ev::Text(t.xml10_content().into_owned()),
                Event::CData(t) => Ev::Text(t.xml10_content().into_owned()),
                Event::GeneralRef(r) => match r.resolve_char_ref() {
                    Ok(Some(c)) => Ev::Text(c.to_string()),
                    Ok(None) => {
                        let name = r.xml10_content().into_owned();
                        Ev::Text(
                            resolve_predefined_entity(&name)
                                .map_or_else(|| format!("&{name};"), str::to_string),
                        )
                    }
                    Err(e) => return Err(JatsError(e.to_string())),
                },
                Event::Eof => Ev::Eof,
                Event::PI(p) => {
                    if p.target() == "properties"
                        && p.content().split_whitespace().any(|w| w == "manuscript")
                    {
                        self.manuscript_pi = true;
                    }
                    continue;
                }
                Event::Decl(_) | Event::DocType(_) | Event::Comment(_) => continue,
            });
        }
    }

    /// Consumes the rest of the element just started.
    fn skip(&mut self) -> Result<(), JatsError> {
        let mut open = 1usize;
        while open > 0 {
            match self.next()? {
                Ev::Start(_) => open += 1,
                Ev::End => open -= 1,
                Ev::Eof => return Err(truncated()),
                Ev::Empty(_) | Ev::Text(_) => {}
            }
        }
        Ok(())
    }

    /// The text of the element just started, whitespace folded; floats
    /// inside it (`<fig>`, `<table-wrap>`, `<supplementary-material>`) go
    /// to `art` and `blocks`, not into the text. `spaced` puts a space
    /// between child elements (`<element-citation>` has no punctuation).
    fn inline(
        &mut self,
        out: &mut String,
        art: &mut Article,
        blocks: &mut Vec<Block>,
        spaced: bool,
    ) -> Result<(), JatsError> {
        loop {
            match self.next()? {
                Ev::Text(t) => push_folded(out, &t),
                Ev::End => return Ok(()),
                Ev::Eof => return Err(truncated()),
                Ev::Empty(t) => {
                    if t.name == "break" || spaced {
                        space(out);
                    }
                }
                Ev::Start(t) => {
                    if self.float(&t, art, blocks)? {
                        continue;
                    }
                    if spaced
                        || matches!(
                            t.name.as_str(),
                            "list-item" | "td" | "th" | "disp-formula" | "title" | "p"
                        )
                    {
                        space(out);
                    }
                    match t.name.as_str() {
                        "inline-formula" | "disp-formula" | "tex-math" => {
                            self.formula(&t, out, art)?;
                            continue;
                        }
                        n if mathml::local(n) == "math" => {
                            let m = self.math_tree(&t)?;
                            push_formula(out, "", &mathml::to_tex(&m), m.is_display());
                            continue;
                        }
                        _ => {}
                    }
                    self.inline(out, art, blocks, spaced)?;
                    if spaced {
                        space(out);
                    }
                }
            }
        }
    }

    /// A formula (`<inline-formula>`, `<disp-formula>`, a lone
    /// `<tex-math>`) just started as `t`, written as `$TeX$` (inline) or
    /// `$$TeX$$` (display) after its label: the author's `<tex-math>` when
    /// there is one, else the MathML converted (`core::mathml`), else the
    /// formula's text (docs/fulltext.md "Formulas").
    fn formula(&mut self, t: &Tag, out: &mut String, art: &mut Article) -> Result<(), JatsError> {
        let display = t.name == "disp-formula";
        let mut label = String::new();
        let mut tex = String::new();
        let mut math: Option<mathml::Math> = None;
        let mut other = String::new();
        if t.name == "tex-math" {
            self.raw_text(&mut tex)?;
        } else {
            self.formula_parts(&mut label, &mut tex, &mut math, &mut other, art)?;
        }
        let tex = mathml::tex_math_body(&tex);
        let display = display || math.as_ref().is_some_and(mathml::Math::is_display);
        let tex = if !tex.is_empty() {
            tex
        } else {
            math.as_ref().map(mathml::to_tex).unwrap_or_default()
        };
        if tex.is_empty() {
            // No formula in TeX or MathML (a graphic, plain text): its text.
            let lead = finish(std::mem::take(&mut label));
            space(out);
            push_folded(out, &lead);
            space(out);
            push_folded(out, other.trim());
            return Ok(());
        }
        push_formula(out, &finish(label), &tex, display);
        Ok(())
    }

    fn formula_parts(
        &mut self,
        label: &mut String,
        tex: &mut String,
        math: &mut Option<mathml::Math>,
        other: &mut String,
        art: &mut Article,
    ) -> Result<(), JatsError> {
        loop {
            match self.next()? {
                Ev::End => return Ok(()),
                Ev::Eof => return Err(truncated()),
                Ev::Empty(_) => {}
                Ev::Text(t) => push_folded(other, &t),
                Ev::Start(c) => match c.name.as_str() {
                    "label" => *label = self.text_of(art)?,
                    "alternatives" => self.formula_parts(label, tex, math, other, art)?,
                    "tex-math" if tex.is_empty() => self.raw_text(tex)?,
                    n if mathml::local(n) == "math" && math.is_none() => {
                        *math = Some(self.math_tree(&c)?)
                    }
                    // A graphic's text, or inline markup around plain text.
                    _ => {
                        let mut floats = Vec::new();
                        self.inline(other, art, &mut floats, false)?;
                    }
                },
            }
        }
    }

    /// The character data of the element just started, as written.
    fn raw_text(&mut self, out: &mut String) -> Result<(), JatsError> {
        let mut open = 1usize;
        while open > 0 {
            match self.next()? {
                Ev::Start(_) => open += 1,
                Ev::End => open -= 1,
                Ev::Eof => return Err(truncated()),
                Ev::Text(t) => out.push_str(&t),
                Ev::Empty(_) => {}
            }
        }
        Ok(())
    }

    /// The MathML element just started as `t`, as a tree (a formula is
    /// small; the depth cap still holds).
    fn math_tree(&mut self, t: &Tag) -> Result<mathml::Math, JatsError> {
        let mut m = math_el(t);
        loop {
            match self.next()? {
                Ev::End => return Ok(m),
                Ev::Eof => return Err(truncated()),
                Ev::Empty(c) => m.children.push(mathml::MathChild::El(math_el(&c))),
                Ev::Text(s) => m.children.push(mathml::MathChild::Text(s)),
                Ev::Start(c) => {
                    let k = self.math_tree(&c)?;
                    m.children.push(mathml::MathChild::El(k));
                }
            }
        }
    }

    /// The text of a paragraph-like element just started as `t`: a
    /// `<disp-formula>` as a formula, others their inline text.
    fn block_text(
        &mut self,
        t: &Tag,
        out: &mut String,
        art: &mut Article,
        floats: &mut Vec<Block>,
    ) -> Result<(), JatsError> {
        if t.name == "disp-formula" {
            self.formula(t, out, art)
        } else {
            self.inline(out, art, floats, false)
        }
    }

    fn text_of(&mut self, art: &mut Article) -> Result<String, JatsError> {
        let mut s = String::new();
        let mut floats = Vec::new();
        self.inline(&mut s, art, &mut floats, false)?;
        Ok(finish(s))
    }

    /// Reads a float started as `t` into `art` (and a block), true when it
    /// was one.
    fn float(
        &mut self,
        t: &Tag,
        art: &mut Article,
        blocks: &mut Vec<Block>,
    ) -> Result<bool, JatsError> {
        match t.name.as_str() {
            "fig" => {
                let fig = self.figure(t, art)?;
                art.figures.push(fig);
                blocks.push(Block::Figure(art.figures.len() - 1));
            }
            "table-wrap" => {
                let table = self.table(t, art)?;
                art.tables.push(table);
                blocks.push(Block::Table(art.tables.len() - 1));
            }
            "supplementary-material" => {
                let s = self.supplement(t, art)?;
                art.supplements.push(s);
                blocks.push(Block::Supplement(art.supplements.len() - 1));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `<label>` and `<caption>` of a float; other children go to `other`.
    fn captioned(
        &mut self,
        art: &mut Article,
        mut other: impl FnMut(&mut Self, Tag, &mut Article, bool) -> Result<(), JatsError>,
    ) -> Result<(String, String), JatsError> {
        let (mut label, mut caption) = (String::new(), String::new());
        loop {
            match self.next()? {
                Ev::End => return Ok((label, caption)),
                Ev::Eof => return Err(truncated()),
                Ev::Text(_) => {}
                Ev::Empty(t) => {
                    if t.name == "media" || t.name == "graphic" {
                        other(self, t, art, true)?;
                    }
                }
                Ev::Start(t) => match t.name.as_str() {
                    "label" => label = self.text_of(art)?,
                    "caption" => {
                        let mut s = String::new();
                        let mut floats = Vec::new();
                        self.inline(&mut s, art, &mut floats, false)?;
                        caption = finish(s);
                    }
                    _ => other(self, t, art, false)?,
                },
            }
        }
    }

    fn figure(&mut self, t: &Tag, art: &mut Article) -> Result<Figure, JatsError> {
        let (label, caption) =
            self.captioned(art, |p, _, _, empty| if empty { Ok(()) } else { p.skip() })?;
        Ok(Figure {
            id: t.attr("id").unwrap_or_default().to_string(),
            label,
            caption,
        })
    }

    fn supplement(&mut self, t: &Tag, art: &mut Article) -> Result<Supplement, JatsError> {
        let mut href = t.attr("xlink:href").map(str::to_string);
        let (label, caption) = self.captioned(art, |p, c, _, empty| {
            if href.is_none() && (c.name == "media" || c.name == "graphic") {
                href = c.attr("xlink:href").map(str::to_string);
            }
            if empty { Ok(()) } else { p.skip() }
        })?;
        Ok(Supplement {
            id: t.attr("id").unwrap_or_default().to_string(),
            label,
            caption,
            href,
        })
    }

    fn table(&mut self, t: &Tag, art: &mut Article) -> Result<Table, JatsError> {
        let mut rows: Vec<Vec<Cell>> = Vec::new();
        let mut foot = String::new();
        let (label, caption) = self.captioned(art, |p, c, art, empty| match c.name.as_str() {
            _ if empty => Ok(()),
            "table" | "alternatives" => p.rows(&mut rows, false, art),
            "table-wrap-foot" => {
                let mut s = String::new();
                let mut floats = Vec::new();
                p.inline(&mut s, art, &mut floats, true)?;
                foot = finish(s);
                Ok(())
            }
            _ => p.skip(),
        })?;
        Ok(Table {
            id: t.attr("id").unwrap_or_default().to_string(),
            label,
            caption,
            rows,
            foot,
        })
    }

    /// The `<tr>` rows of the element just started (`<table>`, `<thead>`, …).
    fn rows(
        &mut self,
        rows: &mut Vec<Vec<Cell>>,
        head: bool,
        art: &mut Article,
    ) -> Result<(), JatsError> {
        loop {
            match self.next()? {
                Ev::End => return Ok(()),
                Ev::Eof => return Err(truncated()),
                Ev::Text(_) => {}
                Ev::Empty(t) => {
                    if t.name == "tr" {
                        rows.push(Vec::new());
                    }
                }
                Ev::Start(t) => match t.name.as_str() {
                    "thead" => self.rows(rows, true, art)?,
                    "tbody" | "tfoot" | "table" => self.rows(rows, head, art)?,
                    "tr" => {
                        let mut row = Vec::new();
                        self.cells(&mut row, head, art)?;
                        rows.push(row);
                    }
                    _ => self.skip()?,
                },
            }
        }
    }

    fn cells(
        &mut self,
        row: &mut Vec<Cell>,
        head: bool,
        art: &mut Article,
    ) -> Result<(), JatsError> {
        let span = |t: &Tag, k: &str| {
            t.attr(k)
                .and_then(|v| v.trim().parse::<u32>().ok())
                .filter(|n| *n >= 1)
                .unwrap_or(1)
        };
        loop {
            match self.next()? {
                Ev::End => return Ok(()),
                Ev::Eof => return Err(truncated()),
                Ev::Text(_) => {}
                Ev::Empty(t) => {
                    if t.name == "td" || t.name == "th" {
                        row.push(Cell {
                            text: String::new(),
                            header: head || t.name == "th",
                            colspan: span(&t, "colspan"),
                            rowspan: span(&t, "rowspan"),
                        });
                    }
                }
                Ev::Start(t) if t.name == "td" || t.name == "th" => {
                    let text = self.text_of(art)?;
                    row.push(Cell {
                        text,
                        header: head || t.name == "th",
                        colspan: span(&t, "colspan"),
                        rowspan: span(&t, "rowspan"),
                    });
                }
                Ev::Start(_) => self.skip()?,
            }
        }
    }

    /// The content of a `<sec>`-like element just started into `sec`.
    /// Containers that are not sections (`<boxed-text>`, `<disp-quote>`, …)
    /// give their paragraphs to the section they are in.
    fn section_body(&mut self, sec: &mut Section, art: &mut Article) -> Result<(), JatsError> {
        loop {
            match self.next()? {
                Ev::End => return Ok(()),
                Ev::Eof => return Err(truncated()),
                Ev::Text(_) | Ev::Empty(_) => {}
                Ev::Start(t) => {
                    if self.float(&t, art, &mut sec.blocks)? {
                        continue;
                    }
                    match t.name.as_str() {
                        "title" if sec.title.is_empty() => sec.title = self.text_of(art)?,
                        "label" => self.skip()?,
                        "sec" => {
                            let mut sub = Section {
                                kind: t.attr("sec-type").map(str::to_string),
                                ..Section::default()
                            };
                            self.section_body(&mut sub, art)?;
                            sec.sections.push(sub);
                        }
                        name if PARAGRAPHS.contains(&name) => {
                            let mut s = String::new();
                            let mut floats = Vec::new();
                            self.block_text(&t, &mut s, art, &mut floats)?;
                            let s = finish(s);
                            if !s.is_empty() {
                                sec.blocks.push(Block::Paragraph(s));
                            }
                            sec.blocks.extend(floats);
                        }
                        "ref-list" => self.references(art)?,
                        _ => self.section_body(sec, art)?,
                    }
                }
            }
        }
    }

    fn references(&mut self, art: &mut Article) -> Result<(), JatsError> {
        loop {
            match self.next()? {
                Ev::End => return Ok(()),
                Ev::Eof => return Err(truncated()),
                Ev::Text(_) | Ev::Empty(_) => {}
                Ev::Start(t) => match t.name.as_str() {
                    "ref" => {
                        let r = self.reference(&t)?;
                        art.references.push(r);
                    }
                    "ref-list" => self.references(art)?,
                    _ => self.skip()?,
                },
            }
        }
    }

    fn reference(&mut self, t: &Tag) -> Result<Reference, JatsError> {
        let mut r = Reference {
            id: t.attr("id").unwrap_or_default().to_string(),
            ..Reference::default()
        };
        let mut text = String::new();
        loop {
            match self.next()? {
                Ev::End => break,
                Ev::Eof => return Err(truncated()),
                Ev::Text(_) | Ev::Empty(_) => {}
                Ev::Start(c) => match c.name.as_str() {
                    "label" => {
                        let mut s = String::new();
                        self.plain(&mut s, false, &mut r)?;
                        r.label = finish(s);
                    }
                    "mixed-citation" | "element-citation" | "citation" | "nlm-citation" => {
                        if !text.is_empty() {
                            space(&mut text);
                        }
                        let spaced = c.name != "mixed-citation";
                        self.plain(&mut text, spaced, &mut r)?;
                    }
                    _ => self.skip()?,
                },
            }
        }
        r.text = finish(text);
        Ok(r)
    }

    /// Citation text, picking `<pub-id>`s into `r` as they pass.
    fn plain(
        &mut self,
        out: &mut String,
        spaced: bool,
        r: &mut Reference,
    ) -> Result<(), JatsError> {
        loop {
            match self.next()? {
                Ev::Text(t) => {
                    // No space before punctuation after an element.
                    if spaced && out.ends_with(' ') && t.starts_with([',', '.', ';', ':', ')']) {
                        out.pop();
                    }
                    push_folded(out, &t);
                }
                Ev::End => return Ok(()),
                Ev::Eof => return Err(truncated()),
                Ev::Empty(_) => {
                    if spaced {
                        space(out);
                    }
                }
                Ev::Start(c) => {
                    if spaced {
                        space(out);
                    }
                    if c.name == "pub-id" {
                        let mut id = String::new();
                        self.plain(&mut id, false, r)?;
                        let id = finish(id);
                        match c.attr("pub-id-type") {
                            Some("pmid") => r.pmid = Some(id.clone()),
                            Some("doi") => r.doi = Some(id.clone()),
                            _ => {}
                        }
                        out.push_str(&id);
                    } else {
                        self.plain(out, spaced, r)?;
                    }
                    if spaced {
                        space(out);
                    }
                }
            }
        }
    }

    fn article(&mut self, t: &Tag) -> Result<Article, JatsError> {
        let mut art = Article {
            article_type: t.attr("article-type").map(str::to_string),
            language: t.attr("xml:lang").map(str::to_string),
            ..Article::default()
        };
        self.manuscript_pi = false;
        loop {
            match self.next()? {
                Ev::End => {
                    if self.manuscript_pi {
                        art.manuscript.get_or_insert_with(Manuscript::default);
                    }
                    return Ok(art);
                }
                Ev::Eof => return Err(truncated()),
                Ev::Text(_) | Ev::Empty(_) => {}
                Ev::Start(c) => match c.name.as_str() {
                    "front" => self.front(&mut art)?,
                    "body" => {
                        art.has_body = true;
                        self.body(&mut art)?;
                    }
                    // Sub-articles (responses, translations) are left out;
                    // their presence is not the article's text.
                    "sub-article" | "response" => self.skip()?,
                    // `<back>`, `<floats-group>`: references and floats.
                    _ => {
                        let mut scratch = Section::default();
                        self.section_body(&mut scratch, &mut art)?;
                    }
                },
            }
        }
    }

    fn body(&mut self, art: &mut Article) -> Result<(), JatsError> {
        let mut lead = Section::default();
        loop {
            match self.next()? {
                Ev::End => break,
                Ev::Eof => return Err(truncated()),
                Ev::Text(_) | Ev::Empty(_) => {}
                Ev::Start(t) if t.name == "sec" => {
                    if !lead.blocks.is_empty() || !lead.sections.is_empty() {
                        art.sections.push(std::mem::take(&mut lead));
                    }
                    let mut sec = Section {
                        kind: t.attr("sec-type").map(str::to_string),
                        ..Section::default()
                    };
                    self.section_body(&mut sec, art)?;
                    art.sections.push(sec);
                }
                Ev::Start(t) => {
                    // Paragraphs and floats outside any `<sec>`.
                    if self.float(&t, art, &mut lead.blocks)? {
                        continue;
                    }
                    if !PARAGRAPHS.contains(&t.name.as_str()) {
                        // A container (`<boxed-text>`, `<disp-quote>`, …)
                        // keeps its paragraphs and sections apart.
                        self.section_body(&mut lead, art)?;
                        continue;
                    }
                    let mut s = String::new();
                    let mut floats = Vec::new();
                    self.block_text(&t, &mut s, art, &mut floats)?;
                    let s = finish(s);
                    if !s.is_empty() {
                        lead.blocks.push(Block::Paragraph(s));
                    }
                    lead.blocks.extend(floats);
                }
            }
        }
        if !lead.blocks.is_empty() || !lead.sections.is_empty() {
            art.sections.push(lead);
        }
        Ok(())
    }

    /// `<front>`: walks into every container, reading what it knows.
    fn front(&mut self, art: &mut Article) -> Result<(), JatsError> {
        loop {
            match self.next()? {
                Ev::End => return Ok(()),
                Ev::Eof => return Err(truncated()),
                Ev::Text(_) | Ev::Empty(_) => {}
                Ev::Start(t) => match t.name.as_str() {
                    "article-id" => {
                        let v = self.text_of(art)?;
                        match t.attr("pub-id-type") {
                            Some("pmc" | "pmcid") => {
                                let d = v.trim_start_matches("PMC");
                                art.pmcid.get_or_insert(format!("PMC{d}"));
                            }
                            Some("pmid") => {
                                art.pmid.get_or_insert(v);
                            }
                            Some("doi") => {
                                art.doi.get_or_insert(v);
                            }
                            Some("manuscript") if !v.is_empty() => {
                                let m = art.manuscript.get_or_insert_with(Manuscript::default);
                                m.id.get_or_insert(v);
                            }
                            _ => {}
                        }
                    }
                    "journal-title" if art.journal.is_none() => {
                        art.journal = Some(self.text_of(art)?)
                    }
                    "article-title" if art.title.is_empty() => art.title = self.text_of(art)?,
                    "contrib" => {
                        let author = t.attr("contrib-type").is_none_or(|k| k == "author");
                        let name = self.contrib()?;
                        if author && !name.is_empty() {
                            art.authors.push(name);
                        }
                    }
                    "abstract" => {
                        if t.attr("abstract-type").is_some() || !art.abstract_sections.is_empty() {
                            self.skip()?;
                        } else {
                            let mut top = Section::default();
                            self.section_body(&mut top, art)?;
                            if !top.blocks.is_empty() {
                                let sections = std::mem::take(&mut top.sections);
                                art.abstract_sections.push(top);
                                art.abstract_sections.extend(sections);
                            } else {
                                art.abstract_sections = top.sections;
                            }
                        }
                    }
                    "license" => art.license = Some(self.license(&t, art)?),
                    "ref-list" => self.references(art)?,
                    "contrib-group"
                    | "article-meta"
                    | "journal-meta"
                    | "title-group"
                    | "journal-title-group"
                    | "permissions" => self.front(art)?,
                    _ => self.skip()?,
                },
            }
        }
    }

    /// A `<license>` just started: its URL is `@xlink:href` or, when that is
    /// absent (PMC's XML since 2024, Europe PMC's), the
    /// `<ali:license_ref>` text, which is then not part of the text.
    fn license(&mut self, t: &Tag, art: &mut Article) -> Result<License, JatsError> {
        let mut url = t.attr("xlink:href").map(str::to_string);
        let mut text = String::new();
        loop {
            match self.next()? {
                Ev::End => break,
                Ev::Eof => return Err(truncated()),
                Ev::Text(s) => push_folded(&mut text, &s),
                Ev::Empty(_) => space(&mut text),
                Ev::Start(c) if c.name.ends_with("license_ref") => {
                    let r = self.text_of(art)?;
                    if url.is_none() && !r.is_empty() {
                        url = Some(r);
                    }
                }
                Ev::Start(_) => {
                    // `<license-p>`: a paragraph (no spaces around its
                    // inline elements, one between paragraphs).
                    space(&mut text);
                    let mut floats = Vec::new();
                    self.inline(&mut text, art, &mut floats, false)?;
                    space(&mut text);
                }
            }
        }
        Ok(License {
            url,
            kind: t.attr("license-type").map(str::to_string),
            text: finish(text),
        })
    }

    /// A `<contrib>`'s name: `given-names surname`, or the `<collab>` text.
    fn contrib(&mut self) -> Result<String, JatsError> {
        let (mut given, mut surname, mut collab) = (String::new(), String::new(), String::new());
        let mut open = 1usize;
        let mut field: Option<(usize, u8)> = None;
        while open > 0 {
            match self.next()? {
                Ev::Start(t) => {
                    open += 1;
                    if field.is_none() {
                        field = match t.name.as_str() {
                            "given-names" => Some((open, b'g')),
                            "surname" => Some((open, b's')),
                            "collab" => Some((open, b'c')),
                            _ => None,
                        };
                    }
                }
                Ev::End => {
                    if field.is_some_and(|(d, _)| d == open) {
                        field = None;
                    }
                    open -= 1;
                }
                Ev::Text(s) => match field {
                    Some((_, b'g')) => push_folded(&mut given, &s),
                    Some((_, b's')) => push_folded(&mut surname, &s),
                    Some((_, _)) => push_folded(&mut collab, &s),
                    None => {}
                },
                Ev::Eof => return Err(truncated()),
                Ev::Empty(_) => {}
            }
        }
        let name = format!("{} {}", given.trim(), surname.trim());
        let name = name.trim();
        Ok(if name.is_empty() {
            collab.trim().to_string()
        } else {
            name.to_string()
        })
    }
}

fn reply(t: &Tag) -> SetItem {
    SetItem::Reply {
        id: t.attr("Id").unwrap_or_default().to_string(),
        error: t.attr("error").unwrap_or_default().to_string(),
    }
}

fn truncated() -> JatsError {
    JatsError("the document ends inside an element".into())
}

/// Reads a JATS document — a `<pmc-articleset>` (EFetch `db=pmc`) or one
/// `<article>` (an OA package's `.nxml`, Europe PMC's `fullTextXML`) —
/// handing each article or PMC `<Reply>` to `each` as soon as it is read,
/// so only one article is ever held, with the byte range of its element
/// in the input (`-f jats` writes those bytes as received).
///
/// Errors: a document that is not well-formed, cut short, or nested
/// deeper than [`MAX_DEPTH`]; articles already handed over stay handed.
pub fn read_set<R: BufRead>(
    input: R,
    mut each: impl FnMut(SetItem, std::ops::Range<usize>),
) -> Result<(), JatsError> {
    let mut reader = Reader::from_reader(input);
    reader.config_mut().check_end_names = true;
    let mut p = Parser {
        reader,
        buf: Vec::new(),
        depth: 0,
        manuscript_pi: false,
        began: 0,
    };
    let mut seen_root = false;
    loop {
        let end = |p: &Parser<R>| p.reader.buffer_position() as usize;
        let ev = p.next()?;
        let at = p.began;
        match ev {
            Ev::Eof => break,
            Ev::Text(t) if t.trim().is_empty() => {}
            Ev::Text(_) => return Err(JatsError("text outside the root element".into())),
            Ev::End => {}
            Ev::Start(t) if t.name == "article" => {
                seen_root = true;
                let art = p.article(&t)?;
                each(SetItem::Article(Box::new(art)), at..end(&p));
            }
            Ev::Start(t) if t.name == "pmc-articleset" && !seen_root => seen_root = true,
            Ev::Empty(t) if t.name == "Reply" => each(reply(&t), at..end(&p)),
            Ev::Start(t) if t.name == "Reply" => {
                p.skip()?;
                each(reply(&t), at..end(&p));
            }
            Ev::Empty(t) if t.name == "pmc-articleset" => seen_root = true,
            Ev::Start(t) => {
                return Err(JatsError(format!(
                    "<{}> where a <pmc-articleset> or <article> was expected",
                    t.name
                )));
            }
            Ev::Empty(t) => {
                return Err(JatsError(format!(
                    "<{}/> where an <article> was expected",
                    t.name
                )));
            }
        }
    }
    if p.depth > 0 {
        return Err(truncated());
    }
    if !seen_root {
        return Err(JatsError("no <pmc-articleset> or <article> element".into()));
    }
    Ok(())
}

/// Reads every item of a document held in memory ([`read_set`]).
pub fn parse_set(body: &[u8]) -> Result<Vec<SetItem>, JatsError> {
    let mut items = Vec::new();
    read_set(body, |i, _| items.push(i))?;
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(xml: &str) -> Article {
        match parse_set(xml.as_bytes()).unwrap().remove(0) {
            SetItem::Article(a) => *a,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn manuscript_by_instruction_or_article_id_and_only_for_its_article() {
        // PMC's front-matter-only answer for a manuscript has the
        // instruction; the next article of the set has neither marker.
        let set = parse_set(
            br#"<pmc-articleset><article><?properties manuscript?><front><article-meta>
<article-id pub-id-type="pmc">1</article-id></article-meta></front></article>
<article><?properties open_access?><front><article-meta><article-id pub-id-type="pmc">2</article-id>
</article-meta></front></article>
<article><front><article-meta><article-id pub-id-type="pmc">3</article-id>
<article-id pub-id-type="manuscript">EMS12345</article-id></article-meta></front></article></pmc-articleset>"#,
        )
        .unwrap();
        let m: Vec<Option<Manuscript>> = set
            .into_iter()
            .map(|i| match i {
                SetItem::Article(a) => a.manuscript,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            m,
            [
                Some(Manuscript { id: None }),
                None,
                Some(Manuscript {
                    id: Some("EMS12345".into())
                })
            ]
        );
    }

    #[test]
    fn formulas_prefer_the_authors_tex_then_mathml() {
        // PMC's <alternatives>: a whole LaTeX document in <tex-math> beside
        // MathML saying something else; the author's TeX is written.
        let a = one(
            r#"<article xmlns:mml="http://www.w3.org/1998/Math/MathML"><front><article-meta>
<article-id pub-id-type="pmc">1</article-id></article-meta></front><body><sec><title>M</title>
<p>Let <inline-formula><alternatives><tex-math id="t1"><![CDATA[\documentclass[12pt]{minimal}
\usepackage{amsmath}\begin{document}$$\alpha_{1}$$\end{document}]]></tex-math><mml:math><mml:mi>b</mml:mi></mml:math></alternatives></inline-formula> hold.</p>
<disp-formula id="e1"><label>(1)</label><mml:math display="block"><mml:mfrac><mml:mi>a</mml:mi><mml:mn>2</mml:mn></mml:mfrac></mml:math></disp-formula>
<p>By <disp-formula><tex-math>x^2</tex-math></disp-formula>then <inline-formula><mml:math><mml:mi>y</mml:mi></mml:math></inline-formula>.</p>
</sec></body></article>"#,
        );
        assert_eq!(
            a.sections[0].paragraphs().collect::<Vec<_>>(),
            [
                "Let $\\alpha_{1}$ hold.",
                "(1) $$\\frac{a}{2}$$",
                "By $$x^2$$ then $y$."
            ]
        );
    }

    #[test]
    fn sections_paragraphs_and_floats_in_order() {
        let a = one(
            r#"<article article-type="case-report" xml:lang="en"><front><article-meta>
<article-id pub-id-type="pmc">123</article-id><title-group><article-title>A <italic>b</italic>
 c</article-title></title-group></article-meta></front>
<body><p>Lead &amp; more&#x000e9;.</p><sec sec-type="methods"><title>Methods</title>
<p>One<xref ref-type="bibr" rid="r1">1</xref>.</p><fig id="f1"><label>Figure 1</label><caption><p>Cap.</p></caption></fig>
<sec><title>Sub</title><boxed-text><p>Boxed.</p></boxed-text></sec></sec></body>
<back><ref-list><ref id="r1"><label>1</label><element-citation><person-group><name><surname>Doe</surname><given-names>J</given-names></name></person-group><article-title>T</article-title><pub-id pub-id-type="pmid">42</pub-id></element-citation></ref></ref-list></back></article>"#,
        );
        assert_eq!(a.pmcid.as_deref(), Some("PMC123"));
        assert_eq!(a.title, "A b c");
        assert_eq!(a.article_type.as_deref(), Some("case-report"));
        assert_eq!(a.sections.len(), 2);
        assert_eq!(
            a.sections[0].paragraphs().collect::<Vec<_>>(),
            ["Lead & moreé."]
        );
        let m = &a.sections[1];
        assert_eq!(
            (m.title.as_str(), m.kind.as_deref()),
            ("Methods", Some("methods"))
        );
        assert_eq!(
            m.blocks,
            [Block::Paragraph("One1.".into()), Block::Figure(0)]
        );
        assert_eq!(m.sections[0].paragraphs().collect::<Vec<_>>(), ["Boxed."]);
        assert_eq!(a.figures[0].caption, "Cap.");
        assert_eq!(a.references[0].text, "Doe J T 42");
        assert_eq!(a.references[0].pmid.as_deref(), Some("42"));
    }

    #[test]
    fn reply_and_errors() {
        let items = parse_set(
            b"<?xml version=\"1.0\"?>\n<pmc-articleset><Reply Id=\"9\" error=\"The following PMCID is not available: 9\"/></pmc-articleset>",
        )
        .unwrap();
        assert_eq!(
            items,
            [SetItem::Reply {
                id: "9".into(),
                error: "The following PMCID is not available: 9".into()
            }]
        );
        assert!(parse_set(b"<article><body><p>x</body></article>").is_err());
        assert!(parse_set(b"<article><body>").is_err());
        assert!(parse_set(b"").is_err());
        let deep = format!(
            "<article>{}x{}</article>",
            "<i>".repeat(100_000),
            "</i>".repeat(100_000)
        );
        assert!(
            parse_set(deep.as_bytes())
                .unwrap_err()
                .0
                .contains("nested more than")
        );
    }

    #[test]
    fn table_cells_and_spans() {
        let a = one(
            r#"<article><body><table-wrap id="t1"><label>Table 1</label><caption><title>T.</title></caption><table><thead><tr><th colspan="2">H</th></tr></thead><tbody><tr><td>a</td><td>b</td></tr></tbody></table></table-wrap></body></article>"#,
        );
        let t = &a.tables[0];
        assert_eq!(t.rows.len(), 2);
        assert!(t.rows[0][0].header && t.rows[0][0].colspan == 2);
        assert_eq!(t.rows[1][1].text, "b");
        assert!(!t.is_simple());
    }
}
