//! The `spell` adapter: a query → ESpell → its writer (docs/spell.md).

use std::io::{self, Write};

use super::{Context, read_query};
use crate::error::{Exit, Failure};
use crate::ops;
use crate::output::{self, spell::SpellFormat};

use clap::Args;

pub(super) const SPELL_EXAMPLES: &str = "\
Examples:
  pubmed spell \"alzhiemer diseese\"
  pubmed search \"$(pubmed spell 'brest cancr[ti]')\"
  pubmed spell -f json \"asthmaa OR alergies\" | jq -r .corrected
  echo 'Netch AND Mus musclus' | pubmed spell -";

/// `pubmed spell QUERY…`
#[derive(Debug, Args)]
pub struct SpellArgs {
    /// The query; several words are joined with one space; `-` reads stdin
    #[arg(required = true, value_name = "QUERY")]
    pub query: Vec<String>,
}

pub(super) async fn run(a: SpellArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = ctx.format_of::<SpellFormat>()?;
    let query = read_query(&a.query)?;
    ops::spell::check_query(&query)?;
    let client = ctx.client()?;
    let outcome = ops::spell::spell(&client, &query).await?;
    let mut out = io::stdout().lock();
    output::spell::render(&mut out, &outcome, format, &ctx.style)?;
    out.flush()?;
    if format == SpellFormat::Text {
        ctx.note(&output::spell::note(&outcome));
    }
    Ok(Exit::Success)
}
