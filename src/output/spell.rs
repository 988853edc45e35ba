//! Renders a spell outcome: text (the corrected query alone), JSON, table.

use std::io::{self, Write};

use super::{Style, cell, write_json};
use crate::core::spell::Guard;
use crate::core::text::printable;
use crate::ops::spell::SpellOutcome;

formats! {
    /// The formats of `spell`.
    pub enum SpellFormat { Text, Json, Table }
}

impl super::CommandFormat for SpellFormat {
    const COMMAND: &'static str = "spell";
    const TERMINAL: Self = SpellFormat::Table;
    const PIPE: Self = SpellFormat::Text;
}

/// Writes `o` to `out` in `format` (text, json or table).
pub fn render(
    out: &mut dyn Write,
    o: &SpellOutcome,
    format: SpellFormat,
    style: &Style,
) -> io::Result<()> {
    match format {
        SpellFormat::Json => write_json(out, o),
        SpellFormat::Table => {
            writeln!(
                out,
                "{} {}",
                style.bold("Corrected query:"),
                printable(&o.corrected)
            )?;
            if o.corrections.is_empty() {
                return writeln!(out, "ESpell proposed no correction.");
            }
            let mut t = style.table();
            t.set_header(vec!["from", "to", "result"]);
            for c in &o.corrections {
                let result = match c.kept_because {
                    None => "applied".to_string(),
                    Some(g) => format!("kept ({})", g.as_str()),
                };
                t.add_row(vec![cell(&c.from), cell(&c.to), cell(&result)]);
            }
            super::write_table(out, t)
        }
        SpellFormat::Text => writeln!(out, "{}", printable(&o.corrected)),
    }
}

/// The one-line stderr note for text output: what changed, what was kept and why.
pub fn note(o: &SpellOutcome) -> String {
    if o.corrections.is_empty() {
        return "no spelling correction suggested".to_string();
    }
    let applied: Vec<String> = o
        .corrections
        .iter()
        .filter(|c| c.applied)
        .map(|c| format!("{} → {}", c.from, c.to))
        .collect();
    let kept: Vec<String> = o
        .corrections
        .iter()
        .filter_map(|c| match c.kept_because {
            Some(Guard::AlignmentLost) | None => None,
            Some(g) => Some(format!("{} (not {}: {})", c.from, c.to, g.as_str())),
        })
        .collect();
    let lost: Vec<&str> = o
        .corrections
        .iter()
        .filter(|c| c.kept_because == Some(Guard::AlignmentLost))
        .map(|c| c.to.as_str())
        .collect();
    let mut parts = Vec::new();
    if !applied.is_empty() {
        parts.push(format!("corrected {}", applied.join(", ")));
    }
    if !kept.is_empty() {
        parts.push(format!("kept {}", kept.join(", ")));
    }
    if !lost.is_empty() {
        let rest = o.unaligned.as_deref().unwrap_or_default().trim();
        parts.push(format!(
            "left {rest:?} as typed: ESpell's answer does not line up with the query there (it leaves out numbers, symbols, parentheses and quotes), so {} not applied",
            lost.join(", ")
        ));
    }
    parts.join("; ")
}
