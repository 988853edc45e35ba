//! Search query rules: clean-up, the blank check that ignores field tags
//! and parentheses, filters composed into the ESearch `term`, unbalanced
//! syntax, and reading PubMed's query translation for concept mappings.

use serde::Serialize;

use super::fields::is_known_tag;
use super::text::{clean_markup, has_visible};
use crate::error::{Error, Field, Reason, Result, Words};

/// The longest query accepted, in characters: far beyond any real search
/// strategy, short of what would only burden NCBI.
pub const MAX_QUERY_CHARS: usize = 100_000;

/// Rejects a query longer than [`MAX_QUERY_CHARS`], or holding a control
/// character ([`check_controls`]) (`invalid_argument`).
pub fn check_length(query: &str) -> Result<()> {
    check_controls(query)?;
    let n = query.chars().count();
    if n > MAX_QUERY_CHARS {
        return Err(Error::new(
            Reason::InvalidArgument,
            format!("the query is {n} characters long; at most {MAX_QUERY_CHARS} are accepted"),
        )
        .with_field(Field::Query));
    }
    Ok(())
}

/// True for a character no query means: a C0 control other than tab,
/// line feed and carriage return (blanks to PubMed), DEL, or a C1 control
/// other than NEL (U+0085, a Unicode blank).
/// XML 1.0 cannot carry most of them, so NCBI's echo of such a query never
/// matches what was sent (docs/search.md "The query").
pub fn is_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{85}')
}

/// Rejects a query holding a control character ([`is_control`]) before any
/// request, naming the first one (code point and character position):
/// rejected, not stripped, so what is searched is what was written.
pub fn check_controls(query: &str) -> Result<()> {
    match query.chars().enumerate().find(|(_, c)| is_control(*c)) {
        Some((at, c)) => Err(Error::new(
            Reason::InvalidArgument,
            format!(
                "the query holds the control character U+{:04X} at character {}; remove it (tab and line breaks are allowed)",
                c as u32,
                at + 1
            ),
        )
        .with_field(Field::Query)),
        None => Ok(()),
    }
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

/// Describes how the query's parentheses or double quotes fail to pair, or
/// `None` when they pair. Parentheses inside a quoted phrase are text to
/// PubMed and are not counted.
pub fn unbalanced(query: &str) -> Option<String> {
    let (mut depth, mut stray, mut quoted, mut quotes) = (0usize, 0usize, false, 0usize);
    for c in query.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                quotes += 1;
            }
            '(' if !quoted => depth += 1,
            ')' if !quoted => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => stray += 1,
            },
            _ => {}
        }
    }
    let mut problems = Vec::new();
    if depth > 0 {
        problems.push(format!("{depth} \"(\" not closed"));
    }
    if stray > 0 {
        problems.push(format!("{stray} \")\" without a \"(\""));
    }
    if quotes % 2 == 1 {
        problems.push("a double quote not closed".to_string());
    }
    (!problems.is_empty()).then(|| problems.join(", "))
}

/// Tags of PubMed's MeSH indexes, as written in a query translation
/// (lower-case, without a `:modifier`).
const MESH_TAGS: &[&str] = &[
    "mesh terms",
    "mesh",
    "mh",
    "mesh major topic",
    "majr",
    "mesh subheading",
    "sh",
    "supplementary concept",
    "nm",
    "pharmacological action",
    "pa",
];

/// The `term[tag]` pairs of a query translation, in order: the quoted
/// phrase before each tag, or the bare word run back to a space or
/// parenthesis.
fn tagged_terms(s: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(open) = s[pos..].find('[').map(|i| pos + i) {
        let Some(close) = s[open..].find(']').map(|i| open + i) else {
            break;
        };
        let head = &s[pos..open];
        let term = match head.strip_suffix('"') {
            Some(inner) => inner.rfind('"').map_or(inner, |i| &inner[i + 1..]),
            None => head
                .rsplit(|c: char| c.is_whitespace() || c == '(' || c == ')')
                .next()
                .unwrap_or(""),
        };
        out.push((term, &s[open + 1..close]));
        pos = close + 1;
    }
    out
}

/// A term as typed or as PubMed wrote it, for comparing concepts: tag and
/// quotes dropped, lower-case, punctuation as spaces, and each word's
/// plural `s` dropped (`vaccine` and `vaccines` are one concept).
fn concept_key(term: &str) -> String {
    let bare = match term.rfind('[') {
        Some(i) if term.trim_end().ends_with(']') => &term[..i],
        _ => term,
    };
    bare.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.strip_suffix('s').filter(|s| !s.is_empty()).unwrap_or(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A term PubMed mapped to a different concept: the term as PubMed echoed
/// it (`From` of ESearch's `TranslationSet`) and the MeSH headings or
/// entry terms of its translation (`To`) that are not that term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConceptMapping {
    /// `From`, e.g. `heart attack`.
    pub from: String,
    /// The MeSH terms with their tags, e.g. `"myocardial infarction"[MeSH Terms]`.
    pub to: Vec<String>,
}

impl std::fmt::Display for ConceptMapping {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} → {}", self.from, self.to.join(" OR "))
    }
}

/// The concept mappings in ESearch's `TranslationSet` (`(From, To)`
/// pairs): a `From` whose `To` holds a MeSH heading or entry term other
/// than the term as typed (`heart attack` → `"myocardial infarction"[MeSH
/// Terms]`; `cancer` → `"neoplasms"[MeSH Terms]`). A term searched under
/// its own MeSH heading (`stem cells` → `"stem cells"[MeSH Terms]`), an
/// author name expanded to the full-name index (`hart rk[author]` →
/// `Hart, Rk[Full Author Name]`) and a journal abbreviation resolved to the
/// same journal (`PNAS[ta]` → `"Proc Natl Acad Sci U S A"[Journal]`) are not
/// a different concept (`docs/search.md`).
pub fn concept_mappings(translations: &[(String, String)]) -> Vec<ConceptMapping> {
    translations
        .iter()
        .filter_map(|(from, to)| {
            let typed = concept_key(from);
            let mut other: Vec<String> = Vec::new();
            for (term, tag) in tagged_terms(to) {
                let name = tag.split(':').next().unwrap_or("").trim().to_lowercase();
                let shown = format!("\"{term}\"[{tag}]");
                if MESH_TAGS.contains(&name.as_str())
                    && concept_key(term) != typed
                    && !other.contains(&shown)
                {
                    other.push(shown);
                }
            }
            (!other.is_empty()).then(|| ConceptMapping {
                from: from.clone(),
                to: other,
            })
        })
        .collect()
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
fn filter_value((field, name): (Field, &str), value: &str) -> Result<String> {
    let clean = super::text::fold_whitespace(&clean_markup(value).replace('"', " "));
    if !clean
        .chars()
        .filter(|c| !matches!(c, '(' | ')' | '[' | ']'))
        .any(super::text::is_visible)
    {
        return Err(Error::about(
            Reason::BlankFilter,
            field,
            Words::new()
                .text("the ")
                .field(field, name)
                .text(" filter has no term"),
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
/// filter clause joined with ` AND `. With filters the query
/// is parenthesised so its own operators keep their meaning. Errors:
/// `blank_filter`; `blank_query` when both query and filters are empty.
pub fn compose(query: &str, filters: &Filters) -> Result<String> {
    compose_tagged(query, filters, &[])
}

/// [`compose`], with the tag of some MeSH values given: a `mesh_terms`
/// value listed in `mesh_tags` as `(value, tag)` is searched as
/// `"value"[tag]` (a supplementary concept's `nm`, a qualifier's `sh`,
/// found by `search`'s MeSH check), every other as `"value"[MeSH Terms]`.
pub fn compose_tagged(
    query: &str,
    filters: &Filters,
    mesh_tags: &[(String, String)],
) -> Result<String> {
    let mut clauses: Vec<String> = Vec::new();
    if !filters.publication_types.is_empty() {
        let parts = filters
            .publication_types
            .iter()
            .map(|p| {
                filter_value((Field::PublicationType, "publication type"), p)
                    .map(|v| format!("\"{v}\"[Publication Type]"))
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
            bare_or_quoted(filter_value((Field::Author, "author"), a)?)
        ));
    }
    if let Some(j) = &filters.journal {
        clauses.push(format!(
            "\"{}\"[Journal]",
            filter_value((Field::Journal, "journal"), j)?
        ));
    }
    for m in &filters.mesh_terms {
        let tag = mesh_tags
            .iter()
            .find(|(v, _)| v == m)
            .map_or("MeSH Terms", |(_, t)| t.as_str());
        clauses.push(format!(
            "\"{}\"[{tag}]",
            filter_value((Field::MeshTerm, "MeSH term"), m)?
        ));
    }
    if let Some(l) = &filters.language {
        clauses.push(format!(
            "{}[Language]",
            bare_or_quoted(filter_value((Field::Language, "language"), l)?)
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
    .with_field(Field::Query)
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

    #[test]
    fn unbalanced_parentheses_and_quotes() {
        for q in [
            "risk AND (cancer OR tumor)",
            "\"a (b\" c",
            "x",
            "((a) OR \"b c\")[tiab]",
        ] {
            assert_eq!(unbalanced(q), None, "{q}");
        }
        assert_eq!(
            unbalanced("risk AND (cancer OR tumor").as_deref(),
            Some("1 \"(\" not closed")
        );
        assert_eq!(
            unbalanced("a) OR (b").as_deref(),
            Some("1 \"(\" not closed, 1 \")\" without a \"(\"")
        );
        assert_eq!(
            unbalanced("\"breast cancer").as_deref(),
            Some("a double quote not closed")
        );
    }

    fn pair(from: &str, to: &str) -> (String, String) {
        (from.into(), to.into())
    }

    /// The TranslationSet shapes of the real captures.
    #[test]
    fn concept_mappings_of_the_captures() {
        // esearch_pubmed_cancer_usehistory.xml
        let cancer = pair(
            "cancer",
            "\"cancer's\"[All Fields] OR \"cancerated\"[All Fields] OR \"canceration\"[All Fields] OR \"cancerization\"[All Fields] OR \"cancerized\"[All Fields] OR \"cancerous\"[All Fields] OR \"neoplasms\"[MeSH Terms] OR \"neoplasms\"[All Fields] OR \"cancer\"[All Fields] OR \"cancers\"[All Fields]",
        );
        assert_eq!(
            concept_mappings(&[cancer]),
            vec![ConceptMapping {
                from: "cancer".into(),
                to: vec!["\"neoplasms\"[MeSH Terms]".into()]
            }]
        );
        // esearch_pubmed_translationstack_2008.xml (entities decoded)
        let old = pair(
            "cancer",
            "((\"neoplasms\"[TIAB] NOT Medline[SB]) OR \"neoplasms\"[MeSH Terms] OR cancer[Text Word])",
        );
        assert_eq!(
            concept_mappings(&[old])[0].to,
            vec!["\"neoplasms\"[MeSH Terms]".to_string()]
        );
        // the term under its own heading: esearch_pmc_translationstack.xml,
        // esearch_errorlist_with_results_2012.xml
        let stem = pair(
            "stem cells",
            "\"stem cells\"[MeSH Terms] OR (\"stem\"[All Fields] AND \"cells\"[All Fields]) OR \"stem cells\"[All Fields]",
        );
        let obstetrics = pair("obstetrics[MeSH Terms]", "\"obstetrics\"[MeSH Terms]");
        // an author name and a journal: the same person, the same journal
        let author = pair(
            "hart rk[author]",
            "Hart, Rk[Full Author Name] OR hart rk[Author]",
        );
        let journal = pair(
            "PNAS[ta]",
            "\"Proc Natl Acad Sci U S A\"[Journal:__jid7505876]",
        );
        assert_eq!(
            concept_mappings(&[stem, obstetrics, author, journal]),
            vec![]
        );
        // a plural is the same concept
        let vaccine = pair(
            "vaccine",
            "\"vaccines\"[MeSH Terms] OR \"vaccine\"[All Fields]",
        );
        assert_eq!(concept_mappings(&[vaccine]), vec![]);
    }

    #[test]
    fn heart_attack_is_myocardial_infarction() {
        let t = pair(
            "heart attack",
            "\"myocardial infarction\"[MeSH Terms] OR (\"myocardial\"[All Fields] AND \"infarction\"[All Fields]) OR \"myocardial infarction\"[All Fields] OR (\"heart\"[All Fields] AND \"attack\"[All Fields]) OR \"heart attack\"[All Fields]",
        );
        let m = concept_mappings(&[t]);
        assert_eq!(
            m[0].to_string(),
            "heart attack → \"myocardial infarction\"[MeSH Terms]"
        );
        // several headings, modifiers, other MeSH indexes
        let t = pair(
            "tylenol overdose",
            "\"acetaminophen\"[MeSH Terms:noexp] OR \"drug overdose\"[MeSH Terms] OR \"acetaminophen\"[Supplementary Concept]",
        );
        assert_eq!(
            concept_mappings(&[t])[0].to,
            vec![
                "\"acetaminophen\"[MeSH Terms:noexp]".to_string(),
                "\"drug overdose\"[MeSH Terms]".to_string(),
                "\"acetaminophen\"[Supplementary Concept]".to_string()
            ]
        );
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
