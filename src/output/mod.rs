//! Formatters: render operation results as tables, JSON, NDJSON, CSV/TSV,
//! plain text or ID lists. Separate from the operations; they only write.
//! Text from a query or from NCBI goes out [`printable`] (JSON escapes it).

use std::io::{self, Write};

use comfy_table::{Cell, ContentArrangement, Table, presets};

use crate::core::choice::choice;
use crate::core::text::printable;

pub mod citation;
pub mod cite;
pub mod convert;
pub mod delimited;
pub mod fetch;
pub mod related;
pub mod search;
pub mod search_all;
pub mod spell;
pub mod stream;

choice! {
    /// An output format (`--format`).
    pub enum Format {
        /// A table for people (default on a terminal).
        Table = "table",
        /// Plain text (`spell`: the corrected query alone).
        Text = "text",
        /// One JSON document.
        Json = "json",
        /// One JSON object per line.
        Ndjson = "ndjson",
        /// RFC 4180 CSV with a header row.
        Csv = "csv",
        /// Tab-separated values with a header row.
        Tsv = "tsv",
        /// One ID per line.
        Ids = "ids",
        /// A readable record per article (`fetch`, default on a terminal).
        Abstract = "abstract",
        /// NCBI's MEDLINE text (`fetch`).
        Medline = "medline",
        /// NCBI's `PubmedArticleSet` XML (`fetch`).
        Xml = "xml",
        /// RIS for reference managers (`fetch`).
        Ris = "ris",
        /// BibTeX entries (`fetch`).
        Bibtex = "bibtex",
        /// A CSL-JSON array (`fetch`).
        CslJson = "csl-json",
        /// HTML references (`cite`).
        Html = "html",
        /// Markdown references (`cite`).
        Markdown = "markdown",
    }
}

impl Format {
    /// The formats of commands that print records (`search`, `convert`).
    pub const RECORDS: [Format; 6] = [
        Format::Table,
        Format::Json,
        Format::Ndjson,
        Format::Csv,
        Format::Tsv,
        Format::Ids,
    ];

    /// The formats of `fetch`.
    pub const FETCH: [Format; 11] = [
        Format::Abstract,
        Format::Medline,
        Format::Xml,
        Format::Json,
        Format::Ndjson,
        Format::Csv,
        Format::Tsv,
        Format::Table,
        Format::Ris,
        Format::Bibtex,
        Format::CslJson,
    ];

    /// The formats of `cite`.
    pub const CITE: [Format; 3] = [Format::Text, Format::Html, Format::Markdown];

    /// True for formats whose errors are printed as JSON on stderr.
    pub fn is_json(self) -> bool {
        matches!(self, Format::Json | Format::Ndjson)
    }
}

choice! {
    /// When to use colour (`--color`).
    #[derive(Default)]
    pub enum ColorWhen {
        /// On a terminal, unless `NO_COLOR` is set and not empty.
        #[default]
        Auto = "auto",
        /// Always.
        Always = "always",
        /// Never.
        Never = "never",
    }
}

/// How human output looks: colour and width.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    /// Use ANSI colour and bold.
    pub color: bool,
    /// Table width in columns; `None` lets the table size itself.
    pub width: Option<u16>,
}

impl Style {
    /// A table that wraps long cells to the width rather than cutting them
    /// (written with [`write_table`]).
    pub fn table(&self) -> Table {
        let mut t = Table::new();
        t.load_style(presets::UTF8_FULL_CONDENSED);
        t.set_content_arrangement(ContentArrangement::Dynamic);
        if let Some(w) = self.width {
            t.set_width(w);
        } else if t.width().is_some_and(|w| w < 30) {
            // A terminal that reports no size (e.g. under `script`): don't
            // squeeze every column to one character.
            t.set_width(100);
        }
        if self.color {
            t.enforce_styling();
        }
        t
    }

    /// `text` in bold when colour is on.
    pub fn bold(&self, text: &str) -> String {
        if self.color {
            format!("\x1b[1m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// Writes a table at its natural width when that fits the terminal (or
/// `COLUMNS`), else at the full width with long cells wrapped: the
/// terminal's width is used, not a part of it (comfy-table's `Dynamic`
/// leaves columns narrower than the space there is).
pub fn write_table(out: &mut dyn Write, mut t: Table) -> io::Result<()> {
    if let Some(width) = t.width() {
        let widths = t.column_max_content_widths();
        // Each column: its content, one space each side, one border.
        let natural: usize = widths.iter().map(|w| usize::from(*w) + 3).sum::<usize>() + 1;
        t.set_content_arrangement(if natural > usize::from(width) {
            ContentArrangement::DynamicFullWidth
        } else {
            ContentArrangement::Disabled
        });
    }
    writeln!(out, "{t}")
}

/// A table cell holding `text` made [`printable`]: one line, no escape
/// sequences.
pub fn cell(text: &str) -> Cell {
    Cell::new(printable(text))
}

/// Writes `value` as pretty JSON followed by a newline.
pub fn write_json<T: serde::Serialize>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}

/// Writes `value` as one compact JSON line.
pub fn write_json_line<T: serde::Serialize>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}
