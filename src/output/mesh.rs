//! Renders a MeSH lookup (docs/mesh.md): a block per record on a
//! terminal, one JSON document, one JSON object per record, TSV with one
//! row per record (lists joined with `; `), or the UIs alone.

use crate::core::text::printable;
use comfy_table::{Cell, ColumnConstraint, Width};
use std::io::{self, Write};
use unicode_width::UnicodeWidthStr;

use super::delimited::{write_header, write_rows};
use super::{Style, cell, write_json, write_json_line, write_table};
use crate::ops::mesh::{Heading, MeshEntry, MeshOutcome};

formats! {
    /// The formats of `mesh`.
    pub enum MeshFormat { Table, Json, Ndjson, Tsv, Ids }
}

impl super::CommandFormat for MeshFormat {
    const COMMAND: &'static str = "mesh";
    const TERMINAL: Self = MeshFormat::Table;
    const PIPE: Self = MeshFormat::Tsv;
}

/// The TSV columns, in order.
pub const COLUMNS: [&str; 11] = [
    "ui",
    "name",
    "kind",
    "tree_numbers",
    "entry_terms",
    "qualifiers",
    "year_introduced",
    "mapped_to",
    "search",
    "scope_note",
    "previous_indexing",
];

fn heading_text(h: &Heading) -> String {
    match (&h.tree_number, h.name.is_empty()) {
        (Some(t), false) => format!("{} {} ({})", t, h.name, h.ui),
        (Some(t), true) => format!("{} ({})", t, h.ui),
        (None, false) => format!("{} ({})", h.name, h.ui),
        (None, true) => h.ui.clone(),
    }
}

/// The TSV row of one record.
pub fn row(e: &MeshEntry) -> Vec<String> {
    let r = &e.record;
    vec![
        r.ui.clone(),
        r.name.clone(),
        e.kind.as_str().to_string(),
        r.tree_numbers.join("; "),
        r.entry_terms.join("; "),
        r.allowable_qualifiers.join("; "),
        r.year_introduced.clone(),
        e.mapped_to
            .iter()
            .map(heading_text)
            .collect::<Vec<_>>()
            .join("; "),
        e.search.mesh.clone(),
        r.scope_note.clone(),
        r.previous_indexing.join("; "),
    ]
}

/// Writes `o` to `out` in `format`.
pub fn render(
    out: &mut dyn Write,
    o: &MeshOutcome,
    format: MeshFormat,
    style: &Style,
) -> io::Result<()> {
    match format {
        MeshFormat::Json => write_json(out, o),
        MeshFormat::Ndjson => {
            for e in &o.records {
                write_json_line(out, e)?;
            }
            Ok(())
        }
        MeshFormat::Tsv => {
            let f = super::Format::Tsv;
            write_header(out, f, &COLUMNS)?;
            let rows: Vec<Vec<String>> = o.records.iter().map(row).collect();
            write_rows(out, f, &rows)
        }
        MeshFormat::Ids => {
            for e in &o.records {
                writeln!(out, "{}", e.record.ui)?;
            }
            Ok(())
        }
        MeshFormat::Table => {
            for (i, e) in o.records.iter().enumerate() {
                if i > 0 {
                    writeln!(out)?;
                }
                block(out, e, style)?;
            }
            Ok(())
        }
    }
}

fn block(out: &mut dyn Write, e: &MeshEntry, style: &Style) -> io::Result<()> {
    let r = &e.record;
    writeln!(
        out,
        "{} {} ({})",
        style.bold(&printable(&r.name)),
        r.ui,
        e.kind.as_str()
    )?;
    let mut t = style.table();
    let mut search = vec![e.search.mesh.clone()];
    search.extend(e.search.major.clone());
    search.extend(e.search.no_explode.clone());
    // One clause a line (not through `cell`, which folds line breaks), and
    // the column never narrower than the widest: a clause is pasted whole,
    // so it never wraps inside its quotes.
    let search: Vec<String> = search.iter().map(|c| printable(c).into_owned()).collect();
    let widest = search.iter().map(|c| c.width()).max().unwrap_or(1);
    t.add_row(vec![cell("search"), Cell::new(search.join("\n"))]);
    let mut add = |k: &str, v: String| {
        if !v.is_empty() {
            t.add_row(vec![cell(k), cell(&v)]);
        }
    };
    add("scope note", r.scope_note.clone());
    add("entry terms", r.entry_terms.join("; "));
    add("tree numbers", r.tree_numbers.join(", "));
    add("qualifiers", r.allowable_qualifiers.join(", "));
    add("introduced", r.year_introduced.clone());
    add(
        "maps to",
        e.mapped_to
            .iter()
            .map(heading_text)
            .collect::<Vec<_>>()
            .join("; "),
    );
    add("previously", r.previous_indexing.join("; "));
    add("see also", r.see_related.join("; "));
    for place in e.tree.iter().flatten() {
        let parent = place
            .parent
            .as_ref()
            .map(heading_text)
            .unwrap_or_else(|| "(top of the tree)".into());
        add(&format!("{} up", place.tree_number), parent);
        add(
            &format!("{} down", place.tree_number),
            place
                .children
                .iter()
                .map(heading_text)
                .collect::<Vec<_>>()
                .join("; "),
        );
    }
    if let Some(c) = t.column_mut(1) {
        c.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(
            u16::try_from(widest).unwrap_or(u16::MAX),
        )));
    }
    write_table(out, t)
}
