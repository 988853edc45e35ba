//! `cite` / `pubmed_format_citations`: one formatted reference per PMID,
//! in input order, in any CSL style (docs/cite.md). Records come from the
//! fetch engine; each becomes its CSL-JSON item
//! ([`crate::core::citation::csl_item`]) and goes through the CSL processor
//! `hayagriva` with the chosen style, numbered by its input position. A
//! retracted article gets a `RETRACTED:` prefix and its retraction note.

use std::io::{self, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::OnceLock;

use futures::Stream;
use futures::future::BoxFuture;
use hayagriva::archive::ArchivedStyle;
use hayagriva::citationberg::{self, IndependentStyle, Locale, Style as CslStyle};
use hayagriva::{
    BibliographyDriver, BibliographyRequest, CitationItem, CitationRequest, ElemChild, ElemChildren,
};

use super::batch::{self, Admit, ChunkPolicy, Failed, InputLine, Op, Outcome, Output, Totals};
use super::fetch::{Fetch, FetchOptions, Fetched};
use super::record::RecordReason;
use crate::core::citation::{csl_item, retraction_note};
use crate::core::record::Record;
use crate::error::{Error, Failure, Reason, Result};
use crate::ncbi::Client;

/// The style used when none is asked for.
pub const DEFAULT_STYLE: &str = "vancouver";

/// The largest `.csl` file read (real styles are under 200 KB).
pub const MAX_STYLE_BYTES: u64 = 4 * 1024 * 1024;
/// The deepest element nesting a `.csl` file may have: real styles nest
/// about 10 levels (`style/bibliography/layout/group/choose/if/group/…`);
/// the CSL reader and processor recurse per level, so a deeper file is
/// refused before it reaches them.
pub const MAX_STYLE_DEPTH: usize = 64;

/// The short style names, each with the bundled CSL style it stands for.
/// `vancouver` and `nlm` are the same style: NLM's *Citing Medicine*, which
/// the ICMJE's "Vancouver" recommendations follow.
pub const SHORT_NAMES: [(&str, ArchivedStyle); 8] = [
    ("apa", ArchivedStyle::AmericanPsychologicalAssociation),
    ("vancouver", ArchivedStyle::NlmCitationSequence),
    ("ama", ArchivedStyle::AmericanMedicalAssociation),
    ("nlm", ArchivedStyle::NlmCitationSequence),
    ("harvard", ArchivedStyle::HarvardCiteThemRight),
    ("chicago-author-date", ArchivedStyle::ChicagoAuthorDate),
    (
        "ieee",
        ArchivedStyle::InstituteOfElectricalAndElectronicsEngineers,
    ),
    ("nature", ArchivedStyle::Nature),
];

/// A style ready to format references.
#[derive(Debug, Clone)]
pub struct CiteStyle {
    /// The name asked for (`apa`), or the file's path.
    pub name: String,
    /// The style's title (`American Psychological Association 7th edition`).
    pub title: String,
    style: IndependentStyle,
    /// The style prints `issue` (`.0`) and `volume` (`.1`) with `cs:text`
    /// (citeproc: as written, `3-4`) more often than with `cs:number` (a
    /// range, `3–4`): Chicago's one `cs:number` volume is for treaties.
    issue_as_text: (bool, bool),
}

/// One piece of a formatted reference with its formatting: the CSL
/// font style, weight, variant and vertical alignment as five flags.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Span {
    /// The text, plain.
    pub text: String,
    pub(crate) italic: bool,
    pub(crate) bold: bool,
    pub(crate) small_caps: bool,
    pub(crate) superscript: bool,
    pub(crate) subscript: bool,
    /// The address the text links to.
    pub link: Option<String>,
}

impl Span {
    fn plain(text: impl Into<String>) -> Span {
        Span {
            text: text.into(),
            ..Default::default()
        }
    }
}

/// A formatted reference: spans in order; [`Reference::text`] joins them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reference {
    /// The pieces, in order.
    pub spans: Vec<Span>,
}

impl Reference {
    /// The reference as plain text on one line.
    pub fn text(&self) -> String {
        self.spans.iter().map(|s| s.text.as_str()).collect()
    }
}

/// The result for one input PMID: a reference, or an error in its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cited {
    /// The input as written (trimmed).
    pub requested: String,
    /// The PMID (NCBI's when found).
    pub pmid: String,
    /// The reference, or why there is none.
    pub outcome: std::result::Result<Citation, CiteError>,
}

/// A formatted reference and the record's retraction state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Citation {
    /// The formatted reference.
    pub reference: Reference,
    /// The record is retracted.
    pub retracted: bool,
    /// The record is a retraction notice.
    pub retraction_notice: bool,
}

/// Why a PMID has no reference: the fetch's reason (`not_found`,
/// `malformed_id`, a failed request's), or `citation_failed` when the
/// style could not format the record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CiteReason {
    /// The fetch gave no record.
    Fetch(RecordReason),
    /// The CSL processor could not format the record (`citation_failed`).
    CitationFailed,
}

impl CiteReason {
    /// The name written in place of the reference and in MCP results.
    pub fn as_str(self) -> &'static str {
        match self {
            CiteReason::Fetch(r) => r.as_str(),
            CiteReason::CitationFailed => "citation_failed",
        }
    }
}

impl std::fmt::Display for CiteReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a PMID has no reference, with a sentence for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CiteError {
    /// Machine-readable reason.
    pub reason: CiteReason,
    /// A sentence for people.
    pub message: String,
}

fn locales() -> &'static [Locale] {
    static LOCALES: OnceLock<Vec<Locale>> = OnceLock::new();
    LOCALES.get_or_init(hayagriva::archive::locales)
}

fn unknown_style(name: &str) -> Error {
    Error::new(
        Reason::InvalidArgument,
        format!(
            "unknown citation style `{name}`: give a bundled style name (see `pubmed cite --list-styles`) or the path of a .csl file"
        ),
    )
    .with_field(crate::error::Field::Style)
}

/// Whether `spec` names a file rather than a style: it ends in `.csl`,
/// holds a path separator, or is an existing file.
fn is_path(spec: &str) -> bool {
    spec.to_ascii_lowercase().ends_with(".csl")
        || spec.contains('/')
        || spec.contains(std::path::MAIN_SEPARATOR)
        || Path::new(spec).is_file()
}

fn archived(spec: &str) -> Option<ArchivedStyle> {
    let lower = spec.trim().to_ascii_lowercase();
    SHORT_NAMES
        .iter()
        .find(|(n, _)| *n == lower)
        .map(|(_, s)| *s)
        .or_else(|| ArchivedStyle::by_name(&lower))
}

fn independent(style: CslStyle, origin: &str) -> Result<IndependentStyle> {
    match style {
        CslStyle::Independent(s) => Ok(s),
        CslStyle::Dependent(d) => {
            let parent = d.parent_link.href.clone();
            match ArchivedStyle::by_id(&parent).map(ArchivedStyle::get) {
                Some(CslStyle::Independent(s)) => Ok(s),
                _ => Err(Error::new(
                    Reason::InvalidArgument,
                    format!(
                        "{origin}: a dependent style whose parent {parent} is not bundled; give the parent's .csl file instead"
                    ),
                )),
            }
        }
    }
}

impl CiteStyle {
    /// The style named `spec`: a short name ([`SHORT_NAMES`]), any bundled
    /// style name (`american-medical-association`, `the-lancet`), or the
    /// path of a `.csl` file (a dependent style whose parent is bundled
    /// works too).
    ///
    /// Errors (`invalid_argument`, exit 2): an unknown name, pointing to
    /// `--list-styles`; a file that cannot be read or does not parse, named
    /// with the line of the fault when it can be found.
    pub fn resolve(spec: &str) -> Result<CiteStyle> {
        if spec.trim().is_empty() {
            return Err(unknown_style(spec));
        }
        if let Some(a) = archived(spec) {
            let mut style = independent(a.get(), spec)?;
            adapt(&mut style);
            if a == ArchivedStyle::NlmCitationSequence {
                nlm_page_ranges(&mut style);
            }
            return Ok(CiteStyle {
                name: spec.trim().to_ascii_lowercase(),
                title: a.display_name().to_string(),
                issue_as_text: issue_as_text(&style),
                style,
            });
        }
        if is_path(spec) {
            return CiteStyle::from_file(Path::new(spec));
        }
        Err(unknown_style(spec))
    }

    /// A bundled style only (MCP: a caller must not make the server read
    /// its files). Errors: `invalid_argument` for anything else.
    pub fn bundled(spec: &str) -> Result<CiteStyle> {
        if archived(spec).is_none() {
            return Err(Error::new(
                Reason::InvalidArgument,
                format!(
                    "unknown citation style `{spec}`: give a bundled style name such as {}",
                    SHORT_NAMES.map(|(n, _)| n).join(", ")
                ),
            )
            .with_field(crate::error::Field::Style));
        }
        CiteStyle::resolve(spec)
    }

    /// Reads a `.csl` file. Errors as [`CiteStyle::resolve`].
    pub fn from_file(path: &Path) -> Result<CiteStyle> {
        let shown = path.display().to_string();
        let fail = |m: String| Error::new(Reason::InvalidArgument, m);
        let cannot = |e: std::io::Error| fail(format!("cannot read style {shown}: {e}"));
        // A device (`/dev/zero`) or FIFO reports no length and may never
        // end: only a regular file is read, and never past the limit.
        let meta = std::fs::metadata(path).map_err(cannot)?;
        if !meta.is_file() {
            return Err(fail(format!(
                "style {shown} is not a regular file (a directory, device or pipe): give the path of a .csl file"
            )));
        }
        let over = || {
            fail(format!(
                "style {shown} is over the limit of {MAX_STYLE_BYTES} bytes"
            ))
        };
        if meta.len() > MAX_STYLE_BYTES {
            return Err(over());
        }
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .map_err(cannot)?
            .take(MAX_STYLE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
        if bytes.len() as u64 > MAX_STYLE_BYTES {
            return Err(over());
        }
        let xml = String::from_utf8(bytes).map_err(|e| {
            fail(format!(
                "style {shown} is not UTF-8 text (byte {})",
                e.utf8_error().valid_up_to()
            ))
        })?;
        let style = parse_style_xml(&xml).map_err(|(line, msg)| match line {
            Some(l) => fail(format!("style {shown}:{l}: {msg}")),
            None => fail(format!("style {shown}: {msg}")),
        })?;
        let mut style = independent(style, &shown)?;
        macro_work(&style).map_err(|m| fail(format!("style {shown}: {m}")))?;
        adapt(&mut style);
        Ok(CiteStyle {
            name: shown,
            title: style.info.title.value.clone(),
            issue_as_text: issue_as_text(&style),
            style,
        })
    }

    /// Formats one record as the style's bibliography entry numbered
    /// `number` (1-based: the input position, for numeric styles). A
    /// retracted article is marked `RETRACTED: ` (after the number, if the
    /// style prints one) and followed by its retraction note; a retraction
    /// notice is marked `RETRACTION NOTICE: `.
    ///
    /// Errors: a message when the processor cannot format the record.
    pub fn format(&self, r: &Record, number: usize) -> std::result::Result<Reference, String> {
        let keep_particles = !matches!(
            self.style.settings.demote_non_dropping_particle,
            citationberg::DemoteNonDroppingParticle::DisplayAndSort
        );
        let engine = engine_item(r, keep_particles);
        let rendered = self.render(engine.clone(), number)?;
        let mark = if r.retracted {
            Some("RETRACTED:")
        } else if r.retraction_notice {
            Some("RETRACTION NOTICE:")
        } else {
            None
        };
        let prefix = |spans: &mut Vec<Span>| {
            if let Some(m) = mark {
                spans.push(Span {
                    bold: true,
                    ..Span::plain(m)
                });
                spans.push(Span::plain(" "));
            }
        };
        let mut spans = Vec::new();
        let body_start;
        match rendered
            .bibliography
            .and_then(|b| b.items.into_iter().next())
        {
            Some(item) => {
                // The number (`1.`, `[1]`) stays first; the mark follows it.
                if let Some(first) = &item.first_field {
                    push_child(&mut spans, first, Span::default());
                    spans.push(Span::plain(" "));
                }
                prefix(&mut spans);
                body_start = spans.len();
                push_children(&mut spans, &item.content, Span::default());
            }
            // A style without a bibliography: its citation form.
            None => match rendered.citations.first() {
                Some(c) => {
                    prefix(&mut spans);
                    body_start = spans.len();
                    push_children(&mut spans, &c.citation, Span::default());
                }
                None => return Err("the style produced no output for this record".into()),
            },
        }
        if spans[body_start..].iter().all(|s| s.text.trim().is_empty()) {
            return Err("the style produced no output for this record".into());
        }
        if r.retracted
            && let Some(note) = retraction_note(r)
            && let Some(tail) = note.strip_prefix("RETRACTED ARTICLE. ")
        {
            spans.push(Span::plain(format!(" {tail}.")));
        }
        let mut spans = tidy(spans);
        let title_cased = || self.title_cased(engine.clone());
        post_pass(&mut spans, r, self.issue_as_text, &title_cased);
        drop_lower_hyphen_parts(&mut spans, &engine);
        Ok(Reference { spans })
    }

    /// One item through the processor as a one-entry bibliography.
    fn render(
        &self,
        engine: serde_json::Map<String, serde_json::Value>,
        number: usize,
    ) -> std::result::Result<hayagriva::Rendered, String> {
        let item: citationberg::json::Item = serde_json::from_value(engine.into())
            .map_err(|e| format!("CSL item not readable: {e}"))?;
        catch_unwind(AssertUnwindSafe(|| {
            let mut driver =
                BibliographyDriver::new().with_citation_number_offset(number.saturating_sub(1));
            driver.citation(CitationRequest::from_items(
                vec![CitationItem::with_entry(&item)],
                &self.style,
                locales(),
            ));
            driver.finish(BibliographyRequest::new(&self.style, None, locales()))
        }))
        .map_err(|_| "the CSL processor failed on this record".to_string())
    }

    /// Whether the style title-cases this item's title (`text-case="title"`
    /// on the branch the item takes): the item is rendered again with the
    /// title `zq zq`, which only title case prints `Zq Zq`. Asked only when
    /// the rendered title cannot tell (hayagriva's title case left it as
    /// written, see [`post_pass`]).
    fn title_cased(&self, mut engine: serde_json::Map<String, serde_json::Value>) -> bool {
        engine.insert("title".into(), "zq zq".into());
        let Ok(rendered) = self.render(engine, 1) else {
            return false;
        };
        let mut spans = Vec::new();
        if let Some(item) = rendered
            .bibliography
            .and_then(|b| b.items.into_iter().next())
        {
            push_children(&mut spans, &item.content, Span::default());
        }
        let text: String = spans.iter().map(|s| s.text.as_str()).collect();
        text.contains("Zq Zq")
    }
}

/// Stands for a space inside a family name handed to the processor, so it
/// does not split off a particle (`da Silva`): PubMed's `LastName` is the
/// whole family name. Put back by [`post_pass`]; never in PubMed text
/// (a private-use character, removed from names first).
const NAME_SPACE: char = '\u{E000}';

/// The CSL specification's English stop words, which title case leaves in
/// lower case (except first and after a colon), with the name particles
/// citeproc (jgm/citeproc `Citeproc.CaseTransform.isStopWord`, pandoc 3.x)
/// adds: `Arquivos de Gastroenterologia` keeps its `de`.
const STOP_WORDS: [&str; 32] = [
    "a", "about", "an", "and", "as", "at", "but", "by", "d", "de", "down", "for", "from", "in",
    "into", "l", "nor", "of", "on", "onto", "or", "over", "so", "the", "till", "to", "up", "van",
    "via", "von", "with", "yet",
];

/// Title case as citeproc (pandoc 3.x) applies it: a word written in lower
/// case is capitalised unless it is a stop word after the first word and not
/// after a colon; a word with any capital letter or not in lower case is
/// never changed (`PloS`, `SpringerPlus`, `TP53`, `(13)C`, `B6C3F1`).
pub fn citeproc_title_case(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut first = true;
    let mut after_colon = false;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric()
                    || (matches!(chars[i], '\'' | '\u{2019}')
                        && chars.get(i + 1).is_some_and(|n| n.is_alphabetic())))
            {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let lower = word.chars().all(|c| !c.is_uppercase());
            let stop = STOP_WORDS.contains(&word.as_str());
            // `(2-ethylhexyl)phthalate`, `(Re)claiming`: one word.
            let inside = start > 0 && matches!(chars[start - 1], ')' | ']');
            // A one-letter word after the first stays as written, as
            // citeproc's title case needs two letters: `Di-n-Octyl`,
            // `c-Fos`, `x-Ray`, `TGF-β`, `[4,5-f]`, `(s)`, `vitamin d`.
            let part = i - start == 1;
            let inside = inside || (part && !first && !after_colon);
            if lower && !inside && (!stop || first || after_colon) {
                let mut w = word.chars();
                if let Some(f) = w.next() {
                    out.extend(f.to_uppercase());
                    out.push_str(w.as_str());
                }
            } else {
                out.push_str(&word);
            }
            first = false;
            after_colon = false;
        } else {
            if matches!(c, ':' | '?' | '!') {
                after_colon = true;
            } else if !c.is_whitespace()
                && !matches!(c, '"' | '\'' | '\u{201C}' | '\u{2018}' | '(' | '[')
            {
                after_colon = false;
            }
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Narrow repairs of what hayagriva 0.10 prints differently from citeproc
/// for the same style and item (docs/cite.md "Measured against pandoc"),
/// each with a test:
///
/// - family names keep their spaces ([`NAME_SPACE`]);
/// - a title the style title-cases gets citeproc's title case of the text
///   as PubMed wrote it ([`citeproc_title_case`]; the processor lowers inner
///   capitals, `PloS` → `Plos`), or the text unchanged when the record is
///   not in English (citeproc title-cases English items only);
/// - no `.` or `,` after a title's own `?` or `!` (`… or not?.` → `… or not?`).
fn post_pass(
    spans: &mut [Span],
    r: &Record,
    issue_as_text: (bool, bool),
    title_cased: &dyn Fn() -> bool,
) {
    restore_name_spaces(spans);
    issue_as_written(spans, r, issue_as_text);
    restore_titles(spans, r, title_cased);
    no_punctuation_after_question_or_exclamation(spans);
}

/// Family names keep their spaces: [`NAME_SPACE`] back to ` `.
fn restore_name_spaces(spans: &mut [Span]) {
    for s in spans.iter_mut() {
        if s.text.contains(NAME_SPACE) {
            s.text = s.text.replace(NAME_SPACE, " ");
        }
    }
}

/// An issue (or volume) range printed by `cs:text` is the text PubMed
/// wrote (`3-4`, `2-03`); the processor reads it as a number range (`3–4`,
/// `2–3`). `issue_as_text` is (issue, volume) printed as text by the style.
fn issue_as_written(spans: &mut [Span], r: &Record, issue_as_text: (bool, bool)) {
    let written = r.journal.as_ref().map(|j| {
        [
            j.issue.as_deref().filter(|_| issue_as_text.0),
            j.volume.as_deref().filter(|_| issue_as_text.1),
        ]
    });
    for issue in written.into_iter().flatten().flatten() {
        let Some((a, b)) = issue.split_once('-') else {
            continue;
        };
        let (Ok(a), Ok(b)) = (a.trim().parse::<u64>(), b.trim().parse::<u64>()) else {
            continue;
        };
        let printed = format!("{a}\u{2013}{b}");
        for s in spans.iter_mut() {
            let mut from = 0;
            while let Some(at) = s.text[from..].find(&printed).map(|i| i + from) {
                let end = at + printed.len();
                let digit_before = s.text[..at].ends_with(|c: char| c.is_ascii_digit());
                let digit_after = s.text[end..].starts_with(|c: char| c.is_ascii_digit());
                if !digit_before && !digit_after {
                    s.text.replace_range(at..end, issue);
                    from = at + issue.len();
                } else {
                    from = end;
                }
            }
        }
    }
}

/// The texts whose case and spacing a reference keeps, title first (empty
/// ones dropped), and whether the first is the title.
fn title_sources(r: &Record) -> (Vec<String>, bool) {
    let mut sources: Vec<String> = vec![crate::core::citation::title(&r.title)];
    if let Some(j) = &r.journal {
        sources.push(j.title.clone());
        sources.extend(j.iso_abbreviation.clone());
        sources.extend(j.medline_ta.clone());
    }
    if let Some(b) = &r.book {
        sources.push(b.title.clone());
        sources.extend(b.collection_title.clone());
    }
    // The title is first: a journal title written inside it (`… in the
    // international journal of …`) is the title's text, not the journal's.
    let has_title = !sources[0].trim().is_empty();
    sources.retain(|s| !s.trim().is_empty());
    (sources, has_title)
}

/// A title's own ` : ` (`(San Diego, Calif. : 1997)`) put back where
/// [`tidy`] closed it to `: `.
fn space_before_colon(text: &mut String, src: &str) {
    if !src.contains(" : ") {
        return;
    }
    let closed = src.replace(" : ", ": ");
    if let Some(at) = text.to_lowercase().find(&closed.to_lowercase())
        && text.is_char_boundary(at)
        && text.is_char_boundary(at + closed.len())
    {
        let seg = text[at..at + closed.len()].replace(": ", " : ");
        text.replace_range(at..at + closed.len(), &seg);
    }
}

/// Article, journal and book titles in the case PubMed wrote them
/// ([`restore_case`]; citeproc title case for an English record's title
/// when the style title-cases it), their ` : `, and quotes inside a quoted
/// title as inner quotes.
fn restore_titles(spans: &mut [Span], r: &Record, title_cased: &dyn Fn() -> bool) {
    let english = r
        .language
        .first()
        .is_none_or(|l| l.eq_ignore_ascii_case("eng"));
    let (sources, has_title) = title_sources(r);
    // Asked at most once, and only when the rendered title cannot tell.
    let mut title_cased_memo = None;
    let mut title_cased = || *title_cased_memo.get_or_insert_with(title_cased);
    for s in spans.iter_mut() {
        for src in &sources {
            space_before_colon(&mut s.text, src);
        }
        let mut claimed = Vec::new();
        let mut title_at = Vec::new();
        for (k, src) in sources.iter().enumerate() {
            let is_title = k == 0 && has_title;
            let found = restore_case(
                &mut s.text,
                src,
                english,
                &mut claimed,
                is_title.then_some(&mut title_cased as &mut dyn FnMut() -> bool),
            );
            if is_title {
                title_at = found;
            }
        }
        for at in title_at.into_iter().rev() {
            quote_inner_quotes(&mut s.text, at);
        }
    }
}

/// `?` / `!` then the style's `.` or `,` (also around a closing quote, and
/// across two spans): the `.` or `,` is dropped.
fn no_punctuation_after_question_or_exclamation(spans: &mut [Span]) {
    for i in 0..spans.len() {
        for (from, to) in [
            ("?.", "?"),
            ("!.", "!"),
            ("?,", "?"),
            ("!,", "!"),
            ("?\u{201D}.", "?\u{201D}"),
            ("?\u{201D},", "?\u{201D}"),
            ("!\u{201D}.", "!\u{201D}"),
            ("!\u{201D},", "!\u{201D}"),
        ] {
            if spans[i].text.contains(from) {
                spans[i].text = spans[i].text.replace(from, to);
            }
        }
        if i + 1 < spans.len() {
            let ends = spans[i]
                .text
                .trim_end_matches('\u{201D}')
                .ends_with(['?', '!']);
            if ends && spans[i + 1].text.starts_with(['.', ',']) {
                spans[i + 1].text.remove(0);
            }
        }
    }
}

/// A given name's part after a hyphen that starts in lower case (`Li-xin`,
/// `Shu-jen`) gets no initial: citeproc (pandoc 3.x) prints `L.` / `L`
/// where hayagriva prints `L.-xin` / `L xin`. A style that prints given
/// names in full (`Li-xin`) is not touched, as the pattern needs the
/// initial; `Jean-Pierre` (`J.-P.`) has no lower-case part.
fn drop_lower_hyphen_parts(
    spans: &mut [Span],
    engine: &serde_json::Map<String, serde_json::Value>,
) {
    let mut forms: Vec<(String, String)> = Vec::new();
    for key in ["author", "editor", "container-author"] {
        let Some(serde_json::Value::Array(names)) = engine.get(key) else {
            continue;
        };
        for given in names.iter().filter_map(|n| n.get("given")?.as_str()) {
            for word in given.split_whitespace() {
                let parts: Vec<&str> = word.split('-').collect();
                for pair in parts.windows(2) {
                    let (Some(first), Some(lower)) =
                        (pair[0].chars().next(), pair[1].chars().next())
                    else {
                        continue;
                    };
                    if !lower.is_lowercase() {
                        continue;
                    }
                    let rest = pair[1];
                    for (sep, dot) in [(".-", "."), (".- ", "."), ("-", ""), (" ", "")] {
                        forms.push((format!("{first}{sep}{rest}"), format!("{first}{dot}")));
                    }
                }
            }
        }
    }
    for (printed, initial) in &forms {
        for s in spans.iter_mut() {
            let mut from = 0;
            while let Some(at) = s.text[from..].find(printed.as_str()).map(|i| i + from) {
                let end = at + printed.len();
                let alnum_before = s.text[..at]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_alphanumeric);
                let alnum_after = s.text[end..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphanumeric);
                if alnum_before || alnum_after {
                    from = end;
                    continue;
                }
                s.text.replace_range(at..end, initial);
                from = at + initial.len();
            }
        }
    }
}

/// Where `text` holds `src` in another letter case, writes it as citeproc
/// would (see [`post_pass`]). A whole-text upper or lower case, or a
/// capitalised first letter, is the style's own `text-case` and is kept.
/// A place inside one `claimed` by an earlier source is left alone; the
/// places found are claimed and returned (byte ranges).
///
/// `title_cased`, for the record's title only, answers whether the style
/// title-cases it; it is asked when the text is as written although
/// citeproc's title case would change it (hayagriva leaves `among`,
/// `during` in lower case, citeproc capitalises them).
fn restore_case(
    text: &mut String,
    src: &str,
    english: bool,
    claimed: &mut Vec<(usize, usize)>,
    mut title_cased: Option<&mut dyn FnMut() -> bool>,
) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let lower_text = text.to_lowercase();
    let lower_src = src.to_lowercase();
    if lower_text.len() != text.len() || lower_src.len() != src.len() || lower_src.is_empty() {
        return found;
    }
    let mut from = 0;
    while let Some(at) = lower_text[from..].find(&lower_src).map(|i| i + from) {
        let end = at + src.len();
        from = end;
        if !text.is_char_boundary(at) || !text.is_char_boundary(end) {
            continue;
        }
        let alnum_before = text[..at]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric);
        let alnum_after = text[end..]
            .chars()
            .next()
            .is_some_and(char::is_alphanumeric);
        if alnum_before || alnum_after || claimed.iter().any(|&(a, b)| at < b && a < end) {
            continue;
        }
        claimed.push((at, end));
        found.push((at, end));
        let seg = &text[at..end];
        let want = if english {
            citeproc_title_case(src)
        } else {
            src.to_string()
        };
        if seg == src {
            let engine_tc = hayagriva::lang::Case::Title(hayagriva::lang::TitleCase::new());
            if english
                && want != src
                && want.len() == seg.len()
                && engine_tc.transform(src) == src
                && title_cased.as_mut().is_some_and(|f| f())
            {
                text.replace_range(at..end, &want);
            }
            continue;
        }
        if seg == src.to_uppercase() || seg == lower_src {
            continue;
        }
        let mut cf = src.chars();
        let capitalised: String = cf
            .next()
            .map(|f| f.to_uppercase().chain(cf).collect())
            .unwrap_or_default();
        if seg == capitalised {
            continue;
        }
        if want.len() == seg.len() {
            text.replace_range(at..end, &want);
        }
    }
    found
}

/// Inside a title the style puts in quotes (the text at `at` follows `“`),
/// the title's own double quotes become single ones, as citeproc nests
/// quotes: `“Corrigendum to ‘MageC2 …’ [...]”`.
fn quote_inner_quotes(text: &mut String, (at, end): (usize, usize)) {
    if !text[..at].ends_with('\u{201C}') || !text[at..end].contains(['"', '\u{201C}', '\u{201D}']) {
        return;
    }
    let mut out = String::with_capacity(end - at + 8);
    let mut prev: Option<char> = None;
    for c in text[at..end].chars() {
        if matches!(c, '"' | '\u{201C}' | '\u{201D}') {
            let opens = prev.is_none_or(|p| p.is_whitespace() || matches!(p, '(' | '[' | '-'));
            out.push(if opens { '\u{2018}' } else { '\u{2019}' });
        } else {
            out.push(c);
        }
        prev = Some(c);
    }
    text.replace_range(at..end, &out);
}

/// The CSL-JSON item as hayagriva 0.10 reads it best (docs/cite.md
/// "Engine"): the export's item ([`csl_item`]) with `container-title-short`
/// always set (the short form, else the full title: [`adapt`] points
/// short-form container titles at it) and without the season, which the
/// processor prints even where a style shows only the year (`Spring/1990`);
/// with `keep_particles` (a style that does not demote particles) the
/// spaces of family names are [`NAME_SPACE`].
fn engine_item(r: &Record, keep_particles: bool) -> serde_json::Map<String, serde_json::Value> {
    let mut m = csl_item(r);
    for key in ["author", "editor", "container-author"] {
        if let Some(serde_json::Value::Array(names)) = m.get_mut(key) {
            for n in names {
                // A style that demotes particles does so for lower-case
                // ones only (`da Silva`), as citeproc; `De Neve` stays whole.
                if let Some(serde_json::Value::String(f)) = n.get_mut("family")
                    && (keep_particles || f.starts_with(char::is_uppercase))
                {
                    *f = f
                        .replace(NAME_SPACE, "")
                        .replace(' ', &NAME_SPACE.to_string());
                }
            }
        }
    }
    if !m.contains_key("container-title-short")
        && let Some(t) = m.get("container-title").cloned()
    {
        m.insert("container-title-short".into(), t);
    }
    if let Some(serde_json::Value::Object(issued)) = m.get_mut("issued") {
        issued.remove("season");
    }
    m
}

/// Adapts a style to hayagriva 0.10's reading of CSL-JSON items: a
/// `cs:names` with no `cs:name` child (only a label or a substitute)
/// gets the default `cs:name`, which the processor otherwise treats as
/// rendering nothing (NLM's authors vanish) — except inside
/// `cs:substitute`, where it inherits its parent's; a container title in its
/// short form reads `container-title-short`, which the processor
/// otherwise ignores.
fn adapt(style: &mut IndependentStyle) {
    adapt_list(&mut style.citation.layout.elements, false);
    prune_unset_groups(&mut style.citation.layout.elements);
    if let Some(b) = &mut style.bibliography {
        adapt_list(&mut b.layout.elements, false);
        prune_unset_groups(&mut b.layout.elements);
    }
    for m in &mut style.macros {
        adapt_list(&mut m.children, false);
        prune_unset_groups(&mut m.children);
    }
}

/// The variables a group prints (every branch), or `None` when it calls a
/// macro (not followed) or prints names.
fn printed_variables(
    list: &[citationberg::LayoutRenderingElement],
    out: &mut Vec<String>,
) -> Option<()> {
    use citationberg::{LayoutRenderingElement as E, TextTarget};
    for e in list {
        match e {
            E::Text(t) => match &t.target {
                TextTarget::Variable { var, .. } => out.push(var.to_string()),
                TextTarget::Macro { .. } => return None,
                _ => {}
            },
            E::Date(d) => out.push(d.variable.map(|v| v.to_string()).unwrap_or_default()),
            E::Number(n) => {
                out.push(citationberg::taxonomy::Variable::from(n.variable).to_string())
            }
            E::Names(_) => return None,
            E::Label(_) => {}
            E::Group(g) => printed_variables(&g.children, out)?,
            E::Choose(c) => {
                printed_variables(&c.if_.children, out)?;
                for b in &c.else_if {
                    printed_variables(&b.children, out)?;
                }
                if let Some(o) = &c.otherwise {
                    printed_variables(&o.children, out)?;
                }
            }
        }
    }
    Some(())
}

/// CSL's group rule (a group that calls variables, all empty, prints
/// nothing) for the variables a PubMed item never has (`accessed`,
/// `medium`): hayagriva 0.10 prints IEEE's `[Online].` from such a group.
fn prune_unset_groups(list: &mut Vec<citationberg::LayoutRenderingElement>) {
    use citationberg::LayoutRenderingElement as E;
    const NEVER_SET: [&str; 2] = ["accessed", "medium"];
    list.retain(|e| {
        let E::Group(g) = e else { return true };
        let mut vars = Vec::new();
        match printed_variables(&g.children, &mut vars) {
            Some(()) => vars.is_empty() || !vars.iter().all(|v| NEVER_SET.contains(&v.as_str())),
            None => true,
        }
    });
    for e in list.iter_mut() {
        match e {
            E::Group(g) => prune_unset_groups(&mut g.children),
            E::Choose(c) => {
                prune_unset_groups(&mut c.if_.children);
                for b in &mut c.else_if {
                    prune_unset_groups(&mut b.children);
                }
                if let Some(o) = &mut c.otherwise {
                    prune_unset_groups(&mut o.children);
                }
            }
            _ => {}
        }
    }
}

/// The most elements a style may expand to, its macros called out: real
/// styles reach at most a few hundred thousand (every branch counted); 40 levels of macros that call the one below
/// twice reach 2⁴⁰.
const MAX_MACRO_WORK: u64 = 5_000_000;

/// Refuses a style whose macros call themselves (directly or in a cycle;
/// the processor would overflow its stack) or expand to more than
/// [`MAX_MACRO_WORK`] elements. Errors: the message, naming the macro.
fn macro_work(style: &IndependentStyle) -> std::result::Result<(), String> {
    use citationberg::{LayoutRenderingElement as E, TextTarget};
    use std::collections::HashMap;
    let macros: HashMap<&str, &[E]> = style
        .macros
        .iter()
        .map(|m| (m.name.as_str(), m.children.as_slice()))
        .collect();
    fn size<'a>(
        list: &'a [E],
        macros: &HashMap<&'a str, &'a [E]>,
        memo: &mut HashMap<&'a str, u64>,
        stack: &mut Vec<&'a str>,
    ) -> std::result::Result<u64, String> {
        let mut n: u64 = 0;
        for e in list {
            let add = match e {
                E::Text(t) => match &t.target {
                    TextTarget::Macro { name } => {
                        let name = name.as_str();
                        if stack.contains(&name) {
                            return Err(format!("macro `{name}` calls itself"));
                        }
                        match (memo.get(name), macros.get(name)) {
                            (Some(k), _) => *k,
                            (None, Some(body)) => {
                                stack.push(name);
                                let k = size(body, macros, memo, stack)?;
                                stack.pop();
                                memo.insert(name, k);
                                k
                            }
                            (None, None) => 1,
                        }
                    }
                    _ => 1,
                },
                E::Group(g) => size(&g.children, macros, memo, stack)?,
                E::Choose(c) => {
                    let mut k = size(&c.if_.children, macros, memo, stack)?;
                    for b in &c.else_if {
                        k = k.saturating_add(size(&b.children, macros, memo, stack)?);
                    }
                    if let Some(o) = &c.otherwise {
                        k = k.saturating_add(size(&o.children, macros, memo, stack)?);
                    }
                    k
                }
                _ => 1,
            };
            n = n.saturating_add(add).saturating_add(1);
            if n > MAX_MACRO_WORK {
                return Err(format!(
                    "its macros expand to more than {MAX_MACRO_WORK} elements"
                ));
            }
        }
        Ok(n)
    }
    let (mut memo, mut stack) = (HashMap::new(), Vec::new());
    size(
        &style.citation.layout.elements,
        &macros,
        &mut memo,
        &mut stack,
    )?;
    if let Some(b) = &style.bibliography {
        size(&b.layout.elements, &macros, &mut memo, &mut stack)?;
    }
    for m in &style.macros {
        stack.push(m.name.as_str());
        size(&m.children, &macros, &mut memo, &mut stack)?;
        stack.pop();
    }
    Ok(())
}

/// Whether the style prints `issue` and `volume` with `cs:text` in more
/// places than with `cs:number` (every macro counted once).
fn issue_as_text(style: &IndependentStyle) -> (bool, bool) {
    use citationberg::taxonomy::NumberVariable;
    (
        var_as_text(style, NumberVariable::Issue),
        var_as_text(style, NumberVariable::Volume),
    )
}

fn var_as_text(style: &IndependentStyle, var: citationberg::taxonomy::NumberVariable) -> bool {
    use citationberg::taxonomy::NumberVariable;
    fn walk(
        list: &[citationberg::LayoutRenderingElement],
        var: NumberVariable,
        text: &mut usize,
        number: &mut usize,
    ) {
        use citationberg::taxonomy::{NumberOrPageVariable, Variable};
        use citationberg::{LayoutRenderingElement as E, TextTarget};
        for e in list {
            match e {
                E::Text(t) => {
                    if let TextTarget::Variable {
                        var: Variable::Number(v),
                        ..
                    } = t.target
                        && v == var
                    {
                        *text += 1;
                    }
                }
                E::Number(n) if n.variable == NumberOrPageVariable::Number(var) => *number += 1,
                E::Group(g) => walk(&g.children, var, text, number),
                E::Choose(c) => {
                    walk(&c.if_.children, var, text, number);
                    for b in &c.else_if {
                        walk(&b.children, var, text, number);
                    }
                    if let Some(o) = &c.otherwise {
                        walk(&o.children, var, text, number);
                    }
                }
                _ => {}
            }
        }
    }
    let (mut text, mut number) = (0, 0);
    if let Some(b) = &style.bibliography {
        walk(&b.layout.elements, var, &mut text, &mut number);
    }
    walk(&style.citation.layout.elements, var, &mut text, &mut number);
    for m in &style.macros {
        walk(&m.children, var, &mut text, &mut number);
    }
    text > number
}

fn adapt_list(list: &mut [citationberg::LayoutRenderingElement], substitute: bool) {
    use citationberg::taxonomy::{StandardVariable, Variable};
    use citationberg::{LayoutRenderingElement as E, LongShortForm, NamesChild, TextTarget};
    for e in list {
        match e {
            E::Text(t) => {
                if let TextTarget::Variable {
                    var: Variable::Standard(StandardVariable::ContainerTitle),
                    form: LongShortForm::Short,
                } = t.target
                {
                    t.target = TextTarget::Variable {
                        var: Variable::Standard(StandardVariable::ContainerTitleShort),
                        form: LongShortForm::Long,
                    };
                }
            }
            E::Names(n) => {
                if !substitute && !n.children.iter().any(|c| matches!(c, NamesChild::Name(_))) {
                    n.children
                        .insert(0, NamesChild::Name(citationberg::Name::default()));
                }
                for c in &mut n.children {
                    if let NamesChild::Substitute(s) = c {
                        adapt_list(&mut s.children, true);
                    }
                }
            }
            E::Group(g) => adapt_list(&mut g.children, substitute),
            E::Choose(c) => {
                adapt_list(&mut c.if_.children, substitute);
                for b in &mut c.else_if {
                    adapt_list(&mut b.children, substitute);
                }
                if let Some(o) = &mut c.otherwise {
                    adapt_list(&mut o.children, substitute);
                }
            }
            _ => {}
        }
    }
}

/// NLM's *Citing Medicine* joins page ranges with a hyphen (`284-7`);
/// the bundled style leaves CSL's default en dash.
fn nlm_page_ranges(style: &mut IndependentStyle) {
    const TERM: &str = r#"<locale xmlns="http://purl.org/net/xbiblio/csl" version="1.0" xml:lang="en"><terms><term name="page-range-delimiter">-</term></terms></locale>"#;
    let Ok(file) = citationberg::LocaleFile::from_xml(TERM) else {
        return;
    };
    let Some(terms) = file.terms else { return };
    let en = style.locale.iter_mut().find(|l| {
        l.lang
            .as_ref()
            .is_some_and(|c| c.to_string() == "en" || c.to_string().starts_with("en-"))
    });
    match en {
        Some(l) => match &mut l.terms {
            Some(t) => t.terms.extend(terms.terms),
            None => l.terms = Some(terms),
        },
        None => style.locale.push(Locale {
            lang: Some(file.lang),
            info: None,
            terms: Some(terms),
            date: Vec::new(),
            style_options: None,
        }),
    }
}

/// Whitespace runs (line breaks included) become one space; adjacent
/// spans of the same formatting merge; no blanks at the ends.
fn tidy(spans: Vec<Span>) -> Vec<Span> {
    let squash = |t: &str| {
        let mut s = String::with_capacity(t.len());
        let mut blank = false;
        for c in t.chars() {
            if c.is_ascii_whitespace() || matches!(c, '\u{2028}' | '\u{2029}') {
                if !blank {
                    s.push(' ');
                }
                blank = true;
            } else {
                s.push(c);
                blank = false;
            }
        }
        s
    };
    let same = |a: &Span, b: &Span| {
        (
            a.italic,
            a.bold,
            a.small_caps,
            a.superscript,
            a.subscript,
            &a.link,
        ) == (
            b.italic,
            b.bold,
            b.small_caps,
            b.superscript,
            b.subscript,
            &b.link,
        )
    };
    let mut out: Vec<Span> = Vec::new();
    for mut s in spans {
        s.text = squash(&s.text);
        let after_blank = out.last().is_none_or(|l| l.text.ends_with(' '));
        if after_blank {
            s.text = s.text.trim_start().to_string();
        }
        if s.text.is_empty() {
            continue;
        }
        match out.last_mut() {
            Some(last) if same(last, &s) => last.text.push_str(&s.text),
            _ => out.push(s),
        }
    }
    // An empty date part leaves its delimiter (`2011 ;12:296-7`).
    for i in 0..out.len() {
        for p in [" ;", " ,", " :"] {
            while out[i].text.contains(p) {
                out[i].text = out[i].text.replace(p, &p[1..]);
            }
        }
        if i > 0 && out[i].text.starts_with([';', ',', ':']) && out[i - 1].text.ends_with(' ') {
            let t = out[i - 1].text.trim_end().to_string();
            out[i - 1].text = t;
        }
    }
    while let Some(l) = out.last_mut() {
        l.text = l.text.trim_end().to_string();
        if !l.text.is_empty() {
            break;
        }
        out.pop();
    }
    out
}

fn push_children(out: &mut Vec<Span>, children: &ElemChildren, base: Span) {
    for c in &children.0 {
        push_child(out, c, base.clone());
    }
}

fn styled(base: &Span, f: &hayagriva::Formatting) -> Span {
    use citationberg::{FontStyle, FontVariant, FontWeight, VerticalAlign};
    Span {
        text: String::new(),
        italic: base.italic || f.font_style == FontStyle::Italic,
        bold: base.bold || f.font_weight == FontWeight::Bold,
        small_caps: base.small_caps || f.font_variant == FontVariant::SmallCaps,
        superscript: base.superscript || f.vertical_align == VerticalAlign::Sup,
        subscript: base.subscript || f.vertical_align == VerticalAlign::Sub,
        link: base.link.clone(),
    }
}

fn push_child(out: &mut Vec<Span>, child: &ElemChild, base: Span) {
    match child {
        ElemChild::Text(t) => out.push(Span {
            text: t.text.clone(),
            ..styled(&base, &t.formatting)
        }),
        ElemChild::Elem(e) => {
            // A block (`display="block"`) stays on the reference's line.
            if e.display.is_some() {
                out.push(Span::plain(" "));
            }
            push_children(out, &e.children, base);
        }
        ElemChild::Markup(m) => out.push(Span {
            text: m.clone(),
            ..base
        }),
        ElemChild::Link { text, url } => out.push(Span {
            text: text.text.clone(),
            link: Some(url.clone()),
            ..styled(&base, &text.formatting)
        }),
        ElemChild::Transparent { .. } => {}
    }
}

/// Parses CSL XML. Errors: the line of the fault when found, and a
/// message: the XML error for text that is not well-formed, else what the
/// CSL reader could not accept.
pub fn parse_style_xml(xml: &str) -> std::result::Result<CslStyle, (Option<usize>, String)> {
    let line_at = |pos: usize| xml[..pos.min(xml.len())].matches('\n').count() + 1;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut depth = 0usize;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(quick_xml::events::Event::Start(_)) => {
                depth += 1;
                // The CSL reader and processor recurse per level.
                if depth > MAX_STYLE_DEPTH {
                    let at = usize::try_from(reader.buffer_position()).unwrap_or(0);
                    return Err((
                        Some(line_at(at)),
                        format!("elements nested more than {MAX_STYLE_DEPTH} levels deep"),
                    ));
                }
            }
            Ok(quick_xml::events::Event::End(_)) => depth = depth.saturating_sub(1),
            Ok(_) => {}
            Err(e) => {
                let at = usize::try_from(reader.error_position()).unwrap_or(0);
                return Err((Some(line_at(at)), format!("not well-formed XML: {e}")));
            }
        }
    }
    CslStyle::from_xml(xml).map_err(|e| {
        let detail = e.source.to_string();
        let path = e.path.as_ref().map(|p| p.to_string()).unwrap_or_default();
        let line = fault_line(xml, &detail, &path);
        let mut msg = format!("not a valid CSL style: {detail}");
        if !path.is_empty() && path != "?" {
            msg.push_str(&format!(" (at {path})"));
        }
        (line, msg)
    })
}

/// The line of a CSL reader fault: the first line holding the value the
/// message quotes (`unknown variant `titel``) as an attribute value or
/// element name, else the line of the element the reader's path leads to
/// (`bibliography.layout.$value[0].group.$value[1].text`).
fn fault_line(xml: &str, detail: &str, path: &str) -> Option<usize> {
    let line_of = |pos: usize| xml[..pos.min(xml.len())].matches('\n').count() + 1;
    let quoted = detail.split('`').nth(1).filter(|q| !q.is_empty());
    if let Some(q) = quoted {
        for needle in [format!("\"{q}\""), format!("'{q}'"), format!("<{q}")] {
            if let Some(pos) = xml.find(&needle) {
                return Some(line_of(pos));
            }
        }
    }
    element_at(xml, path).map(line_of)
}

/// One element of a style file: its local name, where it starts, and its
/// child elements.
struct Node {
    name: String,
    at: usize,
    children: Vec<Node>,
}

fn tree(xml: &str) -> Option<Node> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut stack: Vec<Node> = vec![Node {
        name: String::new(),
        at: 0,
        children: Vec::new(),
    }];
    loop {
        let at = usize::try_from(reader.buffer_position()).ok()?;
        match reader.read_event().ok()? {
            Event::Start(e) => stack.push(Node {
                name: e.local_name().into_inner().to_string(),
                at,
                children: Vec::new(),
            }),
            Event::Empty(e) => stack.last_mut()?.children.push(Node {
                name: e.local_name().into_inner().to_string(),
                at,
                children: Vec::new(),
            }),
            Event::End(_) => {
                let done = stack.pop()?;
                stack.last_mut()?.children.push(done);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    stack.pop()?.children.into_iter().next()
}

/// The byte offset of the element a serde path names: a field name is the
/// child of that name (or the element itself right after `$value[i]`,
/// which names its i-th child element).
fn element_at(xml: &str, path: &str) -> Option<usize> {
    let root = tree(xml)?;
    let mut node = &root;
    let mut after_index = false;
    for seg in path.split('.').filter(|s| !s.is_empty() && *s != "?") {
        if let Some(rest) = seg.strip_prefix("$value") {
            let i: usize = rest.trim_matches(['[', ']']).parse().ok()?;
            node = node.children.get(i)?;
            after_index = true;
            continue;
        }
        if seg.starts_with('@') {
            break;
        }
        let name = seg.split('[').next().unwrap_or(seg);
        if after_index && node.name == name {
            after_index = false;
            continue;
        }
        after_index = false;
        match node.children.iter().find(|c| c.name == name) {
            Some(c) => node = c,
            None => break,
        }
    }
    Some(node.at)
}

/// The styles `--list-styles` prints: the short names first (with the
/// style each stands for), then every bundled style by name.
pub fn style_list() -> Vec<(String, String)> {
    let mut list: Vec<(String, String)> = SHORT_NAMES
        .iter()
        .map(|(n, s)| (n.to_string(), s.display_name().to_string()))
        .collect();
    for s in ArchivedStyle::all() {
        if let Some(n) = s.names().first() {
            list.push((n.to_string(), s.display_name().to_string()));
        }
    }
    list
}

/// The citation for one fetched record (numbered `number`): its reference,
/// the fetch's error, or `citation_failed` when the style cannot format it.
pub fn cite_one(f: &Fetched, style: &CiteStyle, number: usize) -> Cited {
    let outcome = match f.parsed() {
        Err(e) => Err(CiteError {
            reason: CiteReason::Fetch(e.reason),
            message: e.message.clone(),
        }),
        Ok(r) => match style.format(r, number) {
            Ok(reference) => Ok(Citation {
                reference,
                retracted: r.retracted,
                retraction_notice: r.retraction_notice,
            }),
            Err(message) => Err(CiteError {
                reason: CiteReason::CitationFailed,
                message,
            }),
        },
    };
    Cited {
        requested: f.requested.clone(),
        pmid: f.pmid.clone(),
        outcome,
    }
}

impl CiteError {
    /// What the batch totals count of it.
    pub fn failed(&self) -> Failed<'_> {
        Failed {
            reason: self.reason.as_str(),
            request: match self.reason {
                CiteReason::Fetch(r) => r.request_failure(),
                CiteReason::CitationFailed => None,
            },
            message: &self.message,
            retry_after: None,
        }
    }
}

impl Outcome for Cited {
    fn failure(&self) -> Option<Failed<'_>> {
        self.outcome.as_ref().err().map(CiteError::failed)
    }
}

/// The cite operation on the batch engine: fetch's chunks, each record
/// formatted as it is handed out; `succeeded` counts references formatted.
struct Cite<'a> {
    fetch: Fetch<'a>,
    style: &'a CiteStyle,
    /// Records numbered so far (numeric styles number by input position).
    numbered: std::sync::atomic::AtomicUsize,
}

impl Cite<'_> {
    fn next_number(&self) -> usize {
        1 + self
            .numbered
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }
}

impl Op for Cite<'_> {
    type Line = InputLine;
    type Group = ();
    type Key = String;
    type Input = (String, usize);
    type Answer = crate::ncbi::efetch::EfetchAnswer;
    type Record = Cited;
    type Counts = ();

    fn client(&self) -> &Client {
        self.fetch.client()
    }

    fn policy(&self) -> ChunkPolicy {
        self.fetch.policy()
    }

    fn check(&self, arg: &str) -> Result<()> {
        self.fetch.check(arg)
    }

    fn admit(&self, line: InputLine) -> Admit<Self> {
        match self.fetch.admit(line) {
            Admit::Skip => Admit::Skip,
            Admit::Done(f) => Admit::Done(cite_one(&f, self.style, self.next_number())),
            Admit::Ask {
                group,
                key,
                cost,
                input,
            } => Admit::Ask {
                group,
                key,
                cost,
                input: (input, self.next_number()),
            },
        }
    }

    fn request(&self, group: (), pmids: Vec<String>) -> BoxFuture<'_, Result<Self::Answer>> {
        self.fetch.request(group, pmids)
    }

    fn record(
        &self,
        (requested, number): (String, usize),
        pmid: &String,
        answer: std::result::Result<&mut Self::Answer, &Error>,
        last: bool,
    ) -> Cited {
        let f = self.fetch.record(requested, pmid, answer, last);
        cite_one(&f, self.style, number)
    }
}

/// Cites a stream of input lines, handing each reference to `sink` in input
/// order as soon as it is known (the fetch engine's rules: malformed lines,
/// PMIDs not found and failed chunks become error entries in place). The
/// totals count references formatted as `succeeded`, and records the style
/// could not format as `citation_failed`.
///
/// Errors: as [`super::fetch::fetch_stream`].
pub async fn cite_stream<S, F>(
    client: &Client,
    input: S,
    style: &CiteStyle,
    sink: &mut F,
) -> std::result::Result<Totals, Failure>
where
    S: Stream<Item = io::Result<InputLine>> + Unpin,
    F: FnMut(Output<'_, Cited>) -> io::Result<()>,
{
    batch::run(&cite_op(client, style), input, sink).await
}

fn cite_op<'a>(client: &'a Client, style: &'a CiteStyle) -> Cite<'a> {
    Cite {
        fetch: Fetch {
            client,
            options: FetchOptions::default(),
        },
        style,
        numbered: Default::default(),
    }
}

/// Cites a list of PMIDs given at once (MCP): every element validated
/// first. Errors: `malformed_id` naming the first bad element.
pub async fn cite_pmids(
    client: &Client,
    pmids: &[String],
    style: &CiteStyle,
) -> Result<(Vec<Cited>, Totals)> {
    batch::collect(&cite_op(client, style), pmids).await
}

/// [`cite_pmids`], calling `progress` as each chunk is answered (MCP
/// progress notifications).
///
/// Errors: as [`cite_pmids`].
pub async fn cite_pmids_reporting(
    client: &Client,
    pmids: &[String],
    style: &CiteStyle,
    progress: impl FnMut(batch::Progress) + Send,
) -> Result<(Vec<Cited>, Totals)> {
    batch::collect_reporting(&cite_op(client, style), pmids, progress).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_resolve_and_unknown_names_point_to_the_list() {
        for (n, _) in SHORT_NAMES {
            let s = CiteStyle::resolve(n).unwrap();
            assert!(!s.title.is_empty(), "{n}");
        }
        assert!(CiteStyle::resolve("the-lancet").is_ok());
        let e = CiteStyle::resolve("apa7x").unwrap_err();
        assert_eq!(e.reason, Reason::InvalidArgument);
        assert!(e.message.contains("--list-styles"), "{}", e.message);
    }

    fn texts(spans: &[Span]) -> Vec<&str> {
        spans.iter().map(|s| s.text.as_str()).collect()
    }

    #[test]
    fn family_names_get_their_spaces_back() {
        let mut spans = [Span::plain(format!("da{NAME_SPACE}Silva AR, "))];
        restore_name_spaces(&mut spans);
        assert_eq!(texts(&spans), ["da Silva AR, "]);
    }

    /// PubMed's issue `2-03` (PMID-style record), printed `2–3` by the
    /// processor; `12–30` (digits around) is another number and kept.
    #[test]
    fn issue_ranges_as_pubmed_wrote_them() {
        let r = Record {
            journal: Some(crate::core::record::Journal {
                issue: Some("2-03".into()),
                ..Default::default()
            }),
            ..Default::default()
        };
        let mut spans = [Span::plain("40(2\u{2013}3):112\u{2013}30.")];
        issue_as_written(&mut spans, &r, (true, false));
        assert_eq!(texts(&spans), ["40(2-03):112\u{2013}30."]);
        let mut spans = [Span::plain("40(2\u{2013}3)")];
        issue_as_written(&mut spans, &r, (false, false));
        assert_eq!(texts(&spans), ["40(2\u{2013}3)"]);
    }

    #[test]
    fn the_space_before_a_title_colon_is_put_back() {
        let mut t = "Antioxid Redox Signal (San Diego, Calif.: 1997). 5.".to_string();
        space_before_colon(
            &mut t,
            "Antioxidants & redox signaling (San Diego, Calif. : 1997)",
        );
        assert_eq!(t, "Antioxid Redox Signal (San Diego, Calif.: 1997). 5.");
        space_before_colon(&mut t, "Antioxid Redox Signal (San Diego, Calif. : 1997)");
        assert_eq!(t, "Antioxid Redox Signal (San Diego, Calif. : 1997). 5.");
    }

    #[test]
    fn no_period_or_comma_after_a_question_mark() {
        let mut spans = [
            Span::plain("Is it safe?. Lancet"),
            Span::plain("\u{201C}Why not!\u{201D}, "),
            Span::plain("Or this?"),
            Span::plain(". J Med"),
        ];
        no_punctuation_after_question_or_exclamation(&mut spans);
        assert_eq!(
            texts(&spans),
            [
                "Is it safe? Lancet",
                "\u{201C}Why not!\u{201D} ",
                "Or this?",
                " J Med"
            ]
        );
    }

    #[test]
    fn malformed_styles_name_the_line() {
        let (line, msg) = parse_style_xml("<style>\n<info>\n</style>").unwrap_err();
        assert_eq!(line, Some(3), "{msg}");
        assert!(msg.starts_with("not well-formed XML"), "{msg}");
    }
}
