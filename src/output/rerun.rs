//! Renders a rerun (docs/recorded.md "Re-running"): what changed per
//! search as text and tables, JSON for scripts, and the PRISMA-S search
//! summary in Markdown (`--report`).

use std::io::{self, Write};

use serde_json::Value;

use super::{Style, cell, write_json};
use crate::core::text::{count, printable};
use crate::ops::recorded::StoredRecord;
use crate::ops::rerun::{Changed, Rerun, RerunOutcome};

formats! {
    /// The formats of `rerun` (`markdown` is `--report`'s PRISMA-S summary).
    pub enum RerunFormat { Table, Json, Markdown }
}

impl super::CommandFormat for RerunFormat {
    const COMMAND: &'static str = "rerun";
    const TERMINAL: Self = RerunFormat::Table;
    const PIPE: Self = RerunFormat::Table;
    const NOTE: &'static str = "; markdown with --report";
}

/// Writes `o` to `out` in `format`.
pub fn render(
    out: &mut dyn Write,
    o: &RerunOutcome,
    format: RerunFormat,
    style: &Style,
) -> io::Result<()> {
    match format {
        RerunFormat::Json => write_json(out, o),
        RerunFormat::Table => {
            for s in &o.searches {
                table(out, s, style)?;
            }
            Ok(())
        }
        RerunFormat::Markdown => report(out, o),
    }
}

/// One search's changes: its lines, then a table of the PMIDs that moved.
fn table(out: &mut dyn Write, s: &Rerun, style: &Style) -> io::Result<()> {
    let verdict = if s.identical { "identical" } else { "changed" };
    writeln!(
        out,
        "{} {}",
        style.bold(&format!("Search on line {} ({verdict}):", s.id)),
        printable(&s.query)
    )?;
    writeln!(
        out,
        "  recorded {}; count then {}, now {}; {} added, {} removed",
        s.recorded_at,
        s.count_then,
        s.count_now,
        s.added.len(),
        s.removed.len()
    )?;
    if s.translation_changed {
        writeln!(
            out,
            "  PubMed's translation changed (the usual reason a count moves):\n    then: {}\n    now:  {}",
            printable(s.translation_then.as_deref().unwrap_or("(none)")),
            printable(s.translation_now.as_deref().unwrap_or("(none)"))
        )?;
    } else {
        writeln!(out, "  PubMed's translation is unchanged")?;
    }
    if s.added.is_empty() && s.removed.is_empty() {
        return writeln!(out);
    }
    let mut t = style.table();
    t.set_header(vec!["", "PMID", "title"]);
    let rows = |sign: &'static str, list: &'_ [Changed]| {
        list.iter()
            .map(move |c| (sign, c.pmid.clone(), c.title.clone().unwrap_or_default()))
            .collect::<Vec<_>>()
    };
    for (sign, pmid, title) in rows("+", &s.added).into_iter().chain(rows("-", &s.removed)) {
        t.add_row(vec![cell(sign), cell(&pmid), cell(&title)]);
    }
    super::write_table(out, t)?;
    writeln!(out)
}

/// The closing line: how many searches changed.
pub fn summary_line(o: &RerunOutcome) -> String {
    let n = o.searches.len();
    let changed = o.searches.iter().filter(|s| !s.identical).count();
    let noun = if n == 1 { "search" } else { "searches" };
    format!(
        "{n} {noun} run again: {changed} changed, {} identical",
        n - changed
    )
}

/// The PRISMA-S search summary (Rethlefsen et al. 2021, Syst Rev 10:39):
/// one section per search with the items a review reports of it.
fn report(out: &mut dyn Write, o: &RerunOutcome) -> io::Result<()> {
    let file = std::path::Path::new(&o.file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| o.file.clone());
    writeln!(out, "# Search summary (PRISMA-S)\n")?;
    writeln!(
        out,
        "The searches recorded in `{}`, run again on {} with {}. Items of PRISMA-S (Rethlefsen et al. 2021): database and platform (1), search strategy (8), limits and restrictions (9), updates (12), dates of searches (13), total records (15).",
        code_span_text(&file),
        when(&o.ran_at),
        o.tool
    )?;
    for (i, s) in o.searches.iter().enumerate() {
        writeln!(out)?;
        section(out, i + 1, s, &o.ran_at)?;
    }
    Ok(())
}

/// One search's section.
fn section(out: &mut dyn Write, n: usize, s: &Rerun, ran_at: &str) -> io::Result<()> {
    let r = &s.record;
    writeln!(out, "## Search {n} (record on line {})\n", s.id)?;
    writeln!(out, "- **Database:** {}", md(&r.database))?;
    writeln!(
        out,
        "- **Platform:** {}, <{}>, with {}",
        md(&r.platform),
        r.base_url,
        md(&r.tool)
    )?;
    writeln!(out, "- **Date searched:** {}", when(&r.recorded_at))?;
    writeln!(out, "- **Search strategy, as typed:**\n")?;
    block(out, &r.query)?;
    if r.effective_query != r.query {
        writeln!(out, "- **Search as sent to PubMed (with the filters):**\n")?;
        block(out, &r.effective_query)?;
    }
    writeln!(out, "- **PubMed's query translation:**\n")?;
    block(out, r.query_translation.as_deref().unwrap_or("(none)"))?;
    writeln!(out, "- **Limits and filters:** {}", limits(r))?;
    writeln!(out, "- **Dates:** {}", dates(r))?;
    for w in &r.warnings {
        if let Some(m) = w.get("message").and_then(Value::as_str) {
            writeln!(out, "- **Note:** {}", md(m))?;
        }
    }
    writeln!(out, "- **Records:** {}", records(r))?;
    let translation = if s.translation_changed {
        "PubMed's translation changed, now:"
    } else {
        "PubMed's translation unchanged."
    };
    writeln!(
        out,
        "- **Re-run:** {}: {}, {} added, {} removed; {translation}",
        when(ran_at),
        count(s.count_now, "record"),
        s.added.len(),
        s.removed.len()
    )?;
    if s.translation_changed {
        writeln!(out)?;
        block(out, s.translation_now.as_deref().unwrap_or("(none)"))?;
    }
    Ok(())
}

/// `2026-12-02T13:40:00Z` as `2026-12-02, 13:40:00 UTC`; anything else
/// as it is.
fn when(at: &str) -> String {
    match at.strip_suffix('Z').and_then(|t| t.split_once('T')) {
        Some((d, t)) => format!("{d}, {t} UTC"),
        None => md(at),
    }
}

/// `text` as an indented fenced block (inside a list item), the fence
/// longer than any run of backticks in it.
fn block(out: &mut dyn Write, text: &str) -> io::Result<()> {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let text = if text.is_empty() { "(empty)" } else { text };
    writeln!(out, "  {fence}text")?;
    for line in text.lines() {
        writeln!(out, "  {}", printable(line))?;
    }
    writeln!(out, "  {fence}\n")
}

/// Inline Markdown text: one line, the characters Markdown acts on
/// escaped.
fn md(text: &str) -> String {
    let mut s = String::new();
    for c in printable(text).chars() {
        if "\\`*_[]<>#|~".contains(c) {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// Text inside a single-backtick code span (backticks become `'`).
fn code_span_text(text: &str) -> String {
    printable(text).replace('`', "'")
}

/// The filters of `appliedFilters`, named as PubMed's advanced search
/// names them; `none` when none applied.
fn limits(r: &StoredRecord) -> String {
    let f = &r.applied_filters;
    let text = |k: &str| f.get(k).and_then(Value::as_str).map(md);
    let list = |k: &str, join: &str| {
        f.get(k).and_then(Value::as_array).map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(md)
                .collect::<Vec<_>>()
                .join(join)
        })
    };
    let flag = |k: &str| f.get(k).and_then(Value::as_bool) == Some(true);
    let mut parts = Vec::new();
    let mut add = |label: &str, v: Option<String>| {
        if let Some(v) = v.filter(|v| !v.is_empty()) {
            parts.push(format!("{label}: {v}"));
        }
    };
    add("search field", text("field"));
    add("publication type", list("publicationTypes", " OR "));
    add("author", text("author"));
    add("journal", text("journal"));
    add("MeSH terms", list("meshTerms", " AND "));
    add("language", text("language"));
    add("species", text("species"));
    if flag("hasAbstract") {
        parts.push("has abstract".into());
    }
    if flag("freeFullText") {
        parts.push("free full text".into());
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join("; ")
    }
}

/// The date bounds sent, with their kind, and `--reldate` as typed.
fn dates(r: &StoredRecord) -> String {
    let Some(d) = r.applied_filters.get("dateRange") else {
        return "none".into();
    };
    let s = |k: &str| d.get(k).and_then(Value::as_str).unwrap_or("?");
    let kind = match s("dateType") {
        "pdat" => "publication date",
        "edat" => "Entrez date",
        "mdat" => "modification date",
        other => other,
    };
    let mut text = format!(
        "{} to {} ({kind}, `[{}]`)",
        md(s("minDate")),
        md(s("maxDate")),
        code_span_text(s("dateType"))
    );
    if let Some(days) = r.requested_dates.as_ref().and_then(|d| d.rel_date) {
        text.push_str(&format!(", the last {}", count(days, "day")));
    }
    text
}

/// The count and what of the set the record holds.
fn records(r: &StoredRecord) -> String {
    let held = r
        .pmid_count
        .or(r.pmids.as_ref().map(|p| p.len() as u64))
        .unwrap_or(0);
    let what = if r.complete {
        format!("all {held} PMIDs recorded")
    } else {
        format!(
            "{held} PMIDs recorded (one page: from record {})",
            u64::from(r.retstart) + 1
        )
    };
    format!("{} ({what}, SHA-256 `{}`)", r.count, r.pmids_sha256)
}
