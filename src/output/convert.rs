//! Renders convert records as they stream out: table (in blocks), JSON
//! (records + totals), NDJSON, CSV, TSV, or the bare `--to` IDs, one output
//! line per input line.

use std::io::{self, Write};

use super::delimited::{write_header, write_rows};
use super::stream::{self, TableBlock, json_record};
use super::table::{Col, write_columns};
use super::{Style, cell, write_json_line};
use crate::core::ids::IdType;
use crate::core::text::{count, printable};
use crate::ops::batch::Output;
use crate::ops::convert::{ConvertRecord, Totals};

formats! {
    /// The formats of `convert`.
    pub enum ConvertFormat { Table, Json, Ndjson, Csv, Tsv, Ids }
}

impl super::CommandFormat for ConvertFormat {
    const COMMAND: &'static str = "convert";
    const TERMINAL: Self = ConvertFormat::Table;
    const PIPE: Self = ConvertFormat::Tsv;
    const NOTE: &'static str = "; ids with --to";
}

const HEADER: [&str; 6] = ["requested", "pmid", "pmcid", "doi", "error", "message"];

/// A streaming writer for one run.
pub struct Writer<'a> {
    out: &'a mut dyn Write,
    format: ConvertFormat,
    to: Option<IdType>,
    style: Style,
    records: u64,
    table: TableBlock<ConvertRecord>,
    /// A `source` column (pmc or pubmed) in TSV, CSV and tables
    /// (`--fallback pubmed`).
    source: bool,
    /// Records found but without the `--to` ID (an article with no DOI):
    /// not counted as converted (docs/convert.md "Summary").
    without: u64,
}

/// What a run converted, as the user asked: with `--to`, a record found
/// without that ID is `without`, not converted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// The `--to` type, if given.
    pub to: Option<IdType>,
    /// Records with an answer and, with `--to`, that ID.
    pub converted: u64,
    /// Records with an answer but without the `--to` ID.
    pub without: u64,
}

/// How an ID type is written in messages: `PMID`, `PMCID`, `DOI`.
fn label(t: IdType) -> &'static str {
    match t {
        IdType::Pmid => "PMID",
        IdType::Pmcid => "PMCID",
        IdType::Doi => "DOI",
    }
}

fn source_cell(r: &ConvertRecord) -> String {
    r.outcome
        .as_ref()
        .map(|c| c.source.as_str().to_string())
        .unwrap_or_default()
}

fn cells(r: &ConvertRecord) -> Vec<String> {
    let id = |t: IdType| r.get(t).unwrap_or_default().to_string();
    let (reason, message) = match &r.outcome {
        Ok(_) => (String::new(), String::new()),
        Err(e) => (e.reason.as_str().to_string(), e.message.clone()),
    };
    vec![
        r.requested.clone(),
        id(IdType::Pmid),
        id(IdType::Pmcid),
        id(IdType::Doi),
        reason,
        message,
    ]
}

impl<'a> Writer<'a> {
    /// Starts the output (headers, the JSON opening).
    pub fn begin(
        out: &'a mut dyn Write,
        format: ConvertFormat,
        to: Option<IdType>,
        style: Style,
    ) -> io::Result<Writer<'a>> {
        Self::begin_with(out, format, to, style, false)
    }

    /// As [`Writer::begin`], with a `source` column after `message` when
    /// `source` is set.
    pub fn begin_with(
        out: &'a mut dyn Write,
        format: ConvertFormat,
        to: Option<IdType>,
        style: Style,
        source: bool,
    ) -> io::Result<Writer<'a>> {
        let w = Writer {
            out,
            format,
            to,
            style,
            records: 0,
            table: TableBlock::default(),
            source,
            without: 0,
        };
        let mut header = HEADER.to_vec();
        if source {
            header.push("source");
        }
        match format {
            ConvertFormat::Csv | ConvertFormat::Tsv => write_header(w.out, format.into(), &header)?,
            ConvertFormat::Json => write!(w.out, "{{\"records\": [")?,
            ConvertFormat::Table | ConvertFormat::Ndjson | ConvertFormat::Ids => {}
        }
        Ok(w)
    }

    /// Writes one output item.
    pub fn item(&mut self, item: Output<'_, ConvertRecord>) -> io::Result<()> {
        let r = match item {
            Output::Flush => return self.out.flush(),
            Output::Progress(_) => return Ok(()),
            Output::Skipped => {
                if self.format == ConvertFormat::Ids {
                    writeln!(self.out)?;
                }
                return Ok(());
            }
            Output::Record(r) => r,
        };
        self.records += 1;
        if let Some(t) = self.to
            && r.outcome.is_ok()
            && r.get(t).is_none()
        {
            self.without += 1;
        }
        match self.format {
            ConvertFormat::Ids => {
                let id = self.to.and_then(|t| r.get(t)).unwrap_or("");
                writeln!(self.out, "{}", printable(id))?;
            }
            ConvertFormat::Ndjson => write_json_line(self.out, r)?,
            ConvertFormat::Json => json_record(self.out, self.records, r)?,
            ConvertFormat::Csv | ConvertFormat::Tsv => {
                let mut row = cells(r);
                if self.source {
                    row.push(source_cell(r));
                }
                write_rows(self.out, self.format.into(), &[row])?
            }
            ConvertFormat::Table => {
                if self.table.push(r.clone(), 1) {
                    self.flush_table()?;
                }
            }
        }
        Ok(())
    }

    fn flush_table(&mut self) -> io::Result<()> {
        let Some(records) = self.table.take() else {
            return Ok(());
        };
        let mut t = self.style.table();
        let mut header = vec!["Requested", "PMID", "PMCID", "DOI", "Error"];
        if self.source {
            header.push("Source");
        }
        t.set_header(header);
        for r in records {
            let c = cells(&r);
            let err = r
                .outcome
                .as_ref()
                .err()
                .map(|e| format!("{}: {}", e.reason, e.message))
                .unwrap_or_default();
            let mut row = vec![
                cell(&c[0]),
                cell(&c[1]),
                cell(&c[2]),
                cell(&c[3]),
                cell(&err),
            ];
            if self.source {
                row.push(cell(&source_cell(&r)));
            }
            t.add_row(row);
        }
        let cols = [Col::Id, Col::Id, Col::Id, Col::Id, Col::Wide, Col::Id];
        write_columns(self.out, t, &cols[..if self.source { 6 } else { 5 }])
    }

    /// The counts of the records written so far against `totals`.
    pub fn counts(&self, totals: &Totals) -> Counts {
        Counts {
            to: self.to,
            converted: totals.succeeded.saturating_sub(self.without),
            without: self.without,
        }
    }

    /// Ends the output (the JSON totals, the last table block) and flushes.
    /// With `--to`, the totals gain `without_<type>` (e.g. `without_doi`).
    pub fn finish(&mut self, totals: &Totals) -> io::Result<()> {
        self.flush_table()?;
        let c = self.counts(totals);
        let without =
            c.to.map(|t| format!(", \"without_{t}\": {}", c.without))
                .unwrap_or_default();
        stream::finish(
            self.out,
            self.format.into(),
            format_args!(
                "\"submitted\": {}, \"converted\": {}{without}, \"failed\": {}{}",
                totals.submitted,
                c.converted,
                totals.failed,
                stream::cache_totals(totals)
            ),
        )
    }

    /// Ends an output that stopped early (bad input, Ctrl-C): the table
    /// block so far, the JSON record line ended; see [`stream::abandon`].
    pub fn abandon(&mut self) -> io::Result<()> {
        self.flush_table()?;
        stream::abandon(self.out, self.format.into())
    }
}

/// The stderr summary: counts and failures by reason, e.g. `25 IDs: 20
/// converted, 5 without a DOI, 0 failed; 1 request` (the `without` part
/// only when some are).
pub fn summary(t: &Totals, c: Counts) -> String {
    // Shown when there are any, so `1 ID: 1 converted, 0 failed` stays short.
    let without = match c.to {
        Some(to) if c.without > 0 => format!(", {} without a {}", c.without, label(to)),
        _ => String::new(),
    };
    let head = format!(
        "{}: {} converted{without}, {} failed",
        count(t.submitted, "ID"),
        c.converted,
        t.failed
    );
    stream::summary(head, &t.by_reason, t.requests)
}
