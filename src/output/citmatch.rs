//! Renders `match` records as they come, in input order (docs/match.md
//! "Output"): TSV rows, NDJSON lines, one JSON document with totals, a
//! table at the end, or the matched PMIDs (an empty line for a miss, so
//! lines stay aligned with the input).

use std::io::{self, Write};

use serde_json::json;

use super::delimited::{write_header, write_rows};
use super::table::{Col, write_columns};
use super::{Format, Style, cell, write_json, write_json_line};
use crate::ops::batch::Totals;
use crate::ops::citmatch::MatchRecord;

formats! {
    /// The formats of `match`.
    pub enum MatchFormat { Table, Json, Ndjson, Tsv, Ids }
}

impl super::CommandFormat for MatchFormat {
    const COMMAND: &'static str = "match";
    const TERMINAL: Self = MatchFormat::Table;
    const PIPE: Self = MatchFormat::Tsv;
}

/// The TSV columns, in order.
pub const COLUMNS: [&str; 7] = [
    "input",
    "key",
    "status",
    "pmid",
    "method",
    "candidates",
    "message",
];

/// The TSV row of a record.
pub fn row(r: &MatchRecord) -> Vec<String> {
    vec![
        r.input.clone(),
        r.key.clone(),
        r.status.as_str().to_string(),
        r.pmid.clone().unwrap_or_default(),
        r.method.unwrap_or_default().to_string(),
        r.candidates.join(","),
        r.message.clone().unwrap_or_default(),
    ]
}

/// A writer for one run.
pub struct Writer<'w> {
    out: &'w mut dyn Write,
    format: MatchFormat,
    style: Style,
    held: Vec<MatchRecord>,
}

impl<'w> Writer<'w> {
    /// Starts the output (the TSV header).
    pub fn begin(out: &'w mut dyn Write, format: MatchFormat, style: Style) -> io::Result<Self> {
        if format == MatchFormat::Tsv {
            write_header(out, Format::Tsv, &COLUMNS)?;
        }
        Ok(Writer {
            out,
            format,
            style,
            held: Vec::new(),
        })
    }

    /// Writes one record (held for JSON and the table).
    pub fn record(&mut self, r: &MatchRecord) -> io::Result<()> {
        match self.format {
            MatchFormat::Tsv => write_rows(self.out, Format::Tsv, &[row(r)]),
            MatchFormat::Ndjson => write_json_line(self.out, r),
            MatchFormat::Ids => writeln!(self.out, "{}", r.pmid.as_deref().unwrap_or_default()),
            MatchFormat::Json | MatchFormat::Table => {
                self.held.push(r.clone());
                Ok(())
            }
        }
    }

    /// Ends the output: the JSON document or the table.
    pub fn finish(self, totals: &Totals) -> io::Result<()> {
        match self.format {
            MatchFormat::Json => write_json(
                self.out,
                &json!({
                    "records": self.held,
                    "totalSubmitted": totals.submitted,
                    "totalMatched": totals.succeeded,
                    "byReason": totals.by_reason,
                }),
            ),
            MatchFormat::Table => {
                let mut t = self.style.table();
                t.set_header(vec!["input", "status", "pmid", "note"]);
                for r in &self.held {
                    let note = if r.candidates.is_empty() {
                        r.message.clone().unwrap_or_default()
                    } else {
                        format!("candidates {}", r.candidates.join(", "))
                    };
                    t.add_row(vec![
                        cell(&r.input),
                        cell(r.status.as_str()),
                        cell(r.pmid.as_deref().unwrap_or_default()),
                        cell(&note),
                    ]);
                }
                let cols = [Col::Wide, Col::Id, Col::Id, Col::Text];
                write_columns(self.out, t, &cols)
            }
            MatchFormat::Tsv | MatchFormat::Ndjson | MatchFormat::Ids => Ok(()),
        }
    }
}
