//! Renders formatted references as they stream out (docs/cite.md
//! "pubmed cite"): `text` (one reference per line), `html` (one `<div
//! class="csl-entry">` per line) and `markdown` (one paragraph per
//! reference). A PMID without a reference gets an error entry in its
//! place, so entry N is input N.

use std::io::{self, Write};

use html_escape::{encode_double_quoted_attribute, encode_text};

use crate::core::text::printable;
use crate::ops::batch::Totals;
use crate::ops::cite::{Citation, CiteError, CiteReason, Cited, Span};

formats! {
    /// The formats of `cite`.
    pub enum CiteFormat { Text, Html, Markdown }
}

impl super::CommandFormat for CiteFormat {
    const COMMAND: &'static str = "cite";
    const TERMINAL: Self = CiteFormat::Text;
    const PIPE: Self = CiteFormat::Text;
}

formats! {
    /// The formats of MCP `pubmed_format_citations`: the reference-manager
    /// exports, or references in a style.
    pub enum ToolCiteFormat { Ris, Bibtex, CslJson, Text }
}

fn one_line(s: &str) -> String {
    printable(s).into_owned()
}

/// The error text of an entry without a reference:
/// `PMID 99999999: not_found: EFetch returned no record for this PMID`.
pub fn error_text(pmid: &str, e: &CiteError) -> String {
    one_line(&format!("PMID {pmid}: {}: {}", e.reason, e.message))
}

/// A span as HTML: control and reordering characters (which a `.csl`
/// file's affixes can carry) become spaces first, as in every other output.
fn html_span(s: &Span) -> String {
    let mut t = encode_text(&printable(&s.text)).into_owned();
    for (on, open, close) in [
        (s.italic, "<i>", "</i>"),
        (s.bold, "<b>", "</b>"),
        (
            s.small_caps,
            "<span style=\"font-variant: small-caps\">",
            "</span>",
        ),
        (s.superscript, "<sup>", "</sup>"),
        (s.subscript, "<sub>", "</sub>"),
    ] {
        if on {
            t = format!("{open}{t}{close}");
        }
    }
    match &s.link {
        Some(url) => format!(
            "<a href=\"{}\">{t}</a>",
            encode_double_quoted_attribute(&printable(url))
        ),
        None => t,
    }
}

/// Markdown's punctuation that would change the text's meaning, escaped.
fn md_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn md_span(s: &Span) -> String {
    let text = md_escape(&printable(&s.text));
    // Emphasis markers must touch the text: keep the spaces outside.
    let (lead, core, trail) = {
        let core = text.trim();
        let lead = &text[..text.len() - text.trim_start().len()];
        let trail = &text[text.trim_end().len()..];
        (lead.to_string(), core.to_string(), trail.to_string())
    };
    let mut t = core;
    if t.is_empty() {
        return text;
    }
    if s.superscript {
        t = format!("<sup>{t}</sup>");
    }
    if s.subscript {
        t = format!("<sub>{t}</sub>");
    }
    if s.bold {
        t = format!("**{t}**");
    }
    if s.italic {
        t = format!("*{t}*");
    }
    if let Some(url) = &s.link {
        let url = url.replace(['<', '>', ' '], "");
        t = if s.text.trim() == url {
            format!("<{url}>")
        } else {
            format!("[{t}](<{url}>)")
        };
    }
    format!("{lead}{t}{trail}")
}

/// A streaming writer for one `cite` run.
pub struct CiteWriter<'a> {
    out: &'a mut dyn Write,
    format: CiteFormat,
    entries: u64,
}

impl<'a> CiteWriter<'a> {
    /// Starts the output in `format` (`text`, `html` or `markdown`).
    pub fn begin(out: &'a mut dyn Write, format: CiteFormat) -> CiteWriter<'a> {
        CiteWriter {
            out,
            format,
            entries: 0,
        }
    }

    /// Writes the entry of one input PMID.
    pub fn entry(&mut self, c: &Cited) -> io::Result<()> {
        self.entries += 1;
        match &c.outcome {
            Ok(citation) => self.reference(&c.pmid, citation),
            Err(e) => self.error_entry(&c.pmid, e),
        }
    }

    fn error_entry(&mut self, pmid: &str, e: &CiteError) -> io::Result<()> {
        let e = error_text(pmid, e);
        match self.format {
            CiteFormat::Html => writeln!(
                self.out,
                "<div class=\"csl-entry pubmed-error\" data-pmid=\"{}\">{}</div>",
                encode_double_quoted_attribute(&printable(pmid)),
                encode_text(&e)
            ),
            CiteFormat::Markdown => self.paragraph(&format!("*{}*", md_escape(&e))),
            CiteFormat::Text => writeln!(self.out, "[{e}]"),
        }
    }

    fn reference(&mut self, pmid: &str, citation: &Citation) -> io::Result<()> {
        let r = &citation.reference;
        match self.format {
            CiteFormat::Html => {
                let body: String = r.spans.iter().map(html_span).collect();
                let class = if citation.retracted {
                    "csl-entry pubmed-retracted"
                } else {
                    "csl-entry"
                };
                writeln!(
                    self.out,
                    "<div class=\"{class}\" data-pmid=\"{}\">{body}</div>",
                    encode_double_quoted_attribute(&printable(pmid))
                )
            }
            CiteFormat::Markdown => {
                let body: String = r.spans.iter().map(md_span).collect();
                self.paragraph(&body)
            }
            CiteFormat::Text => writeln!(self.out, "{}", one_line(&r.text())),
        }
    }

    fn paragraph(&mut self, text: &str) -> io::Result<()> {
        if self.entries > 1 {
            writeln!(self.out)?;
        }
        writeln!(self.out, "{text}")
    }

    /// Flushes what was written so far (streaming).
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The stderr summary: the fetch's counts (a record the style could not
/// format was found), failures by reason, requests, then the records not
/// formatted.
pub fn summary(t: &Totals) -> String {
    let name = CiteReason::CitationFailed.as_str();
    let not_formatted = t.by_reason.get(name).copied().unwrap_or(0);
    let mut fetch = t.clone();
    fetch.by_reason.remove(name);
    fetch.succeeded += not_formatted;
    fetch.failed -= not_formatted;
    let mut s = super::fetch::summary(&fetch);
    if not_formatted > 0 {
        s.push_str(&format!("; {not_formatted} not formatted by the style"));
    }
    s
}
