//! The streaming writer of `search --all`: PMIDs (`ids`, NDJSON, CSV, TSV)
//! or summaries (NDJSON, CSV, TSV) written as each range or batch
//! completes, one record per line, and the stderr notes of each event.

use std::io::{self, Write};

use super::delimited::{write_header, write_rows};
use super::search::{
    header, missing_json, missing_note, missing_row, row, write_ids, write_ndjson,
};
use super::write_json_line;
use crate::error::Reason;
use crate::ops::resume::Lines;
use crate::ops::search::{Detail, Missing};
use crate::ops::search_all::Event;

formats! {
    /// The formats of `search --all`: streamed, so no table and no JSON
    /// document.
    pub enum SearchAllFormat { Ids, Ndjson, Csv, Tsv }
}

impl super::CommandFormat for SearchAllFormat {
    const COMMAND: &'static str = "search --all";
    const TERMINAL: Self = SearchAllFormat::Ids;
    const PIPE: Self = SearchAllFormat::Ids;
}

/// A streaming writer for one `--all` run: [`Writer::begin`], then
/// [`Writer::event`] for each event, then [`Writer::finish`].
pub struct Writer<'a> {
    out: &'a mut dyn Write,
    format: SearchAllFormat,
    detail: Detail,
    /// The CSV/TSV header goes out with the first rows, so a run that fails
    /// before any data leaves stdout empty.
    header_due: bool,
}

impl<'a> Writer<'a> {
    /// Starts the output; nothing is written yet. `detail` says which
    /// columns rows have.
    pub fn begin(out: &'a mut dyn Write, format: SearchAllFormat, detail: Detail) -> Writer<'a> {
        Writer {
            out,
            format,
            detail,
            header_due: match format {
                SearchAllFormat::Csv | SearchAllFormat::Tsv => true,
                SearchAllFormat::Ids | SearchAllFormat::Ndjson => false,
            },
        }
    }

    /// The output already holds the CSV/TSV header (a resumed file).
    pub fn header_written(&mut self) {
        self.header_due = false;
    }

    fn header(&mut self) -> io::Result<()> {
        if self.header_due {
            self.header_due = false;
            write_header(self.out, self.format.into(), &header(self.detail))?;
        }
        Ok(())
    }

    fn rows(&mut self, rows: &[Vec<String>]) -> io::Result<()> {
        self.header()?;
        write_rows(self.out, self.format.into(), rows)
    }

    /// A PMID without a summary: its NDJSON error line or its CSV/TSV row
    /// with the `error` column (nothing in `ids`).
    fn missing(&mut self, m: &Missing, reason: Reason) -> io::Result<()> {
        match self.format {
            SearchAllFormat::Ndjson => {
                let mut v = missing_json(m);
                v["error"]["reason"] = reason.as_str().into();
                write_json_line(self.out, &v)
            }
            SearchAllFormat::Csv | SearchAllFormat::Tsv => {
                self.rows(&[missing_row(m, self.detail)])
            }
            SearchAllFormat::Ids => Ok(()),
        }
    }

    /// Writes what `event` adds to stdout and flushes, so every record is
    /// out as soon as it is known.
    pub fn event(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::Pmids(ids) => match self.format {
                SearchAllFormat::Ndjson => {
                    for p in *ids {
                        write_json_line(self.out, &serde_json::json!({ "pmid": p }))?;
                    }
                }
                SearchAllFormat::Csv | SearchAllFormat::Tsv => {
                    let rows: Vec<Vec<String>> = ids.iter().map(|p| vec![p.clone()]).collect();
                    self.rows(&rows)?;
                }
                SearchAllFormat::Ids => write_ids(self.out, ids)?,
            },
            Event::Summaries(summaries, missing) => {
                match self.format {
                    SearchAllFormat::Csv | SearchAllFormat::Tsv => {
                        let rows: Vec<Vec<String>> =
                            summaries.iter().map(|s| row(s, self.detail)).collect();
                        self.rows(&rows)?;
                    }
                    // `ids` asks for no summaries; were there any, NDJSON.
                    SearchAllFormat::Ndjson | SearchAllFormat::Ids => {
                        write_ndjson(self.out, summaries, self.detail)?;
                    }
                }
                for m in *missing {
                    self.missing(m, Reason::NcbiResourceNotFound)?;
                }
            }
            Event::SummariesFailed(ids, e) => {
                for p in *ids {
                    let m = Missing {
                        pmid: p.clone(),
                        message: if self.format == SearchAllFormat::Ndjson {
                            e.message.clone()
                        } else {
                            format!("{} [{}]", e.message, e.reason)
                        },
                    };
                    self.missing(&m, e.reason)?;
                }
            }
            Event::RangeFailed { .. } | Event::Progress { .. } | Event::Checkpoint(_) => {
                return Ok(());
            }
        }
        self.out.flush()
    }

    /// Ends the output: the CSV/TSV header of a run without rows (unless it
    /// failed, so a failed run can leave stdout empty), then a flush.
    pub fn finish(&mut self, failed: bool) -> io::Result<()> {
        if !failed {
            self.header()?;
        }
        self.out.flush()
    }

    /// Flushes what was written so far (an interrupted run).
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// How this writer's lines read back, for `--resume`: the PMID of each
/// line, the CSV/TSV header, and which lines record a failed request.
pub fn resume_lines(format: SearchAllFormat, detail: Detail) -> Lines {
    match format {
        SearchAllFormat::Ndjson => Lines::Ndjson,
        SearchAllFormat::Csv | SearchAllFormat::Tsv => {
            let mut buf = Vec::new();
            write_header(&mut buf, format.into(), &header(detail)).expect("writing to memory");
            let line = String::from_utf8_lossy(&buf).trim_end().to_string();
            Lines::Delimited {
                header: line,
                delimiter: if format == SearchAllFormat::Csv {
                    b','
                } else {
                    b'\t'
                },
            }
        }
        SearchAllFormat::Ids => Lines::Ids,
    }
}

/// A line for stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// A warning (silenced by `-q`).
    Warning(String),
    /// An error: part of the output failed (always shown).
    Error(String),
}

/// What `event` says on stderr: PMIDs without a summary, failed summary
/// batches, failed ranges with the query that fetches them again.
pub fn notes(event: &Event<'_>) -> Vec<Note> {
    match event {
        Event::Summaries(_, missing) => missing
            .iter()
            .map(|m| Note::Warning(missing_note(m)))
            .collect(),
        Event::SummariesFailed(ids, e) => vec![Note::Error(format!(
            "summaries of {} failed: {} [{}]",
            crate::core::text::count(ids.len() as u64, "PMID"),
            e.message,
            e.reason
        ))],
        Event::RangeFailed {
            range,
            error,
            rerun,
        } => vec![Note::Error(format!(
            "PMID range {range} failed: {} [{}]; to fetch it later, run the same command with the query {}",
            error.message,
            error.reason,
            shell_quoted(rerun)
        ))],
        Event::Pmids(_) | Event::Progress { .. } | Event::Checkpoint(_) => Vec::new(),
    }
}

/// `s` in single quotes for a POSIX shell (`'` written as `'\''`).
fn shell_quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Error, Reason};
    use crate::ops::search_all::{PmidRange, range_query};

    #[test]
    fn a_failed_range_says_how_to_fetch_it_again() {
        let e = Error::new(Reason::NcbiUnreachable, "gave up after 3 attempts");
        let range = PmidRange { lo: 1, hi: 4999 };
        let rerun = range_query("asthma[mh] AND child's", range);
        let notes = notes(&Event::RangeFailed {
            range,
            error: &e,
            rerun: &rerun,
        });
        assert_eq!(
            notes,
            vec![Note::Error(
                "PMID range 1:4999 failed: gave up after 3 attempts [ncbi_unreachable]; to fetch it later, run the same command with the query '(asthma[mh] AND child'\\''s) AND 1:4999[uid]'".into()
            )]
        );
        assert_eq!(range_query("", range), "1:4999[uid]");
    }

    #[test]
    fn csv_header_waits_for_the_first_rows() {
        let mut buf = Vec::new();
        let mut w = Writer::begin(&mut buf, SearchAllFormat::Csv, Detail::Ids);
        w.event(&Event::Progress {
            done: 0,
            planned: 1,
            pmids: 0,
            total: 2,
        })
        .unwrap();
        w.event(&Event::Pmids(&["2".into(), "1".into()])).unwrap();
        w.finish(false).unwrap();
        assert_eq!(String::from_utf8(buf).unwrap(), "pmid\n2\n1\n");
        let mut buf = Vec::new();
        Writer::begin(&mut buf, SearchAllFormat::Tsv, Detail::Ids)
            .finish(true)
            .unwrap();
        assert!(buf.is_empty(), "a failed run without rows writes nothing");
    }
}
