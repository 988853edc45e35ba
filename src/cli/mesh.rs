//! The `mesh` adapter: a term or UI → the MeSH lookup → its writer
//! (docs/mesh.md).

use std::io::{self, Write};

use super::{Context, read_query};
use crate::error::{Exit, Failure};
use crate::ops::mesh::{self, MeshRequest};
use crate::output::{self, mesh::MeshFormat};

use clap::Args;

pub(super) const MESH_EXAMPLES: &str = "\
Examples:
  pubmed mesh \"heart attack\"
  pubmed mesh D009203 --tree
  pubmed search \"$(pubmed mesh -f json 'heart attack' | jq -r '.records[0].search.mesh') AND aspirin\"
  pubmed mesh -f ids asthma";

/// `pubmed mesh TERM…`
#[derive(Debug, Args)]
pub struct MeshArgs {
    /// A term (`heart attack`) or a MeSH UI (`D009203`); several words are joined with one space
    #[arg(required = true, value_name = "TERM")]
    pub term: Vec<String>,
    /// Also show each tree position's parent and children (to widen or narrow a search)
    #[arg(long)]
    pub tree: bool,
    /// Records to show (1 to 20)
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max: usize,
}

pub(super) async fn run(a: MeshArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = ctx.format_of::<MeshFormat>()?;
    let req = MeshRequest {
        term: read_query(&a.term)?,
        tree: a.tree,
        max: a.max,
    };
    mesh::check(&req)?;
    let client = ctx.client()?;
    let outcome = mesh::lookup(&client, &req).await?;
    let mut out = io::stdout().lock();
    output::mesh::render(&mut out, &outcome, format, &ctx.style)?;
    out.flush()?;
    if outcome.count > outcome.records.len() as u64 {
        ctx.note(&format!(
            "note: MeSH holds {} records for {:?}; showing the first {} (--max)",
            outcome.count,
            outcome.query,
            outcome.records.len()
        ));
    }
    Ok(Exit::Success)
}
