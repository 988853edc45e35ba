//! `spell` / `pubmed_spell_check`: ESpell's corrections applied in place.
//! One core for the CLI and the MCP tool.

use serde::Serialize;

use crate::core::spell::{self, Correction};
use crate::core::text::has_visible;
use crate::error::{Error, Field, Reason, Result};
use crate::ncbi::{Client, Db};

/// `{original, corrected, hasSuggestion, corrections}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpellOutcome {
    /// The caller's query, byte for byte.
    pub original: String,
    /// The query with ESpell's accepted corrections applied in place.
    pub corrected: String,
    /// True exactly when `corrected != original`.
    pub has_suggestion: bool,
    /// Every proposal ESpell made, applied or kept out (with the reason).
    pub corrections: Vec<Correction>,
    /// The query from where ESpell's answer stopped lining up with it on
    /// (copied as written), when it did; for the human note only.
    #[serde(skip)]
    pub unaligned: Option<String>,
}

/// Checks the spelling of `query` with ESpell.
///
/// Errors: `blank_query` (no request) when the query has no visible
/// character; client errors otherwise (an ESpell `<ERROR>` is never "no
/// suggestion").
pub async fn spell(client: &Client, query: &str) -> Result<SpellOutcome> {
    check_query(query)?;
    let answer = client.espell(Db::Pubmed, query).await?;
    Ok(outcome(query, &answer.segments))
}

/// Rejects a query with no visible character (`blank_query`).
pub fn check_query(query: &str) -> Result<()> {
    crate::core::query::check_length(query)?;
    if has_visible(query) {
        Ok(())
    } else {
        Err(Error::new(
            Reason::BlankQuery,
            "the query has no search term (only blanks or invisible characters)",
        )
        .with_field(Field::Query))
    }
}

/// Builds the outcome from ESpell's segments (pure).
pub fn outcome(query: &str, segments: &[spell::Segment]) -> SpellOutcome {
    let applied = spell::apply(query, segments);
    SpellOutcome {
        original: query.to_string(),
        has_suggestion: applied.corrected != query,
        unaligned: applied.lost_at.map(|at| query[at..].to_string()),
        corrected: applied.corrected,
        corrections: applied.corrections,
    }
}
