//! The `rerun` adapter: a record file → each search run again → what
//! changed, or the PRISMA-S report (docs/recorded.md "Re-running").

use std::io::{self, Write};

use super::Context;
use super::args::RerunArgs;
use crate::error::{Error, Exit, Failure, Reason};
use crate::ops::rerun::{self, RerunRequest};
use crate::output::{self, Format, RerunFormat};

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
