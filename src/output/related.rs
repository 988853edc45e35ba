//! Renders `related` records as they stream out (docs/related.md): the
//! linked PMIDs (`ids`, each once), one row per (source PMID, kind, linked
//! PMID, rank[, score]) in TSV/CSV/NDJSON, one JSON document with totals,
//! or tables in blocks. Summaries (`--detail brief|full`) use `search`'s
//! columns and fields.

use std::collections::HashSet;
use std::io::{self, Write};

use serde_json::{Value, json};

use super::delimited::{write_header, write_rows};
use super::search::{first_author, header, marked_title, row};
use super::stream::{self, TableBlock, json_record};
use super::table::{Col, write_columns};
use super::{Style, cell, write_json_line};
use crate::core::text::count;
use crate::ops::batch::Output;
use crate::ops::related::{LinkKind, Linked, RelatedRecord, Totals};
use crate::ops::search::{Detail, Summary};

formats! {
    /// The formats of `related`.
    pub enum RelatedFormat { Table, Json, Ndjson, Csv, Tsv, Ids }
}

impl super::CommandFormat for RelatedFormat {
    const COMMAND: &'static str = "related";
    const TERMINAL: Self = RelatedFormat::Table;
    const PIPE: Self = RelatedFormat::Ids;
}

/// A summary as JSON in `detail` (the brief view for `Brief`).
fn summary_json(s: &Summary, detail: Detail) -> Value {
    if detail == Detail::Brief {
        json!(s.brief())
    } else {
        json!(s)
    }
}

fn linked_json(l: &Linked, detail: Detail) -> Value {
    let mut v = json!({"pmid": l.pmid, "rank": l.rank});
    if let Some(s) = l.score {
        v["score"] = s.into();
    }
    if let Some(s) = &l.summary {
        v["summary"] = summary_json(s, detail);
    }
    if let Some(m) = &l.missing {
        v["missing"] = m.clone().into();
    }
    v
}

/// One record as JSON: `{requested, pmid, kind, total, linked: [{pmid,
/// rank, score?, summary?, missing?}], error?}`.
pub fn record_json(r: &RelatedRecord, detail: Detail) -> Value {
    let mut v = json!({
        "requested": r.requested,
        "pmid": r.pmid,
        "kind": r.kind,
        "total": r.total(),
        "linked": r.linked().iter().map(|l| linked_json(l, detail)).collect::<Vec<_>>(),
    });
    if let Err(e) = &r.outcome {
        v["error"] = json!({"reason": e.reason, "message": e.message});
    }
    v
}

/// The column names of TSV/CSV for `detail`.
pub fn columns(detail: Detail) -> Vec<&'static str> {
    let mut h = vec!["source_pmid", "kind", "linked_pmid", "rank", "score"];
    if detail != Detail::Ids {
        let s = header(detail);
        h.extend(&s[1..s.len() - 1]);
    }
    h.extend(["error", "message"]);
    h
}

fn source(r: &RelatedRecord) -> &str {
    r.pmid.as_deref().unwrap_or(&r.requested)
}

/// The TSV/CSV rows of a record: one per linked PMID; one with empty link
/// cells for an input without links or with an error.
pub fn rows(r: &RelatedRecord, detail: Detail) -> Vec<Vec<String>> {
    let n = columns(detail).len();
    let blank = |r: &RelatedRecord| {
        let mut cells = vec![String::new(); n];
        cells[0] = source(r).to_string();
        cells[1] = r.kind.as_str().to_string();
        cells
    };
    if r.linked().is_empty() {
        let mut cells = blank(r);
        if let Err(e) = &r.outcome {
            cells[n - 2] = e.reason.as_str().to_string();
            cells[n - 1] = e.message.clone();
        }
        return vec![cells];
    }
    r.linked()
        .iter()
        .map(|l| {
            let mut cells = blank(r);
            cells[2] = l.pmid.clone();
            cells[3] = l.rank.to_string();
            cells[4] = l.score.map(|s| s.to_string()).unwrap_or_default();
            if detail != Detail::Ids {
                if let Some(s) = &l.summary {
                    let sr = row(s, detail);
                    for (i, c) in sr[1..sr.len() - 1].iter().enumerate() {
                        cells[5 + i] = c.clone();
                    }
                } else if let Some(m) = &l.missing {
                    cells[n - 2] = "no_summary".into();
                    cells[n - 1] = m.clone();
                }
            }
            cells
        })
        .collect()
}

/// The NDJSON lines of a record: one object per linked PMID; one with
/// `linkedPmid: null` for an input without links; one with `error`.
pub fn ndjson_lines(r: &RelatedRecord, detail: Detail) -> Vec<Value> {
    if let Err(e) = &r.outcome {
        return vec![json!({
            "sourcePmid": source(r),
            "requested": r.requested,
            "kind": r.kind,
            "error": {"reason": e.reason, "message": e.message},
        })];
    }
    if r.linked().is_empty() {
        return vec![json!({
            "sourcePmid": source(r),
            "kind": r.kind,
            "linkedPmid": null,
            "rank": null,
            "total": r.total(),
        })];
    }
    r.linked()
        .iter()
        .map(|l| {
            let mut v = linked_json(l, detail);
            let m = v.as_object_mut().expect("an object");
            let pmid = m.remove("pmid").unwrap_or(Value::Null);
            let mut out = json!({"sourcePmid": source(r), "kind": r.kind, "linkedPmid": pmid});
            out.as_object_mut().expect("an object").extend(m.clone());
            out
        })
        .collect()
}

/// The PMIDs a run has printed, in bounded memory: one bit per PMID below
/// [`PmidSet::DENSE`] (at most 16 MB, 5 MB for today's PMIDs near 41
/// million), whatever the number of inputs; a larger or unusual PMID (none
/// exists today) goes to a small exact set (docs/related.md "Output").
#[derive(Default)]
pub struct PmidSet {
    bits: Vec<u64>,
    other: HashSet<String>,
}

impl PmidSet {
    /// PMIDs below this are kept as bits.
    pub const DENSE: u64 = 1 << 27;

    /// Adds `pmid`; true when it was not there yet.
    pub fn insert(&mut self, pmid: &str) -> bool {
        match pmid.parse::<u64>() {
            Ok(n) if n < Self::DENSE && pmid.len() == n.to_string().len() => {
                let (word, bit) = ((n / 64) as usize, n % 64);
                if word >= self.bits.len() {
                    // grow by doubling, at most to DENSE bits
                    let want = (word + 1)
                        .next_power_of_two()
                        .min((Self::DENSE / 64) as usize);
                    self.bits.resize(want.max(word + 1), 0);
                }
                let had = self.bits[word] & (1 << bit) != 0;
                self.bits[word] |= 1 << bit;
                !had
            }
            _ => self.other.insert(pmid.to_string()),
        }
    }
}

/// A streaming writer for one run.
pub struct Writer<'a> {
    out: &'a mut dyn Write,
    format: RelatedFormat,
    detail: Detail,
    style: Style,
    records: u64,
    /// `ids`: PMIDs already printed (each once per run).
    printed: PmidSet,
    table: TableBlock<RelatedRecord>,
}

impl<'a> Writer<'a> {
    /// Starts the output (CSV/TSV header, the JSON opening).
    pub fn begin(
        out: &'a mut dyn Write,
        format: RelatedFormat,
        kind: LinkKind,
        detail: Detail,
        style: Style,
    ) -> io::Result<Writer<'a>> {
        let w = Writer {
            out,
            format,
            detail,
            style,
            records: 0,
            printed: PmidSet::default(),
            table: TableBlock::default(),
        };
        match format {
            RelatedFormat::Csv | RelatedFormat::Tsv => {
                write_header(w.out, format.into(), &columns(detail))?
            }
            RelatedFormat::Json => {
                write!(w.out, "{{\"kind\": \"{}\", \"links\": [", kind.as_str())?
            }
            RelatedFormat::Table | RelatedFormat::Ndjson | RelatedFormat::Ids => {}
        }
        Ok(w)
    }

    /// Writes one output item.
    pub fn item(&mut self, item: Output<'_, RelatedRecord>) -> io::Result<()> {
        let r = match item {
            Output::Flush => return self.out.flush(),
            Output::Skipped | Output::Progress(_) => return Ok(()),
            Output::Record(r) => r,
        };
        self.records += 1;
        match self.format {
            RelatedFormat::Ids => {
                for l in r.linked() {
                    if self.printed.insert(&l.pmid) {
                        writeln!(self.out, "{}", l.pmid)?;
                    }
                }
            }
            RelatedFormat::Ndjson => {
                for v in ndjson_lines(r, self.detail) {
                    write_json_line(self.out, &v)?;
                }
            }
            RelatedFormat::Json => {
                json_record(self.out, self.records, &record_json(r, self.detail))?
            }
            RelatedFormat::Csv | RelatedFormat::Tsv => {
                write_rows(self.out, self.format.into(), &rows(r, self.detail))?
            }
            RelatedFormat::Table => {
                // A record without links still takes a row.
                if self.table.push(r.clone(), r.linked().len().max(1)) {
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
        t.set_header(match self.detail {
            Detail::Ids => vec!["Source", "#", "PMID", "Score"],
            Detail::Brief => vec!["Source", "#", "PMID", "Date", "Title", "Types"],
            Detail::Full => vec![
                "Source",
                "#",
                "PMID",
                "Date",
                "First author",
                "Title",
                "Journal",
            ],
        });
        let cols: &[Col] = match self.detail {
            Detail::Ids => &[Col::Id, Col::Id, Col::Id, Col::Text],
            Detail::Brief => &[Col::Id, Col::Id, Col::Id, Col::Id, Col::Wide, Col::Text],
            Detail::Full => &[
                Col::Id,
                Col::Id,
                Col::Id,
                Col::Id,
                Col::Text,
                Col::Wide,
                Col::Text,
            ],
        };
        let width = cols.len();
        let note = match self.detail {
            Detail::Ids => 3,
            Detail::Brief => 4,
            Detail::Full => 5,
        };
        for r in records {
            let src = source(&r).to_string();
            if r.linked().is_empty() {
                let what = match &r.outcome {
                    Err(e) => format!("error: {} [{}]", e.message, e.reason),
                    Ok(_) => format!("({})", crate::ops::related::no_links_note(&r)),
                };
                // the note goes where the title (or the score) goes
                let mut cells = vec![src];
                cells.resize(width, String::new());
                cells[note] = what;
                t.add_row(cells.iter().map(|c| cell(c)).collect::<Vec<_>>());
                continue;
            }
            for l in r.linked() {
                let mut cells = vec![src.clone(), l.rank.to_string(), l.pmid.clone()];
                match (self.detail, &l.summary) {
                    (Detail::Ids, _) => {
                        cells.push(l.score.map(|s| s.to_string()).unwrap_or_default())
                    }
                    (_, None) => cells.push(format!(
                        "(no summary: {})",
                        l.missing.as_deref().unwrap_or("")
                    )),
                    (detail, Some(s)) => {
                        let date = s
                            .pub_date
                            .clone()
                            .unwrap_or_else(|| s.pub_date_text.clone());
                        cells.push(date);
                        if detail == Detail::Full {
                            cells.push(first_author(s));
                            cells.push(marked_title(s));
                            cells.push(s.journal.clone());
                        } else {
                            cells.push(marked_title(s));
                            cells.push(s.pub_types.join("; "));
                        }
                    }
                }
                cells.resize(width, String::new());
                t.add_row(cells.iter().map(|c| cell(c)).collect::<Vec<_>>());
            }
        }
        write_columns(self.out, t, cols)
    }

    /// Ends the output (the JSON totals, the last table block) and flushes.
    pub fn finish(&mut self, totals: &Totals) -> io::Result<()> {
        self.flush_table()?;
        stream::finish(
            self.out,
            self.format.into(),
            format_args!(
                "\"submitted\": {}, \"withLinks\": {}, \"withoutLinks\": {}, \"failed\": {}, \"linked\": {}{}",
                totals.submitted,
                totals.with_links(),
                totals.counts.without_links,
                totals.failed,
                totals.counts.linked,
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

/// The stderr summary line: counts, failures by reason, requests.
pub fn summary(t: &Totals) -> String {
    let head = format!(
        "{}: {} with links, {} without, {} failed; {} listed",
        count(t.submitted, "input"),
        t.with_links(),
        t.counts.without_links,
        t.failed,
        count(t.counts.linked, "linked PMID")
    );
    stream::summary(head, &t.by_reason, t.requests)
}

#[cfg(test)]
mod pmid_set_tests {
    use super::PmidSet;

    #[test]
    fn each_pmid_is_new_once() {
        let mut s = PmidSet::default();
        assert!(s.insert("41000000"));
        assert!(!s.insert("41000000"));
        assert!(s.insert("1"));
        assert!(s.insert("63"));
        assert!(s.insert("64"));
        assert!(!s.insert("64"));
        // beyond the bits, and non-canonical forms, are exact too
        assert!(s.insert("200000000"));
        assert!(!s.insert("200000000"));
        assert!(s.insert("0064"));
        assert!(!s.insert("0064"));
        assert!(s.bits.len() * 8 <= (PmidSet::DENSE / 8) as usize);
    }
}
