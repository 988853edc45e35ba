//! The `convert` adapter: IDs from arguments or a file/stdin → the convert
//! engine → a streaming writer, with a progress bar on a terminal.

use std::io::{self, Write};

use super::args::ConvertArgs;
use super::input::Input;
use super::progress::Counting;
use super::{Context, end_of_stream, interruptible};
use crate::error::{Error, Exit, Failure, Reason};
use crate::ops::batch::Output;
use crate::ops::convert::{self, ConvertRecord};
use crate::ops::fallback;
use crate::output::{self, ConvertFormat};

/// The output format: `ids` when `--to` is given without `-f`. Errors:
/// `-f ids` without `--to`, or a format `convert` does not offer.
fn choose_format(a: &ConvertArgs, ctx: &Context) -> Result<ConvertFormat, Error> {
    let format = match (ctx.format, a.to) {
        (None, Some(_)) => ConvertFormat::Ids,
        _ => ctx.format_of::<ConvertFormat>()?,
    };
    if format == ConvertFormat::Ids && a.to.is_none() {
        return Err(Error::new(
            Reason::InvalidArgument,
            "--format ids needs --to pmid|pmcid|doi (which ID to print)",
        ));
    }
    Ok(format)
}

pub(super) async fn run(a: ConvertArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = choose_format(&a, ctx)?;
    let input = Input::choose("IDs to convert", a.input.as_deref(), &a.ids, |ids| {
        convert::check_ids(ids, a.from)
    })?;
    let client = ctx.client()?;
    let progress = ctx.progress(Counting::Ids(input.total(ctx)));

    let stdout = io::stdout();
    let mut lock = io::BufWriter::new(stdout.lock());
    let fallback = a.fallback.is_some();
    let mut writer =
        output::convert::Writer::begin_with(&mut lock, format, a.to, ctx.style, fallback)?;
    let mut sink = |item: Output<'_, ConvertRecord>| -> io::Result<()> {
        if let Output::Record(_) | Output::Skipped = item {
            progress.inc();
        }
        writer.item(item)
    };
    let lines = input.lines();
    let run = async {
        if fallback {
            // `--fallback pubmed`: a stage after the Converter's records.
            fallback::convert_with_fallback(&client, lines, a.from, &mut sink).await
        } else {
            convert::convert_stream(&client, lines, a.from, &mut sink).await
        }
    };
    let totals = end_of_stream(interruptible(run).await, &progress, || writer.abandon())?;
    writer.finish(&totals)?;
    let counts = writer.counts(&totals);
    drop(writer);
    lock.flush()?;
    ctx.note(&output::convert::summary(&totals, counts));
    super::require_input(totals.submitted, "IDs")?;
    // With `--to`, records found without that ID are not converted: none
    // converted is exit 1, as when every input failed on its own.
    match totals.exit() {
        Exit::Success if totals.submitted > 0 && counts.converted == 0 => Ok(Exit::NotFound),
        exit => Ok(exit),
    }
}
