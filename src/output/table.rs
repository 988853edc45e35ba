//! Column widths of record tables (README "Shell completions and man
//! pages", the paragraph on output): identifiers
//! never wrap, a text column without a value in any row is dropped, the
//! short text columns get what their words need, and the wide column (the
//! title) gets the rest of the terminal, wrapped at word boundaries.

use std::io::{self, Write};

use comfy_table::{ColumnConstraint, ContentArrangement, Table, Width};
use unicode_width::UnicodeWidthStr;

/// What a column holds, which decides its width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Col {
    /// An identifier or a date (PMID, PMCID, DOI, rank): as wide as its
    /// widest value, never wrapped.
    Id,
    /// Short text (first author, journal, types, a note): dropped when no
    /// row has a value; else its natural width, or when the table does not
    /// fit, an equal share of half the free width (more for a longer word,
    /// while the short columns together stay within that half).
    Text,
    /// The long text (the title): the width the others leave.
    Wide,
}

/// Widths in columns of one table's content.
struct Measure {
    /// The widest cell, the header included (at least 1).
    natural: usize,
    /// The widest word of any cell, the header included.
    word: usize,
    /// No row has a value.
    empty: bool,
}

fn measure(t: &Table, n: usize) -> Vec<Measure> {
    let mut m: Vec<Measure> = (0..n)
        .map(|_| Measure {
            natural: 1,
            word: 1,
            empty: true,
        })
        .collect();
    let mut see = |i: usize, text: &str, body: bool| {
        let Some(c) = m.get_mut(i) else { return };
        for line in text.lines() {
            c.natural = c.natural.max(line.width());
            for w in line.split_whitespace() {
                c.word = c.word.max(w.width());
            }
        }
        if body && !text.trim().is_empty() {
            c.empty = false;
        }
    };
    if let Some(h) = t.header() {
        for (i, c) in h.cell_iter().enumerate() {
            see(i, &c.content(), false);
        }
    }
    for r in t.row_iter() {
        for (i, c) in r.cell_iter().enumerate() {
            see(i, &c.content(), true);
        }
    }
    m
}

/// The content width of each column for a table `width` columns wide
/// (borders and padding take 3 per shown column and 1); `None` for a
/// dropped column. At or under its natural width a table keeps it.
fn widths(cols: &[Col], m: &[Measure], width: usize) -> Vec<Option<usize>> {
    let shown: Vec<bool> = cols
        .iter()
        .zip(m)
        .map(|(c, m)| *c == Col::Id || !m.empty)
        .collect();
    let visible = shown.iter().filter(|s| **s).count();
    let mut out: Vec<Option<usize>> = m
        .iter()
        .zip(&shown)
        .map(|(m, s)| s.then_some(m.natural))
        .collect();
    let overhead = 3 * visible + 1;
    let natural: usize = out.iter().flatten().sum::<usize>() + overhead;
    if natural <= width {
        return out;
    }
    let ids: usize = (0..cols.len())
        .filter(|&i| shown[i] && cols[i] == Col::Id)
        .map(|i| m[i].natural)
        .sum();
    let free = width.saturating_sub(overhead + ids);
    let texts: Vec<usize> = (0..cols.len())
        .filter(|&i| shown[i] && cols[i] == Col::Text)
        .collect();
    let wide = (0..cols.len()).find(|&i| shown[i] && cols[i] == Col::Wide);
    let share = match wide {
        Some(_) => free / 2 / texts.len().max(1),
        None => free / texts.len().max(1),
    };
    for &i in &texts {
        out[i] = Some(m[i].natural.min(m[i].word.max(share)));
    }
    // Long words may not take the title's half: the widest give way first.
    let budget = free.saturating_sub(free / 2 * usize::from(wide.is_some()));
    while texts.iter().filter_map(|&i| out[i]).sum::<usize>() > budget.max(share) {
        let Some(&i) = texts.iter().max_by_key(|&&i| out[i]) else {
            break;
        };
        match out[i] {
            Some(w) if w > share => out[i] = Some(w - 1),
            _ => break,
        }
    }
    let used: usize = texts.iter().filter_map(|&i| out[i]).sum();
    let mut left = free.saturating_sub(used);
    if let Some(w) = wide {
        let title = left.min(m[w].natural).max(1);
        out[w] = Some(title);
        left = left.saturating_sub(title);
    }
    // What the title does not need goes back to the short columns.
    for &i in &texts {
        let (now, need) = (out[i].unwrap_or(0), m[i].natural);
        let more = need.saturating_sub(now).min(left);
        out[i] = Some(now + more);
        left -= more;
    }
    out
}

/// Writes a record table laid out by `cols` (one per column): at its
/// natural width when that fits `Style::width` (or when no width is
/// known), else exactly that wide, see [`Col`].
pub fn write_columns(out: &mut dyn Write, mut t: Table, cols: &[Col]) -> io::Result<()> {
    let m = measure(&t, cols.len());
    let width = t.width().map(usize::from).unwrap_or(usize::MAX);
    let w = widths(cols, &m, width);
    for (i, w) in w.iter().enumerate() {
        if let Some(col) = t.column_mut(i) {
            col.set_constraint(match w {
                None => ColumnConstraint::Hidden,
                // the constraint counts the padding (one space each side)
                Some(w) => ColumnConstraint::Absolute(Width::Fixed(
                    u16::try_from(w + 2).unwrap_or(u16::MAX),
                )),
            });
        }
    }
    t.set_content_arrangement(ContentArrangement::Dynamic);
    writeln!(out, "{t}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(natural: usize, word: usize, empty: bool) -> Measure {
        Measure {
            natural,
            word,
            empty,
        }
    }

    #[test]
    fn a_table_that_fits_keeps_its_natural_widths_but_drops_empty_text() {
        let cols = [Col::Id, Col::Wide, Col::Text];
        let got = widths(&cols, &[m(8, 8, false), m(20, 9, false), m(4, 4, true)], 80);
        assert_eq!(got, [Some(8), Some(20), None]);
    }

    #[test]
    fn long_words_in_short_columns_leave_the_title_half() {
        // 80 - 19 - 15 = 46 free, 23 for the three short columns: the
        // 22-character word gives way first, then the 11-character one
        let cols = [Col::Id, Col::Id, Col::Text, Col::Wide, Col::Text, Col::Text];
        let ms = [
            m(8, 8, false),
            m(7, 7, false),
            m(12, 6, false),
            m(140, 12, false),
            m(12, 11, false),
            m(120, 22, false),
        ];
        let got = widths(&cols, &ms, 80);
        assert_eq!(got, [Some(8), Some(7), Some(7), Some(23), Some(8), Some(8)]);
    }

    #[test]
    fn identifiers_keep_their_width_and_the_title_takes_the_rest() {
        // PMID 8, date 7, author 18 (longest word 8), title 140, journal
        // 17 (word 7): 5 columns, 16 of borders; 80 - 16 - 15 = 49 free;
        // the short columns share half: 49 / 2 / 2 = 12 each
        let cols = [Col::Id, Col::Id, Col::Text, Col::Wide, Col::Text];
        let ms = [
            m(8, 8, false),
            m(7, 7, false),
            m(18, 8, false),
            m(140, 12, false),
            m(17, 7, false),
        ];
        let got = widths(&cols, &ms, 80);
        assert_eq!(got, [Some(8), Some(7), Some(12), Some(25), Some(12)]);
        assert_eq!(got.iter().flatten().sum::<usize>() + 16, 80);
    }

    #[test]
    fn a_short_title_gives_its_spare_width_back() {
        let cols = [Col::Id, Col::Wide, Col::Text];
        // 3 columns: 10 of borders, 80 - 10 - 8 = 62 free; types 31 at
        // most at first, the title needs 10, so the types get 52
        let ms = [m(8, 8, false), m(10, 5, false), m(70, 10, false)];
        assert_eq!(widths(&cols, &ms, 80), [Some(8), Some(10), Some(52)]);
    }
}
