//! The `rerun` adapter: a record file → each search run again → what
//! changed, or the PRISMA-S report (docs/recorded.md "Re-running").

use std::io::{self, Write};

use super::Context;
use crate::error::{Error, Exit, Failure, Reason};
use crate::ops::rerun::{self, RerunRequest};
use crate::output::{self, Format, rerun::RerunFormat};

use clap::Args;

pub(super) const RERUN_EXAMPLES: &str = "\
Examples:
  pubmed search 'asthma[mh] AND children[tiab]' --all --record review.jsonl -f ids > set.txt
  pubmed rerun review.jsonl                 # every recorded search again: added, removed, counts
  pubmed rerun review.jsonl --id 3 -f json  # only the record on line 3
  pubmed rerun review.jsonl --report > search-appendix.md   # PRISMA-S summary in Markdown

Exit status 0: every search identical; 1: a set or count changed (docs/recorded.md).";

/// `pubmed rerun FILE [--id N] [--report]`
#[derive(Debug, Args)]
pub struct RerunArgs {
    /// The record file written by `search --record`
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,
    /// Only the record on line N of FILE [default: every record, in file order]
    #[arg(long, value_name = "N")]
    pub id: Option<usize>,
    /// Write a PRISMA-S search summary in Markdown (the same as -f markdown)
    #[arg(long)]
    pub report: bool,
}

pub(super) async fn run(a: RerunArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = match (a.report, ctx.format) {
        (true, None | Some(Format::Markdown)) => RerunFormat::Markdown,
        (true, Some(f)) => {
            return Err(Error::new(
                Reason::InvalidArgument,
                format!("--report writes Markdown; it cannot be given with -f {f}"),
            )
            .into());
        }
        (false, _) => ctx.format_of::<RerunFormat>()?,
    };
    // The file and --id are checked before the configuration is read.
    rerun::read(&a.file, a.id)?;
    let req = RerunRequest {
        file: a.file,
        id: a.id,
        titles: format == RerunFormat::Table,
    };
    let client = ctx.client()?;
    let outcome = rerun::rerun(&client, &req).await?;
    for s in &outcome.skipped {
        ctx.note(&format!("note: {}: skipped {s}", outcome.file));
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    output::rerun::render(&mut out, &outcome, format, &ctx.style)?;
    out.flush()?;
    if outcome.untitled > 0 {
        ctx.note(&format!(
            "note: titles shown for the first {} changed PMIDs only ({} more without)",
            rerun::TITLES_MAX,
            outcome.untitled
        ));
    }
    ctx.note(&output::rerun::summary_line(&outcome));
    Ok(if outcome.identical {
        Exit::Success
    } else {
        Exit::NotFound
    })
}
