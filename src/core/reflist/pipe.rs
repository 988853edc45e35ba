//! ECitMatch's own lines, `journal|year|volume|first_page|author|key|`, one
//! reference per line; blank and `#` lines are no reference.

use super::Reference;
use crate::core::citmatch;

/// The references of `text`, one per non-blank, non-`#` line, in order.
pub fn read(text: &str) -> Vec<Reference> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| Reference {
            raw: l.trim_end_matches('\r').to_string(),
            citation: citmatch::parse_line(l),
            doi: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_in_order_comments_left_out() {
        let r =
            read("# refs\nproc natl acad sci u s a|1991|88|3248|mann bj|Art1|\n\nnot a citation\n");
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].citation.as_ref().unwrap().volume, "88");
        assert_eq!(r[1].raw, "not a citation");
        assert_eq!(r[1].citation, None);
    }
}
