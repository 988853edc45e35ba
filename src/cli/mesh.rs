//! The `mesh` adapter: a term or UI → the MeSH lookup → its writer
//! (docs/mesh.md).

use std::io::{self, Write};

use super::args::MeshArgs;
use super::{Context, read_query};
use crate::error::{Exit, Failure};
use crate::ops::mesh::{self, MeshRequest};
use crate::output::{self, MeshFormat};

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
