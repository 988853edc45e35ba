//! The `fulltext` adapter: IDs from arguments or a file/stdin → the
//! full-text engine → a streaming writer (stdout, or `--output FILE`
//! through [`super::outfile`]), error records noted on stderr in the
//! reading formats (docs/fulltext.md).

use std::io::{self, Write};

use super::input::Input;
use super::outfile::{IdsOutput, pass_held};
use super::progress::Counting;
use super::{Context, end_of_stream, interruptible};
use crate::core::text::count;
use crate::error::{Exit, Failure};
use crate::ops::batch::{InputLine, Output};
use crate::ops::fulltext::{self, FulltextOptions, FulltextRecord};
use crate::ops::resume::Lines;
use crate::output::{self, fulltext::FulltextFormat};

use clap::Args;

pub(super) const FULLTEXT_EXAMPLES: &str = "\
Examples:
  pubmed fulltext PMC3460867                       # Markdown on a terminal
  pubmed fulltext 23029536 --section methods,results -f text
  pubmed fulltext 10.1371/journal.pone.0046493 -f json | jq '.[0].sections[].title'
  pubmed fulltext --input pmcids.txt -f ndjson > corpus.ndjson
  pubmed fulltext PMC3460867 -f jats > PMC3460867.xml
";

/// `pubmed fulltext [ID…] [--input FILE|-] [--section S,…]`
#[derive(Debug, Args)]
pub struct FulltextArgs {
    /// PMIDs, PMCIDs or DOIs; `-` (or none, piped) reads stdin
    #[arg(value_name = "ID", conflicts_with = "input")]
    pub ids: Vec<String>,
    /// Read IDs from FILE, one per line (`-` = stdin; blank and # lines skipped)
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<String>,
    /// Only these sections: a sec-type (methods, results, …) or words of a title, comma-separated
    #[arg(long, value_name = "S,…", value_delimiter = ',')]
    pub section: Vec<String>,
    /// Write to FILE instead of stdout; with -f ndjson, resumable with --resume
    #[arg(long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// Continue the run FILE holds: IDs it has are not asked again (needs --output, -f ndjson)
    #[arg(long, requires = "output")]
    pub resume: bool,
}

/// The key a record of this input line has in FILE (`requested`).
fn line_key(line: &InputLine) -> Option<String> {
    match line {
        InputLine::Skip => None,
        InputLine::Undecodable(shown) => Some(shown.clone()),
        InputLine::Id(raw) => Some(raw.clone()),
    }
}

pub(super) async fn run(a: FulltextArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = ctx.format_of::<FulltextFormat>()?;
    let options = FulltextOptions {
        keep_raw: format == FulltextFormat::Jats,
    };
    let input = Input::choose("IDs", a.input.as_deref(), &a.ids, |ids| {
        ids.iter()
            .try_for_each(|i| crate::core::ids::detect(i.trim()).map(drop))
    })?;
    // FILE is checked, locked and read back before anything is sent.
    let mut output = IdsOutput {
        command: "fulltext",
        format: format.as_str(),
        lines: (format == FulltextFormat::Ndjson).then_some(Lines::NdjsonKeyed("requested")),
        extra: vec![("section", a.section.join(","))],
        input: a.input.as_deref(),
        no_ids: a.ids.is_empty(),
    }
    .open(a.output.as_deref(), a.resume)?;
    let client = ctx.client()?;
    let progress = match &output {
        Some(_) => ctx.progress_to_file(Counting::Ids(input.total(ctx))),
        None => ctx.progress(Counting::Ids(input.total(ctx))),
    };
    let mut lines = input.lines();
    // `--resume` on a finished FILE: said as `search --all` says it.
    let complete = output
        .as_ref()
        .map(|o| (o.complete(), o.path().display().to_string()));
    let already = match &mut output {
        Some(o) => pass_held(ctx, o, &mut lines, &progress, "ID", line_key).await?,
        None => 0,
    };

    let stdout = io::stdout();
    // FILE is cut to what it keeps only now, after every check.
    let mut lock: Box<dyn Write> = match &mut output {
        Some(o) => Box::new(io::BufWriter::new(o.start()?)),
        None => Box::new(io::BufWriter::new(stdout.lock())),
    };
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
    let run = fulltext::fulltext_stream(&client, lines, options, &mut sink);
    let totals = end_of_stream(interruptible(run).await, &progress, || Ok(()))?;
    if format == FulltextFormat::Json {
        writeln!(lock, "]")?;
    }
    lock.flush()?;
    drop(lock);
    if let Some(o) = output {
        o.finish(true)?;
    }
    match complete {
        Some((true, file)) if totals.submitted == 0 => ctx.note(&format!(
            "{file} is complete ({}); nothing to resume",
            count(already, "ID")
        )),
        _ => ctx.note(&format!(
            "{} of {} with open full text",
            totals.succeeded,
            count(totals.submitted, "input")
        )),
    }
    // a resumed run over a finished FILE had its input, all of it in FILE
    super::require_input(totals.submitted + already, "IDs")?;
    Ok(totals.exit())
}
