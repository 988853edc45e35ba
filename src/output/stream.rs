//! What the streaming batch writers (`convert`, `fetch`, `related`) share:
//! a JSON document whose records come one per line, a table printed in
//! blocks, the two ways a run ends (finished, or stopped early) and the
//! stderr summary line. Each writer keeps its own records and columns.

use std::collections::BTreeMap;
use std::fmt::{self, Display};
use std::io::{self, Write};

use super::Format;
use crate::core::text::count;

/// Ends a finished run, then flushes: JSON closes the record array and
/// the document with `json_totals` (`"submitted": 3, …`). A table writer
/// prints its last block before (its table is empty in other formats).
pub fn finish(
    out: &mut dyn Write,
    format: Format,
    json_totals: fmt::Arguments<'_>,
) -> io::Result<()> {
    if format == Format::Json {
        writeln!(out, "\n],\n{json_totals}}}")?;
    }
    out.flush()
}

/// The JSON totals' cache part (docs/cache.md "Saying so"): empty when no
/// record came from the cache, else `, "cache": {"records": N,
/// "oldest_fetched": "2026-12-01T09:12:44Z"}`.
pub fn cache_totals<C>(t: &crate::ops::batch::Totals<C>) -> String {
    let Some(oldest) = t.cache_oldest.filter(|_| t.from_cache > 0) else {
        return String::new();
    };
    format!(
        ", \"cache\": {{\"records\": {}, \"oldest_fetched\": \"{}\"}}",
        t.from_cache,
        crate::cache::utc(oldest)
    )
}

/// Ends an output that stopped early (bad input, a failure that ends the
/// run, Ctrl-C): the JSON record line ended, so every line written is
/// whole (a table writer prints its block so far before), then a flush.
/// The JSON (and `fetch`'s XML) document stays unclosed: the run did not
/// finish.
pub fn abandon(out: &mut dyn Write, format: Format) -> io::Result<()> {
    if format == Format::Json {
        writeln!(out)?;
    }
    out.flush()
}

/// Table rows printed at a time, so a huge input never builds one huge
/// table.
pub const TABLE_BLOCK: usize = 100;

/// The records of the table block being built (a table writer's held
/// rows), printed once they make [`TABLE_BLOCK`] rows and at the end.
#[derive(Debug)]
pub struct TableBlock<T> {
    records: Vec<T>,
    rows: usize,
}

impl<T> Default for TableBlock<T> {
    fn default() -> Self {
        TableBlock {
            records: Vec::new(),
            rows: 0,
        }
    }
}

impl<T> TableBlock<T> {
    /// Holds `record`, which makes `rows` table rows; true when the block
    /// is full and is to be printed.
    pub fn push(&mut self, record: T, rows: usize) -> bool {
        self.records.push(record);
        self.rows += rows;
        self.rows >= TABLE_BLOCK
    }

    /// The records held, emptying the block; `None` when it holds none
    /// (nothing to print).
    pub fn take(&mut self) -> Option<Vec<T>> {
        self.rows = 0;
        Some(std::mem::take(&mut self.records)).filter(|r| !r.is_empty())
    }
}

/// Writes the `n`-th record (1-based) of a JSON record array on a line of
/// its own, after the comma that ends the one before.
pub fn json_record<T: serde::Serialize>(out: &mut dyn Write, n: u64, record: &T) -> io::Result<()> {
    if n > 1 {
        write!(out, ",")?;
    }
    write!(out, "\n  ")?;
    // Made whole, then one write (see `output::write_json_line`).
    out.write_all(&serde_json::to_vec(record)?)
}

/// A batch command's stderr summary: `head` (its counts, e.g. `3 IDs: 2
/// converted, 1 failed`), the failures by reason (` (not_in_pmc 1)`), and
/// the requests sent (`; 1 request`).
pub fn summary<K: Display>(head: String, by_reason: &BTreeMap<K, u64>, requests: u64) -> String {
    let mut s = head;
    if !by_reason.is_empty() {
        let parts: Vec<String> = by_reason.iter().map(|(k, v)| format!("{k} {v}")).collect();
        s.push_str(&format!(" ({})", parts.join(", ")));
    }
    s.push_str(&format!("; {}", count(requests, "request")));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_record_array_reads_back_whole_or_line_by_line() {
        let mut out = Vec::new();
        out.extend_from_slice(b"{\"records\": [");
        for (n, pmid) in [(1, "31452104"), (2, "35320088")] {
            json_record(&mut out, n, &serde_json::json!({"pmid": pmid})).unwrap();
        }
        finish(&mut out, Format::Json, format_args!("\"submitted\": 2")).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "{\"records\": [\n  {\"pmid\":\"31452104\"},\n  {\"pmid\":\"35320088\"}\n],\n\"submitted\": 2}\n"
        );
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["records"][1]["pmid"], "35320088");
        // stopped early: the last record line is ended, the document open
        let mut out = b"{\"records\": [".to_vec();
        json_record(&mut out, 1, &serde_json::json!({"pmid": "31452104"})).unwrap();
        abandon(&mut out, Format::Json).unwrap();
        assert_eq!(out, b"{\"records\": [\n  {\"pmid\":\"31452104\"}\n");
        let mut out = Vec::new();
        abandon(&mut out, Format::Csv).unwrap();
        finish(&mut out, Format::Ndjson, format_args!("x")).unwrap();
        assert!(out.is_empty());
    }

    #[test]
    fn the_summary_counts_failures_by_reason_then_requests() {
        let mut reasons = BTreeMap::new();
        assert_eq!(
            summary("1 ID: 1 converted, 0 failed".into(), &reasons, 1),
            "1 ID: 1 converted, 0 failed; 1 request"
        );
        reasons.insert("not_in_pmc", 1);
        reasons.insert("malformed_id", 2);
        assert_eq!(
            summary("4 IDs: 1 converted, 3 failed".into(), &reasons, 2),
            "4 IDs: 1 converted, 3 failed (malformed_id 2, not_in_pmc 1); 2 requests"
        );
    }

    #[test]
    fn a_table_block_is_full_at_100_rows_and_empty_after_take() {
        let mut block = TableBlock::default();
        assert_eq!(block.take(), None);
        for n in 1..100 {
            assert!(!block.push(n, 1), "{n}");
        }
        assert!(block.push(100, 1));
        assert_eq!(block.take().map(|r| r.len()), Some(100));
        assert_eq!(block.take(), None);
        // a record of many rows (related: its links) fills it sooner
        assert!(!block.push(1, 60));
        assert!(block.push(2, 40));
        assert_eq!(block.take(), Some(vec![1, 2]));
    }
}
