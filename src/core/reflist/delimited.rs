//! CSV or TSV with a header row naming the columns: `journal`, `year`,
//! `volume`, `first_page` (or `page`/`pages`), `author` (or
//! `first_author`), `key` (or `id`); any case, other columns ignored.

use super::{Reference, ecitmatch_author, first_page};
use crate::core::citmatch::Citation;

/// Reads `text` with `delimiter` (`b','` or `b'\t'`).
///
/// Errors: a header without a `journal` and a `year` column.
pub fn read(text: &str, delimiter: u8) -> Result<Vec<Reference>, String> {
    let mut rdr = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(text.as_bytes());
    let header: Vec<String> = rdr
        .headers()
        .map_err(|e| format!("the header row does not read: {e}"))?
        .iter()
        .map(|h| h.trim().to_lowercase().replace([' ', '-'], "_"))
        .collect();
    let col = |names: &[&str]| header.iter().position(|h| names.contains(&h.as_str()));
    let (Some(journal), Some(year)) = (col(&["journal", "journal_title"]), col(&["year"])) else {
        return Err(format!(
            "the header row needs journal and year columns (found: {})",
            header.join(", ")
        ));
    };
    let volume = col(&["volume"]);
    let page = col(&["first_page", "page", "pages"]);
    let author = col(&["author", "first_author", "authors"]);
    let key = col(&["key", "id"]);
    let doi = col(&["doi"]);
    let mut out = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        let raw = format!("row {}", i + 2);
        let Ok(rec) = rec else {
            out.push(Reference {
                raw,
                citation: None,
                doi: None,
            });
            continue;
        };
        let get = |c: Option<usize>| c.and_then(|c| rec.get(c)).unwrap_or_default().trim();
        let first_author = get(author).split(';').next().unwrap_or_default();
        out.push(Reference {
            raw: rec
                .iter()
                .collect::<Vec<_>>()
                .join(if delimiter == b'\t' { "\t" } else { "," }),
            citation: Some(Citation {
                journal: get(Some(journal)).to_string(),
                year: get(Some(year)).to_string(),
                volume: get(volume).to_string(),
                first_page: first_page(get(page)),
                author: ecitmatch_author(first_author),
                key: get(key).to_string(),
            }),
            doi: Some(get(doi).to_string()).filter(|d| !d.is_empty()),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_columns_in_any_order() {
        let r = read(
            "Key,Year,Journal,Volume,Pages,Author\nArt1,1991,proc natl acad sci u s a,88,3248-52,\"Mann, B J\"\n",
            b',',
        )
        .unwrap();
        let c = r[0].citation.as_ref().unwrap();
        assert_eq!(c.journal, "proc natl acad sci u s a");
        assert_eq!(c.first_page, "3248");
        assert_eq!(c.author, "mann bj");
        assert_eq!(c.key, "Art1");
        assert!(read("a\tb\n1\t2\n", b'\t').is_err());
    }
}
