//! Renders search outcomes: table, JSON, NDJSON, CSV, TSV, IDs. Every
//! record is one line in NDJSON, CSV and TSV; text that came from NCBI is
//! [`printable`] in every format but JSON (which escapes it).

use std::collections::HashMap;
use std::io::{self, Write};

use super::delimited::write_delimited;
use super::table::{Col, write_columns};
use super::{Style, cell, write_json, write_json_line};
use crate::core::text::{count, printable};
use crate::error::Reason;
use crate::ops::search::{Detail, Missing, SearchOutcome, Summary};
use comfy_table::{Cell, Color};

formats! {
    /// The formats of `search` (one page).
    pub enum SearchFormat { Table, Json, Ndjson, Csv, Tsv, Ids }
}

impl super::CommandFormat for SearchFormat {
    const COMMAND: &'static str = "search";
    const TERMINAL: Self = SearchFormat::Table;
    const PIPE: Self = SearchFormat::Ids;
}

/// Writes the outcome's data to `out`. Count-only searches (`retmax` 0)
/// print the count alone, except in JSON.
pub fn render(
    out: &mut dyn Write,
    o: &SearchOutcome,
    format: SearchFormat,
    detail: Detail,
    style: &Style,
) -> io::Result<()> {
    if o.retmax == 0 && format != SearchFormat::Json {
        return writeln!(out, "{}", o.count);
    }
    match format {
        SearchFormat::Json => {
            if detail == Detail::Brief {
                let mut v = serde_json::to_value(o)?;
                v["summaries"] = serde_json::to_value(
                    o.summaries.iter().map(Summary::brief).collect::<Vec<_>>(),
                )?;
                write_json(out, &v)
            } else {
                write_json(out, o)
            }
        }
        SearchFormat::Ids => write_ids(out, &o.pmids),
        SearchFormat::Ndjson => {
            if detail == Detail::Ids {
                for p in &o.pmids {
                    write_json_line(out, &serde_json::json!({ "pmid": p }))?;
                }
                Ok(())
            } else {
                for item in in_order(o) {
                    match item {
                        Item::Summary(s) => write_ndjson(out, std::slice::from_ref(s), detail)?,
                        Item::Missing(m) => write_json_line(out, &missing_json(m))?,
                    }
                }
                Ok(())
            }
        }
        SearchFormat::Csv | SearchFormat::Tsv => {
            let rows: Vec<Vec<String>> = if detail == Detail::Ids {
                o.pmids.iter().map(|p| vec![p.clone()]).collect()
            } else {
                in_order(o)
                    .into_iter()
                    .map(|item| match item {
                        Item::Summary(s) => row(s, detail),
                        Item::Missing(m) => missing_row(m, detail),
                    })
                    .collect()
            };
            write_delimited(out, format.into(), &header(detail), &rows)
        }
        SearchFormat::Table => write_table(out, o, detail, style),
    }
}

/// One PMID per line.
pub fn write_ids(out: &mut dyn Write, pmids: &[String]) -> io::Result<()> {
    for p in pmids {
        writeln!(out, "{}", printable(p))?;
    }
    Ok(())
}

/// One JSON record per line, in the given detail.
pub fn write_ndjson(out: &mut dyn Write, summaries: &[Summary], detail: Detail) -> io::Result<()> {
    for s in summaries {
        if detail == Detail::Brief {
            write_json_line(out, &s.brief())?;
        } else {
            write_json_line(out, s)?;
        }
    }
    Ok(())
}

/// A record of the page: its summary, or why it has none.
pub enum Item<'a> {
    /// An ESummary record.
    Summary(&'a Summary),
    /// A PMID ESummary answered with an error.
    Missing(&'a Missing),
}

/// The page's summaries and missing PMIDs in ESearch order, so no PMID
/// drops out of a format that shows records.
pub fn in_order(o: &SearchOutcome) -> Vec<Item<'_>> {
    let summaries: HashMap<&str, &Summary> =
        o.summaries.iter().map(|s| (s.pmid.as_str(), s)).collect();
    let missing: HashMap<&str, &Missing> = o
        .missing
        .iter()
        .flatten()
        .map(|m| (m.pmid.as_str(), m))
        .collect();
    o.pmids
        .iter()
        .filter_map(|p| {
            summaries
                .get(p.as_str())
                .map(|s| Item::Summary(s))
                .or_else(|| missing.get(p.as_str()).map(|m| Item::Missing(m)))
        })
        .collect()
}

/// The stderr warning for a PMID without a summary.
pub fn missing_note(m: &Missing) -> String {
    format!("no summary for PMID {}: {}", m.pmid, m.message)
}

/// The NDJSON line for a PMID without a summary.
pub fn missing_json(m: &Missing) -> serde_json::Value {
    serde_json::json!({"pmid": m.pmid, "error": {"reason": Reason::NcbiResourceNotFound, "message": m.message}})
}

/// The CSV/TSV row for a PMID without a summary: the PMID and the `error`
/// column.
pub fn missing_row(m: &Missing, detail: Detail) -> Vec<String> {
    let n = header(detail).len();
    let mut r = vec![String::new(); n];
    r[0] = m.pmid.clone();
    r[n - 1] = format!("no summary: {}", m.message);
    r
}

/// Column names for CSV/TSV; `error` is set only for a PMID without a summary.
pub fn header(detail: Detail) -> Vec<&'static str> {
    match detail {
        Detail::Ids => vec!["pmid"],
        Detail::Brief => vec![
            "pmid",
            "pub_date",
            "title",
            "pub_types",
            "retracted",
            "error",
        ],
        Detail::Full => vec![
            "pmid",
            "pub_date",
            "pub_date_text",
            "authors",
            "title",
            "journal",
            "full_journal_name",
            "doi",
            "pmcid",
            "pub_types",
            "retracted",
            "retraction_notice",
            "pubmed_url",
            "error",
        ],
    }
}

/// One CSV/TSV row; lists are joined with `; `.
pub fn row(s: &Summary, detail: Detail) -> Vec<String> {
    let opt = |o: &Option<String>| o.clone().unwrap_or_default();
    match detail {
        Detail::Ids => vec![s.pmid.clone()],
        Detail::Brief => vec![
            s.pmid.clone(),
            opt(&s.pub_date),
            s.title.clone(),
            s.pub_types.join("; "),
            s.retracted.to_string(),
            String::new(),
        ],
        Detail::Full => vec![
            s.pmid.clone(),
            opt(&s.pub_date),
            s.pub_date_text.clone(),
            s.authors.join("; "),
            s.title.clone(),
            s.journal.clone(),
            s.full_journal_name.clone(),
            opt(&s.doi),
            opt(&s.pmcid),
            s.pub_types.join("; "),
            s.retracted.to_string(),
            s.retraction_notice.to_string(),
            s.pubmed_url.clone(),
            String::new(),
        ],
    }
}

/// The first author, with "et al." when there are more.
pub fn first_author(s: &Summary) -> String {
    match s.authors.len() {
        0 => String::new(),
        1 => s.authors[0].clone(),
        _ => format!("{} et al.", s.authors[0]),
    }
}

/// The title, marked RETRACTED or RETRACTION NOTICE when it is one.
pub fn marked_title(s: &Summary) -> String {
    if s.retracted {
        format!("RETRACTED: {}", s.title)
    } else if s.retraction_notice {
        format!("RETRACTION NOTICE: {}", s.title)
    } else {
        s.title.clone()
    }
}

fn write_table(
    out: &mut dyn Write,
    o: &SearchOutcome,
    detail: Detail,
    style: &Style,
) -> io::Result<()> {
    let mut t = style.table();
    match detail {
        Detail::Ids => {
            t.set_header(vec!["PMID"]);
            for p in &o.pmids {
                t.add_row(vec![cell(p)]);
            }
        }
        Detail::Brief | Detail::Full => {
            if detail == Detail::Full {
                t.set_header(vec!["PMID", "Date", "First author", "Title", "Journal"]);
            } else {
                t.set_header(vec!["PMID", "Date", "Title", "Types"]);
            }
            for item in in_order(o) {
                let s = match item {
                    Item::Summary(s) => s,
                    Item::Missing(m) => {
                        let note = format!("(no summary: {})", m.message);
                        let mut row = vec![cell(&m.pmid), Cell::new(""), cell(&note)];
                        row.insert(if detail == Detail::Full { 2 } else { 3 }, Cell::new(""));
                        if detail == Detail::Full {
                            row.push(Cell::new(""));
                        }
                        t.add_row(row);
                        continue;
                    }
                };
                let mut title = cell(&marked_title(s));
                if style.color && (s.retracted || s.retraction_notice) {
                    title = title.fg(Color::Red);
                }
                let date = s
                    .pub_date
                    .clone()
                    .unwrap_or_else(|| s.pub_date_text.clone());
                if detail == Detail::Full {
                    t.add_row(vec![
                        cell(&s.pmid),
                        cell(&date),
                        cell(&first_author(s)),
                        title,
                        cell(&s.journal),
                    ]);
                } else {
                    t.add_row(vec![
                        cell(&s.pmid),
                        cell(&date),
                        title,
                        cell(&s.pub_types.join("; ")),
                    ]);
                }
            }
        }
    }
    if t.row_count() == 0 {
        return Ok(());
    }
    let cols: &[Col] = match detail {
        Detail::Ids => &[Col::Id],
        Detail::Brief => &[Col::Id, Col::Id, Col::Wide, Col::Text],
        Detail::Full => &[Col::Id, Col::Id, Col::Text, Col::Wide, Col::Text],
    };
    write_columns(out, t, cols)
}

/// The warning when a page written to a pipe holds fewer PMIDs than the
/// query has hits (docs/search.md "In a pipe"), e.g. "warning: wrote 20 of
/// 249 PMIDs; pass --all for every PMID, or --retmax N for a larger page";
/// `None` for a count (`retmax` 0) or a page holding every hit.
pub fn short_pipe_warning(o: &SearchOutcome) -> Option<String> {
    let shown = o.pmids.len() as u64;
    (o.retmax != 0 && shown < o.count).then(|| {
        format!(
            "warning: wrote {shown} of {}; pass --all for every PMID, or --retmax N for a larger page",
            count(o.count, "PMID")
        )
    })
}

/// The stderr header for people: count and paging.
pub fn header_line(o: &SearchOutcome) -> String {
    let shown = o.pmids.len();
    if o.retmax == 0 {
        return count(o.count, "hit");
    }
    if shown == 0 {
        return format!("{}; none on this page", count(o.count, "hit"));
    }
    format!(
        "{}; records {}–{}",
        count(o.count, "hit"),
        o.retstart as usize + 1,
        o.retstart as usize + shown
    )
}
