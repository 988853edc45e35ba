//! The `related` adapter: PMIDs from arguments or a file/stdin → the
//! related engine → a streaming writer, notes on stderr (docs/related.md).

use std::io::{self, Write};

use super::args::RelatedArgs;
use super::input::Input;
use super::progress::Counting;
use super::{Context, end_of_stream, interruptible};
use crate::error::{Exit, Failure};
use crate::ops::batch::Output;
use crate::ops::related::{self, RelatedRecord, RelatedRequest};
use crate::ops::search::Detail;
use crate::output::{self, RelatedFormat};

pub(super) async fn run(a: RelatedArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = ctx.format_of::<RelatedFormat>()?;
    // Summaries cost ESummary requests: only a table shows them unasked.
    let detail = a.detail.unwrap_or(if format == RelatedFormat::Table {
        Detail::Full
    } else {
        Detail::Ids
    });
    let req = RelatedRequest {
        kind: a.kind,
        retmax: a.retmax.map(|n| n as usize),
        detail,
    };
    let input = Input::choose("PMIDs", a.input.as_deref(), &a.pmids, |pmids| {
        pmids
            .iter()
            .try_for_each(|p| related::check_pmid(p).map(drop))
    })?;
    let client = ctx.client()?;
    let progress = ctx.progress(Counting::Ids(input.total(ctx)));

    let stdout = io::stdout();
    let mut lock = io::BufWriter::new(stdout.lock());
    let mut writer =
        output::related::Writer::begin(&mut lock, format, req.kind, detail, ctx.style)?;
    let mut sink = |item: Output<'_, RelatedRecord>| -> io::Result<()> {
        if let Output::Record(_) | Output::Skipped = item {
            progress.inc();
        }
        if let Output::Record(r) = &item {
            match &r.outcome {
                Ok(links) if links.total == 0 => {
                    ctx.note(&format!("note: {}", related::no_links_note(r)))
                }
                // Error records are rows in every other format.
                Err(e) if format == RelatedFormat::Ids => ctx.note(&format!(
                    "error: {}: {} [{}]",
                    r.requested, e.message, e.reason
                )),
                _ => {}
            }
        }
        writer.item(item)
    };
    let lines = input.lines();
    let run = related::related_stream(&client, lines, &req, &mut sink);
    let totals = end_of_stream(interruptible(run).await, &progress, || writer.abandon())?;
    writer.finish(&totals)?;
    drop(writer);
    lock.flush()?;
    // A failed request is in its records (and their count in the summary),
    // as for convert and fetch; the exit status carries its reason.
    ctx.note(&output::related::summary(&totals));
    super::require_input(totals.submitted, "PMIDs")?;
    Ok(totals.exit())
}
