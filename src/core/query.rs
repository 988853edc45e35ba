//! Search query rules (search.md §1 and §2b): clean-up, the blank check
//! that ignores field tags and parentheses, and filters composed into the
//! ESearch `term`.

use serde::Serialize;

use super::fields::is_known_tag;
use super::text::{clean_markup, has_visible};
use crate::error::{Error, Reason, Result};

/// The longest query accepted, in characters: far beyond any real search
/// strategy, short of what would only burden NCBI.
pub const MAX_QUERY_CHARS: usize = 100_000;

/// Rejects a query longer than [`MAX_QUERY_CHARS`] (`invalid_argument`).
pub fn check_length(query: &str) -> Result<()> {
    let n = query.chars().count();
    if n > MAX_QUERY_CHARS {
        return Err(Error::new(
            Reason::InvalidArgument,
            format!("the query is {n} characters long; at most {MAX_QUERY_CHARS} are accepted"),
        ));
    }
    Ok(())
}

/// The query as sent: entities decoded and markup removed, nothing
/// re-escaped (`R&amp;D` → `R&D`, `<i>p53</i>` → `p53`).
pub fn normalize(query: &str) -> String {
    clean_markup(query)
}

/// True when a (normalized) query has no search term: nothing visible is
/// left after removing `(`, `)` and every bracket whose content is a known
/// field tag (any case, with or without `:modifier`) or holds nothing
/// visible. `benzo[a]pyrene`, `[18F]`, `AND` and `2020[pdat]` are not blank.
pub fn is_blank(query: &str) -> bool {
    let mut rest = String::with_capacity(query.len());
    let mut s = query;
    while let Some(open) = s.find('[') {
        rest.push_str(&s[..open]);
        match s[open..].find(']') {
            Some(len) => {
                let content = &s[open + 1..open + len];
                if !is_known_tag(content) && has_visible(content) {
                    rest.push_str(&s[open..=open + len]);
                }
                s = &s[open + len + 1..];
            }
            None => {
                rest.push_str(&s[open..]);
                s = "";
            }
        }
    }
    rest.push_str(s);
    !rest
        .chars()
        .filter(|c| !matches!(c, '(' | ')'))
        .any(super::text::is_visible)
}

super::choice::choice! {
    /// `humans` or `animals` (`--species`, MCP `species`).
    pub enum Species {
        /// `humans[MeSH Terms]`.
        Humans = "humans",
        /// `animals[MeSH Terms]`.
        Animals = "animals",
    }
}

/// Search filters (CLI flags / MCP fields). An empty string or list is no
/// filter.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Filters {
    /// Publication types, OR-ed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub publication_types: Vec<String>,
    /// Author name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// Journal title or abbreviation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub journal: Option<String>,
    /// MeSH terms, AND-ed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mesh_terms: Vec<String>,
    /// Language (`english`, `fre` …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Only records with an abstract.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub has_abstract: bool,
    /// Only free full text.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub free_full_text: bool,
    /// Humans or animals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub species: Option<Species>,
}

impl Filters {
    /// True when no filter is set.
    pub fn is_empty(&self) -> bool {
        self == &Filters::default()
    }

    /// Drops empty strings and empty list entries ("absent", not blank).
    pub fn without_empty(mut self) -> Filters {
        let some = |v: Option<String>| v.filter(|s| !s.is_empty());
        self.author = some(self.author);
        self.journal = some(self.journal);
        self.language = some(self.language);
        self.publication_types.retain(|s| !s.is_empty());
        self.mesh_terms.retain(|s| !s.is_empty());
        self
    }
}

/// A filter value made safe for a clause: markup removed, entities decoded,
/// quotes dropped, whitespace folded. Errors with `blank_filter` naming the
/// field when nothing visible is left after ignoring `()[]"`.
fn filter_value(field: &str, value: &str) -> Result<String> {
    let clean = super::text::fold_whitespace(&clean_markup(value).replace('"', " "));
    if !clean
        .chars()
        .filter(|c| !matches!(c, '(' | ')' | '[' | ']'))
        .any(super::text::is_visible)
    {
        return Err(Error::new(
            Reason::BlankFilter,
            format!("the {field} filter has no term"),
        ));
    }
    Ok(clean)
}

/// A bare value for an unquoted clause (`X[Author]`, `X[Language]`), quoted
/// when it holds what would change the query around it: parentheses,
/// brackets or a Boolean operator.
fn bare_or_quoted(v: String) -> String {
    let operator = v
        .split_whitespace()
        .any(|w| matches!(w, "AND" | "OR" | "NOT"));
    if operator || v.contains(['(', ')', '[', ']']) {
        format!("\"{v}\"")
    } else {
        v
    }
}

/// Composes the ESearch `term`: the (normalized) query followed by each
/// filter clause joined with ` AND ` (search.md §2b). With filters the query
/// is parenthesised so its own operators keep their meaning. Errors:
/// `blank_filter`; `blank_query` when both query and filters are empty.
pub fn compose(query: &str, filters: &Filters) -> Result<String> {
    let mut clauses: Vec<String> = Vec::new();
    if !filters.publication_types.is_empty() {
        let parts = filters
            .publication_types
            .iter()
            .map(|p| {
                filter_value("publication type", p).map(|v| format!("\"{v}\"[Publication Type]"))
            })
            .collect::<Result<Vec<_>>>()?;
        clauses.push(if parts.len() == 1 {
            parts.into_iter().next().unwrap_or_default()
        } else {
            format!("({})", parts.join(" OR "))
        });
    }
    if let Some(a) = &filters.author {
        clauses.push(format!(
            "{}[Author]",
            bare_or_quoted(filter_value("author", a)?)
        ));
    }
    if let Some(j) = &filters.journal {
        clauses.push(format!("\"{}\"[Journal]", filter_value("journal", j)?));
    }
    for m in &filters.mesh_terms {
        clauses.push(format!("\"{}\"[MeSH Terms]", filter_value("MeSH term", m)?));
    }
    if let Some(l) = &filters.language {
        clauses.push(format!(
            "{}[Language]",
            bare_or_quoted(filter_value("language", l)?)
        ));
    }
    if filters.has_abstract {
        clauses.push("hasabstract[text word]".into());
    }
    if filters.free_full_text {
        clauses.push("free full text[filter]".into());
    }
    match filters.species {
        Some(Species::Humans) => clauses.push("humans[MeSH Terms]".into()),
        Some(Species::Animals) => clauses.push("animals[MeSH Terms]".into()),
        None => {}
    }
    if query.is_empty() {
        if clauses.is_empty() {
            return Err(blank_query());
        }
        return Ok(clauses.join(" AND "));
    }
    if is_blank(query) {
        return Err(blank_query());
    }
    if clauses.is_empty() {
        Ok(query.to_string())
    } else {
        Ok(format!("({query}) AND {}", clauses.join(" AND ")))
    }
}

/// The `blank_query` error.
pub fn blank_query() -> Error {
    Error::new(
        Reason::BlankQuery,
        "the query has no search term (only blanks, field tags or parentheses); give a term or a filter",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_decodes_and_strips_without_re_escaping() {
        assert_eq!(normalize("R&amp;D"), "R&D");
        assert_eq!(normalize("R&D"), "R&D");
        assert_eq!(normalize("<i>p53</i> AND p<0.05"), "p53 AND p<0.05");
        assert_eq!(normalize("&lt;b&gt;x&lt;/b&gt;"), "x");
    }

    #[test]
    fn blank_examples_of_search_md() {
        for q in [
            "",
            "   ",
            "\u{200B}",
            "&nbsp;",
            "<b></b>",
            "()",
            "[pdat]",
            "[ti][tiab]",
            "[MH:NOEXP]",
            "( [] )",
            "[\u{200B}]",
            "[tiab:~3]",
        ] {
            assert!(is_blank(&normalize(q)), "{q:?} must be blank");
        }
        for q in [
            "benzo[a]pyrene",
            "[18F]",
            "AND",
            "2020[pdat]",
            "[a]",
            "x[mh]",
            "(cancer)",
            "[unclosed",
        ] {
            assert!(!is_blank(&normalize(q)), "{q:?} is searched as written");
        }
    }

    fn filters() -> Filters {
        Filters::default()
    }

    #[test]
    fn filters_compose_in_order() {
        let f = Filters {
            publication_types: vec!["Review".into(), "Meta-Analysis".into()],
            author: Some("Smith J".into()),
            journal: Some("Nature".into()),
            mesh_terms: vec!["Asthma".into(), "Child".into()],
            language: Some("english".into()),
            has_abstract: true,
            free_full_text: true,
            species: Some(Species::Humans),
        };
        assert_eq!(
            compose("asthma OR wheeze", &f).unwrap(),
            "(asthma OR wheeze) AND (\"Review\"[Publication Type] OR \"Meta-Analysis\"[Publication Type]) AND Smith J[Author] AND \"Nature\"[Journal] AND \"Asthma\"[MeSH Terms] AND \"Child\"[MeSH Terms] AND english[Language] AND hasabstract[text word] AND free full text[filter] AND humans[MeSH Terms]"
        );
        let one = Filters {
            publication_types: vec!["Review".into()],
            species: Some(Species::Animals),
            ..filters()
        };
        assert_eq!(
            compose("", &one).unwrap(),
            "\"Review\"[Publication Type] AND animals[MeSH Terms]"
        );
        assert_eq!(compose("cancer", &filters()).unwrap(), "cancer");
    }

    #[test]
    fn blank_filters_and_queries() {
        let e = compose(
            "x",
            &Filters {
                author: Some("  ".into()),
                ..filters()
            },
        )
        .unwrap_err();
        assert_eq!(e.reason, Reason::BlankFilter);
        assert!(e.message.contains("author"));
        let e = compose(
            "x",
            &Filters {
                mesh_terms: vec!["\"()\"".into()],
                ..filters()
            },
        )
        .unwrap_err();
        assert_eq!(e.reason, Reason::BlankFilter);
        assert!(e.message.contains("MeSH"));
        let e = compose(
            "x",
            &Filters {
                journal: Some("<i></i>".into()),
                ..filters()
            },
        )
        .unwrap_err();
        assert!(e.message.contains("journal"));
        assert_eq!(
            compose("", &filters()).unwrap_err().reason,
            Reason::BlankQuery
        );
        assert_eq!(
            compose(
                "[ti]",
                &Filters {
                    has_abstract: true,
                    ..filters()
                }
            )
            .unwrap_err()
            .reason,
            Reason::BlankQuery
        );
        // empty strings are absent, not blank
        let f = Filters {
            author: Some(String::new()),
            publication_types: vec![String::new()],
            ..filters()
        }
        .without_empty();
        assert!(f.is_empty());
    }

    #[test]
    fn unquoted_values_cannot_break_out_of_their_clause() {
        let f = Filters {
            author: Some("smith) OR (cancer".into()),
            language: Some("eng OR fre".into()),
            ..filters()
        };
        assert_eq!(
            compose("x", &f).unwrap(),
            "(x) AND \"smith) OR (cancer\"[Author] AND \"eng OR fre\"[Language]"
        );
    }

    #[test]
    fn filter_values_lose_quotes_and_markup() {
        let f = Filters {
            journal: Some("The \"Lancet\"".into()),
            author: Some("M&uuml;ller <b>K</b>".into()),
            ..filters()
        };
        assert_eq!(
            compose("x", &f).unwrap(),
            "(x) AND Müller K[Author] AND \"The Lancet\"[Journal]"
        );
    }
}
