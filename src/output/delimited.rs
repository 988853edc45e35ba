//! CSV (RFC 4180, via the csv crate) and TSV rows, for every command that
//! prints records: one record per line, every cell [`printable`] (no tab,
//! line break or escape sequence inside a field).

use std::io::{self, Write};

use super::Format;
use crate::core::text::printable;

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
    if format == Format::Csv {
        let mut w = csv::Writer::from_writer(out);
        for r in rows {
            w.write_record(r.iter().map(|c| printable(c).into_owned()))
                .map_err(csv_io)?;
        }
        return w.flush();
    }
    for r in rows {
        let cells: Vec<_> = r.iter().map(|c| printable(c)).collect();
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
