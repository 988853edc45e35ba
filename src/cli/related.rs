//! The `related` adapter: PMIDs from arguments or a file/stdin → the
//! related engine → a streaming writer, notes on stderr (docs/related.md).

use std::io::{self, Write};

use super::input::Input;
use super::progress::Counting;
use super::{Context, end_of_stream, interruptible};
use crate::error::{Exit, Failure};
use crate::ops::batch::Output;
use crate::ops::related::{self, RelatedRecord, RelatedRequest};
use crate::ops::search::Detail;
use crate::output::{self, related::RelatedFormat};

use super::choice::choice;
use crate::ops::related::LinkKind;
use clap::Args;

pub(super) const RELATED_EXAMPLES: &str = "\
Examples:
  pubmed related 9298984                              # similar articles, one PMID per line
  pubmed related 9298984 --kind cited-by -f table
  pubmed related 9298984 --kind references --detail brief -f json | jq '.links[].linked[].summary.title'
  pubmed related --input pmids.txt --retmax 10 -f tsv > similar.tsv
  pubmed search 'crispr[ti] AND 2023[pdat]' --all | pubmed related --input - --kind cited-by

cited-by and references come from PubMed's own citation links, which NCBI builds
from the reference lists of articles in PMC: counts can be lower than those of
other citation indexes, and an article whose references are not in PMC lists none.";

/// `pubmed related PMID… [--input FILE|-] [--kind KIND] [--retmax N] [--detail LEVEL]`
#[derive(Debug, Args)]
pub struct RelatedArgs {
    /// PMIDs to look up; `-` (or none, piped) reads stdin
    #[arg(value_name = "PMID", conflicts_with = "input")]
    pub pmids: Vec<String>,
    /// Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<String>,
    /// similar: PubMed's similar articles; cited-by: articles citing it;
    /// references: articles it cites (both from PubMed's PMC-based citation
    /// links, so counts can be lower than other citation indexes)
    #[arg(long, value_name = "KIND", default_value = "similar",
          value_parser = choice::<LinkKind>())]
    pub kind: LinkKind,
    /// Keep at most N linked PMIDs per input [default: all NCBI returns]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub retmax: Option<u32>,
    /// Summaries of the linked articles [default: full with -f table, else ids]
    #[arg(long, value_name = "LEVEL", value_parser = choice::<Detail>())]
    pub detail: Option<Detail>,
}

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
