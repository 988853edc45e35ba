//! Text rules shared by every operation: what counts as a visible character
//! (docs/search.md "The query"), markup removal and entity decoding (the
//! same section), and NCBI value clean-up (docs/search.md "Summaries").

use icu_properties::props::{DefaultIgnorableCodePoint, GeneralCategory, WhiteSpace};
use icu_properties::{CodePointMapData, CodePointSetData};

/// True when `c` is visible: not White_Space, not a control (Cc), not a
/// format character (Cf) and not Default_Ignorable_Code_Point.
pub fn is_visible(c: char) -> bool {
    if CodePointSetData::new::<WhiteSpace>().contains(c)
        || CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
    {
        return false;
    }
    !matches!(
        CodePointMapData::<GeneralCategory>::new().get(c),
        GeneralCategory::Control | GeneralCategory::Format
    )
}

/// True when `c` is Unicode White_Space (U+0085 and U+00A0 included).
pub fn is_white_space(c: char) -> bool {
    // ASCII's White_Space is U+0009–U+000D and U+0020: answered without a
    // table lookup (most text NCBI sends is ASCII).
    if c.is_ascii() {
        return matches!(c, '\t'..='\r' | ' ');
    }
    CodePointSetData::new::<WhiteSpace>().contains(c)
}

/// True when `s` holds at least one visible character.
pub fn has_visible(s: &str) -> bool {
    s.chars().any(is_visible)
}

/// Removes markup tags: `<` followed by a letter, or by `/` and a letter, up
/// to the next `>`. `p<0.05` and `a < b` are not tags and stay.
pub fn strip_markup(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let mut chars = after.chars();
        let is_tag = match chars.next() {
            Some(c) if c.is_alphabetic() => true,
            Some('/') => chars.next().is_some_and(char::is_alphabetic),
            _ => false,
        };
        match (is_tag, after.find('>')) {
            (true, Some(end)) => rest = &after[end + 1..],
            _ => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Decodes HTML entities (named, decimal, hex); unknown ones stay as written.
pub fn decode_entities(s: &str) -> String {
    html_escape::decode_html_entities(s).into_owned()
}

/// The clean text of a user query or an NCBI title: entities decoded, then
/// markup removed. Nothing is re-escaped (`R&amp;D` → `R&D`).
pub fn clean_markup(s: &str) -> String {
    strip_markup(&decode_entities(&strip_markup(s)))
}

/// True for characters that must never leave the program raw: controls
/// (C0 with tab, CR, LF and ESC; DEL; C1), the Unicode line and paragraph
/// separators, and the bidirectional embeddings, overrides and isolates
/// (U+202A–U+202E, U+2066–U+2069), which reorder what a terminal shows.
pub fn is_unsafe_for_output(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// Text as it may be printed: every [`is_unsafe_for_output`] character
/// becomes a space, so text from a query or from NCBI can neither drive a
/// terminal (escape sequences, cursor moves, reordering) nor split a line
/// or a record. Borrowed when nothing changes.
pub fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(is_unsafe_for_output) {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(
        s.chars()
            .map(|c| if is_unsafe_for_output(c) { ' ' } else { c })
            .collect(),
    )
}

/// NCBI's own bytes (MEDLINE text, article XML) as they may go to a
/// terminal: every [`is_unsafe_for_output`] character but line feed and
/// tab becomes U+FFFD, so a record cannot drive the terminal while its
/// lines stay as NCBI wrote them. Borrowed when nothing changes.
pub fn terminal_safe(s: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_here = |c: char| c != '\n' && c != '\t' && is_unsafe_for_output(c);
    if !s.chars().any(unsafe_here) {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(
        s.chars()
            .map(|c| if unsafe_here(c) { '\u{FFFD}' } else { c })
            .collect(),
    )
}

/// `n` and a noun, plural unless `n` is 1: `1 attempt`, `7 attempts`.
pub fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `n` with thousands separators, as help and messages quote NCBI's limits:
/// `9,999`, `10,000`, `200`.
pub fn thousands(n: impl Into<u64>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Trims a value and folds every internal whitespace run (line breaks and
/// tabs included) to one space, as NCBI pads values (docs/search.md
/// "Summaries"). Control characters count as whitespace, so no value can
/// drive a terminal.
pub fn fold_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s
        .split(|c: char| is_white_space(c) || c.is_control())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_separated_by_commas() {
        for (n, want) in [
            (0u64, "0"),
            (200, "200"),
            (9_999, "9,999"),
            (10_000, "10,000"),
            (1_000_000, "1,000,000"),
            (u64::MAX, "18,446,744,073,709,551,615"),
        ] {
            assert_eq!(thousands(n), want);
        }
    }

    #[test]
    fn invisible_characters_named_in_spell_md() {
        for c in [
            ' ', '\t', '\n', '\u{85}', '\u{A0}', '\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}',
            '\u{AD}', '\u{FEFF}', '\u{180E}', '\u{3164}', '\u{115F}', '\u{1160}', '\u{FFA0}',
            '\u{34F}', '\u{FE0F}', '\u{17B4}', '\u{0}', '\u{7F}', '\u{3000}',
        ] {
            assert!(!is_visible(c), "U+{:04X} must be invisible", c as u32);
        }
        for c in ['a', 'Z', '0', '(', '[', 'é', 'α', '中', '-'] {
            assert!(is_visible(c), "{c} must be visible");
        }
    }

    #[test]
    fn ascii_white_space_matches_unicode() {
        for b in 0u8..128 {
            let c = char::from(b);
            assert_eq!(
                is_white_space(c),
                CodePointSetData::new::<WhiteSpace>().contains(c),
                "U+{b:04X}"
            );
        }
    }

    #[test]
    fn blank_strings() {
        assert!(!has_visible(""));
        assert!(!has_visible(
            " \u{85}\u{200B}\u{2060}\u{AD}\u{FEFF}\u{3164} "
        ));
        assert!(has_visible("  covid  "));
    }

    #[test]
    fn markup_is_removed_but_comparisons_stay() {
        assert_eq!(strip_markup("<i>In vivo</i> CO<sub>2</sub>"), "In vivo CO2");
        assert_eq!(strip_markup("p<0.05 and a < b"), "p<0.05 and a < b");
        assert_eq!(strip_markup("x </ y"), "x </ y");
        assert_eq!(strip_markup("<b></b>"), "");
        assert_eq!(strip_markup("unclosed <b"), "unclosed <b");
    }

    #[test]
    fn entities_are_decoded_without_re_escaping() {
        assert_eq!(clean_markup("R&amp;D"), "R&D");
        assert_eq!(
            clean_markup("&lt;i&gt;Nature&lt;/i&gt; &#946;-cell"),
            "Nature β-cell"
        );
        assert_eq!(clean_markup("&nbsp;"), "\u{A0}");
        assert_eq!(clean_markup("AT&T &bogus;"), "AT&T &bogus;");
    }

    #[test]
    fn printable_text_cannot_drive_a_terminal() {
        assert_eq!(
            printable("a\u{1b}[31mred\u{1b}[0m\tb\r\nc\u{7}\u{9b}2J"),
            "a [31mred [0m b  c  2J"
        );
        assert_eq!(
            printable("x\u{202E}gpj.exe\u{2066}y\u{2028}z"),
            "x gpj.exe y z"
        );
        assert!(matches!(
            printable("Müller K, β-cells"),
            std::borrow::Cow::Borrowed("Müller K, β-cells")
        ));
        // joiners and other format characters that shape text stay
        assert_eq!(printable("👩\u{200D}🔬"), "👩\u{200D}🔬");
    }

    #[test]
    fn whitespace_is_folded() {
        assert_eq!(fold_whitespace("\n\t\t\tAuthor\n\t\t"), "Author");
        assert_eq!(fold_whitespace("a \n b\tc"), "a b c");
        assert_eq!(fold_whitespace("   "), "");
        assert_eq!(fold_whitespace("a\u{1b}[31mb\u{2028}c"), "a [31mb c");
    }
}
