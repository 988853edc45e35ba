//! The `convert` adapter: IDs from arguments or a file/stdin → the convert
//! engine → a streaming writer, with a progress bar on a terminal.

use std::io::{self, Write};

use super::input::Input;
use super::progress::Counting;
use super::{Context, end_of_stream, interruptible};
use crate::error::{Error, Exit, Failure, Reason};
use crate::ops::batch::Output;
use crate::ops::convert::{self, ConvertRecord};
use crate::ops::fallback;
use crate::output::{self, convert::ConvertFormat};

use super::choice::choice;
use crate::core::ids::IdType;
use crate::ops::fallback::Fallback;
use clap::Args;

pub(super) const CONVERT_EXAMPLES: &str = "\
Examples:
  pubmed convert PMC3531190 10.1038/ng.590 23193287
  pubmed convert --input refs.txt --to pmcid > pmcids.txt
  pubmed convert --input refs.txt -f json | jq '.records[] | select(.error)'
  pubmed search 'crispr[ti]' --retmax 100 | pubmed convert --input - --to doi --fallback pubmed";

/// `pubmed convert [ID…] [--from TYPE] [--input FILE|-] [--to TYPE]`
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// IDs to convert: PMIDs, PMCIDs (PMC…), DOIs (10.…/…); `-` (or none, piped) reads stdin
    #[arg(value_name = "ID", conflicts_with = "input")]
    pub ids: Vec<String>,
    /// The type of every input ID [default: detected per ID]
    #[arg(long, value_name = "TYPE", value_parser = choice::<IdType>())]
    pub from: Option<IdType>,
    /// Read IDs from FILE, one per line (`-` = stdin; blank and # lines skipped)
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<String>,
    /// Print only this ID type, one line per input line (implies -f ids)
    #[arg(long, value_name = "TYPE", value_parser = choice::<IdType>())]
    pub to: Option<IdType>,
    /// Look up IDs the Converter has no record of (not in PMC) in PubMed:
    /// a PMID's DOI, a DOI's PMID; such records say source "pubmed"
    #[arg(long, value_name = "SOURCE", value_parser = choice::<Fallback>())]
    pub fallback: Option<Fallback>,
}

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
