//! CSV (RFC 4180, via the csv crate) and TSV rows, for every command that
//! prints records: one record per line, every cell [`printable`] (no tab,
//! line break or escape sequence inside a field), and every cell a
//! spreadsheet could run as a formula prefixed with `'` ([`cell`], OWASP
//! "CSV Injection"; docs/errors.md "CSV and TSV cells") unless raw cells
//! were asked for ([`set_raw_cells`], `PUBMED_RAW_CELLS=1`).

use std::borrow::Cow;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use super::Format;
use crate::core::text::printable;

/// Cells written as NCBI sent them (`PUBMED_RAW_CELLS`): set once by the
/// CLI before any output.
static RAW_CELLS: AtomicBool = AtomicBool::new(false);

/// Writes cells raw (`true`) or spreadsheet-safe (`false`, the default)
/// for the rest of the process.
pub fn set_raw_cells(raw: bool) {
    RAW_CELLS.store(raw, Ordering::Relaxed);
}

/// The characters that make a spreadsheet read a cell as a formula when
/// they start it (OWASP "CSV Injection"): `=`, `+`, `-`, `@`, tab, CR.
const FORMULA_START: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// `text` as a CSV/TSV cell: [`printable`], and, unless `raw`, prefixed
/// with `'` when it starts with `=`, `+`, `-`, `@`, tab or CR, so
/// `=HYPERLINK("http://x")` is written `'=HYPERLINK("http://x")` and shown
/// as text. Checked on the text as written, after [`printable`].
pub fn cell(text: &str, raw: bool) -> Cow<'_, str> {
    let shown = printable(text);
    if raw || !shown.starts_with(FORMULA_START) {
        return shown;
    }
    Cow::Owned(format!("'{shown}"))
}

/// Writes a header row and then `rows`.
pub fn write_delimited(
    out: &mut dyn Write,
    format: Format,
    header: &[&str],
    rows: &[Vec<String>],
) -> io::Result<()> {
    write_header(out, format, header)?;
    write_rows(out, format, rows)
}

/// Writes the header row alone (streaming writers write it once, first).
pub fn write_header(out: &mut dyn Write, format: Format, header: &[&str]) -> io::Result<()> {
    let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    write_rows(out, format, std::slice::from_ref(&header))
}

/// Writes CSV (`format` is `Csv`) or TSV rows, without a header.
pub fn write_rows(out: &mut dyn Write, format: Format, rows: &[Vec<String>]) -> io::Result<()> {
    let raw = RAW_CELLS.load(Ordering::Relaxed);
    if format == Format::Csv {
        let mut w = csv::Writer::from_writer(out);
        for r in rows {
            w.write_record(r.iter().map(|c| cell(c, raw).into_owned()))
                .map_err(csv_io)?;
        }
        return w.flush();
    }
    for r in rows {
        let cells: Vec<_> = r.iter().map(|c| cell(c, raw)).collect();
        writeln!(out, "{}", cells.join("\t"))?;
    }
    Ok(())
}

/// The I/O error inside a CSV error, so a closed pipe stays a
/// `BrokenPipe` (exit 0) rather than a generic failure.
fn csv_io(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("{other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 25 item 16: cells from NCBI starting `=`, `+`, `-`, `@` were
    /// written raw (spreadsheet formula injection).
    #[test]
    fn formula_cells_are_prefixed_unless_raw() {
        for (raw, safe) in [
            (
                "=HYPERLINK(\"http://x\",\"y\")",
                "'=HYPERLINK(\"http://x\",\"y\")",
            ),
            ("+1-2", "'+1-2"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            // a tab or CR is first made a space by `printable`
            ("\t=1", " =1"),
            ("a=1", "a=1"),
            ("10.1038/ng.590", "10.1038/ng.590"),
            ("", ""),
        ] {
            assert_eq!(cell(raw, false), safe, "{raw:?}");
            assert_eq!(cell(raw, true), printable(raw), "{raw:?}");
        }
        let rows = vec![vec!["1".to_string(), "=1+1".to_string()]];
        let mut csv = Vec::new();
        write_rows(&mut csv, Format::Csv, &rows).unwrap();
        assert_eq!(String::from_utf8(csv).unwrap(), "1,'=1+1\n");
        let mut tsv = Vec::new();
        write_rows(&mut tsv, Format::Tsv, &rows).unwrap();
        assert_eq!(String::from_utf8(tsv).unwrap(), "1\t'=1+1\n");
    }

    #[test]
    fn a_cell_never_splits_a_record_or_escapes() {
        let rows = vec![vec!["1".to_string(), "a\tb\nc\u{1b}[2J\"q\"".to_string()]];
        let mut tsv = Vec::new();
        write_delimited(&mut tsv, Format::Tsv, &["pmid", "title"], &rows).unwrap();
        assert_eq!(
            String::from_utf8(tsv).unwrap(),
            "pmid\ttitle\n1\ta b c [2J\"q\"\n"
        );
        let mut csv = Vec::new();
        write_delimited(&mut csv, Format::Csv, &["pmid", "title"], &rows).unwrap();
        assert_eq!(
            String::from_utf8(csv).unwrap(),
            "pmid,title\n1,\"a b c [2J\"\"q\"\"\"\n"
        );
    }
}
