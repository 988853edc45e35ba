//! The `fulltext` adapter: IDs from arguments or a file/stdin → the
//! full-text engine → a streaming writer, error records noted on stderr
//! in the reading formats (docs/fulltext.md).

use std::io::{self, Write};

use super::args::FulltextArgs;
use super::input::Input;
use super::progress::Counting;
use super::{Context, end_of_stream, interruptible};
use crate::core::text::count;
use crate::error::{Exit, Failure};
use crate::ops::batch::Output;
use crate::ops::fulltext::{self, FulltextOptions, FulltextRecord};
use crate::output::{self, FulltextFormat};

pub(super) async fn run(a: FulltextArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = ctx.format_of::<FulltextFormat>()?;
    let options = FulltextOptions {
        keep_raw: format == FulltextFormat::Jats,
    };
    let input = Input::choose("IDs", a.input.as_deref(), &a.ids, |ids| {
        ids.iter()
            .try_for_each(|i| crate::core::ids::detect(i.trim()).map(drop))
    })?;
    let client = ctx.client()?;
    let progress = ctx.progress(Counting::Ids(input.total(ctx)));
    let stdout = io::stdout();
    let mut lock = io::BufWriter::new(stdout.lock());
    let mut first = true;
    if format == FulltextFormat::Json {
        write!(lock, "[")?;
    }
    let mut sink = |item: Output<'_, FulltextRecord>| -> io::Result<()> {
        if let Output::Record(_) | Output::Skipped = item {
            progress.inc();
        }
        let Output::Record(r) = item else {
            return Ok(());
        };
        if let Err(e) = &r.outcome
            && !matches!(format, FulltextFormat::Json | FulltextFormat::Ndjson)
        {
            ctx.note(&format!(
                "error: {}: {} [{}]",
                r.requested, e.message, e.reason
            ));
        }
        let wrote_text =
            r.outcome.is_ok() || matches!(format, FulltextFormat::Json | FulltextFormat::Ndjson);
        output::fulltext::write_record(&mut lock, format, r, &a.section, first)?;
        if wrote_text {
            first = false;
        }
        Ok(())
    };
    let lines = input.lines();
    let run = fulltext::fulltext_stream(&client, lines, options, &mut sink);
    let totals = end_of_stream(interruptible(run).await, &progress, || Ok(()))?;
    if format == FulltextFormat::Json {
        writeln!(lock, "]")?;
    }
    lock.flush()?;
    ctx.note(&format!(
        "{} of {} with open full text",
        totals.succeeded,
        count(totals.submitted, "input")
    ));
    super::require_input(totals.submitted, "IDs")?;
    Ok(totals.exit())
}
