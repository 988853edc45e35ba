//! Writers of `fulltext` (docs/fulltext.md "Formats"): Markdown and plain
//! text for reading, JSON/NDJSON with the section tree, and the JATS as
//! received. Nothing is dropped silently: a table Markdown cannot hold is
//! named in place (`[Table 2: see -f json]`).

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::core::jats::{Article, Block, Section, select_sections};
use crate::core::text::terminal_safe;
use crate::ops::fulltext::{Fulltext, FulltextRecord};

formats! {
    /// The formats of `fulltext`.
    pub enum FulltextFormat { Markdown, Text, Json, Ndjson, Jats }
}

impl super::CommandFormat for FulltextFormat {
    const COMMAND: &'static str = "fulltext";
    const TERMINAL: Self = FulltextFormat::Markdown;
    const PIPE: Self = FulltextFormat::Markdown;
}

fn section_json(a: &Article, s: &Section) -> Value {
    let mut figures = Vec::new();
    let mut tables = Vec::new();
    let mut supplementary = Vec::new();
    for b in &s.blocks {
        match b {
            Block::Figure(i) => figures.push(a.figures[*i].id.clone()),
            Block::Table(i) => tables.push(a.tables[*i].id.clone()),
            Block::Supplement(i) => supplementary.push(a.supplements[*i].id.clone()),
            Block::Paragraph(_) => {}
        }
    }
    json!({
        "title": s.title,
        "type": s.kind,
        "paragraphs": s.paragraphs().collect::<Vec<_>>(),
        "figures": figures,
        "tables": tables,
        "supplementary": supplementary,
        "sections": s.sections.iter().map(|c| section_json(a, c)).collect::<Vec<_>>(),
    })
}

/// The JSON object of one record: the article's fields, or
/// `{"requested", "pmcid", "error": {reason, message}}`.
pub fn record_json(r: &FulltextRecord, wanted: &[String]) -> Value {
    match &r.outcome {
        Err(e) => json!({"requested": r.requested, "pmcid": r.pmcid, "error": e}),
        Ok(Fulltext {
            article: a, source, ..
        }) => json!({
            "requested": r.requested,
            "pmcid": a.pmcid.clone().or_else(|| r.pmcid.clone()),
            "pmid": a.pmid,
            "doi": a.doi,
            "manuscript": a.manuscript,
            "source": source,
            "license": a.license,
            "articleType": a.article_type,
            "language": a.language,
            "journal": a.journal,
            "title": a.title,
            "authors": a.authors,
            "abstract": a.abstract_sections.iter().map(|s| section_json(a, s)).collect::<Vec<_>>(),
            "sections": select_sections(&a.sections, wanted).into_iter().map(|s| section_json(a, s)).collect::<Vec<_>>(),
            "figures": a.figures,
            "tables": a.tables,
            "supplementary": a.supplements,
            "references": a.references,
        }),
    }
}

/// Markdown (`markdown = true`) or plain text of one article.
pub fn article_text(f: &Fulltext, wanted: &[String], markdown: bool) -> String {
    let a = &f.article;
    let mut out = String::new();
    let h = |level: usize, t: &str| heading(level, t, markdown);
    out.push_str(&h(1, &a.title));
    if !a.authors.is_empty() {
        out.push_str(&format!("{}\n\n", a.authors.join(", ")));
    }
    let mut ids = vec![format!("source: {}", f.source.as_str())];
    if let Some(p) = &a.pmcid {
        ids.push(p.clone());
    }
    if let Some(p) = &a.pmid {
        ids.push(format!("PMID {p}"));
    }
    if let Some(d) = &a.doi {
        ids.push(format!("DOI {d}"));
    }
    if let Some(m) = &a.manuscript {
        ids.push(match &m.id {
            Some(id) => format!("author manuscript {id}"),
            None => "author manuscript".to_string(),
        });
    }
    out.push_str(&format!("{}\n\n", ids.join(" · ")));
    if let Some(l) = &a.license {
        let name = l.url.clone().or_else(|| l.kind.clone()).unwrap_or_default();
        let lead = if name.is_empty() {
            String::new()
        } else {
            format!("{name} — ")
        };
        out.push_str(&format!("License: {lead}{}\n\n", l.text));
    } else {
        out.push_str("License: none stated in the XML\n\n");
    }
    if !a.abstract_sections.is_empty() {
        out.push_str(&h(2, "Abstract"));
        for s in &a.abstract_sections {
            section_text(&mut out, a, s, 3, markdown);
        }
    }
    for s in select_sections(&a.sections, wanted) {
        section_text(&mut out, a, s, 2, markdown);
    }
    if wanted.is_empty() && !a.references.is_empty() {
        out.push_str(&h(2, "References"));
        for (i, r) in a.references.iter().enumerate() {
            out.push_str(&format!("{}. {}\n", i + 1, r.text));
        }
        out.push('\n');
    }
    out
}

/// A heading at `level` (1 the title): Markdown `#`s, or in text the
/// title underlined by level, `=` (1), `-` (2), `~` (3), `^` (4 and
/// deeper), as long as the title (at most 72 characters).
fn heading(level: usize, t: &str, md: bool) -> String {
    if md {
        format!("{} {t}\n\n", "#".repeat(level.min(6)))
    } else {
        let mark = match level {
            0 | 1 => "=",
            2 => "-",
            3 => "~",
            _ => "^",
        };
        format!("{t}\n{}\n\n", mark.repeat(t.chars().count().min(72)))
    }
}

fn section_text(out: &mut String, a: &Article, s: &Section, level: usize, md: bool) {
    if !s.title.is_empty() {
        out.push_str(&heading(level, &s.title, md));
    }
    let bold = |t: &str| {
        if md {
            format!("**{t}**")
        } else {
            t.to_string()
        }
    };
    for b in &s.blocks {
        match b {
            Block::Paragraph(p) => out.push_str(&format!("{p}\n\n")),
            Block::Figure(i) => {
                let f = &a.figures[*i];
                out.push_str(&format!(
                    "{} {}\n\n",
                    bold(&format!("{}.", label(&f.label, "Figure"))),
                    f.caption
                ));
            }
            Block::Table(i) => {
                let t = &a.tables[*i];
                let name = label(&t.label, "Table");
                out.push_str(&format!("{} {}\n\n", bold(&format!("{name}.")), t.caption));
                if md && t.is_simple() {
                    for (n, row) in t.rows.iter().enumerate() {
                        let cells: Vec<String> =
                            row.iter().map(|c| c.text.replace('|', "\\|")).collect();
                        out.push_str(&format!("| {} |\n", cells.join(" | ")));
                        if n == 0 {
                            out.push_str(&format!("|{}\n", " --- |".repeat(row.len())));
                        }
                    }
                    out.push('\n');
                } else if !t.rows.is_empty() {
                    out.push_str(&format!("[{name}: see -f json]\n\n"));
                }
                if !t.foot.is_empty() {
                    out.push_str(&format!("{}\n\n", t.foot));
                }
            }
            Block::Supplement(i) => {
                let x = &a.supplements[*i];
                let href = x
                    .href
                    .as_deref()
                    .map_or_else(String::new, |h| format!(" ({h})"));
                out.push_str(&format!(
                    "{} {}{href}\n\n",
                    bold(&format!("{}.", label(&x.label, "Supplementary material"))),
                    x.caption
                ));
            }
        }
    }
    for c in &s.sections {
        section_text(out, a, c, level + 1, md);
    }
}

fn label(l: &str, fallback: &str) -> String {
    if l.is_empty() {
        fallback.to_string()
    } else {
        l.to_string()
    }
}

/// Writes one record in `format`. Error records are JSON objects in the
/// JSON formats and nothing in the others (the adapter notes them on
/// stderr).
pub fn write_record(
    w: &mut dyn Write,
    format: FulltextFormat,
    r: &FulltextRecord,
    wanted: &[String],
    first: bool,
) -> io::Result<()> {
    match format {
        FulltextFormat::Ndjson => writeln!(w, "{}", record_json(r, wanted)),
        FulltextFormat::Json => {
            let sep = if first { "" } else { ",\n" };
            write!(
                w,
                "{sep}{}",
                serde_json::to_string_pretty(&record_json(r, wanted))?
            )
        }
        FulltextFormat::Markdown | FulltextFormat::Text => match &r.outcome {
            Ok(f) => {
                if !first {
                    writeln!(
                        w,
                        "{}",
                        if format == FulltextFormat::Markdown {
                            "---\n"
                        } else {
                            "\n"
                        }
                    )?;
                }
                write!(
                    w,
                    "{}",
                    terminal_safe(&article_text(f, wanted, format == FulltextFormat::Markdown))
                )
            }
            Err(_) => Ok(()),
        },
        FulltextFormat::Jats => match &r.outcome {
            Ok(Fulltext { raw: Some(raw), .. }) => writeln!(w, "{raw}"),
            _ => Ok(()),
        },
    }
}
