//! The `cite` adapter: PMIDs as `fetch` reads them → the cite engine (one
//! formatted reference per PMID, in input order) → a streaming writer
//! (docs/cite.md). `--list-styles` prints the style names.

use std::io::{self, Write};

use super::fetch::choose_input;
use super::progress::Counting;
use super::{Context, end_of_stream, interruptible};
use crate::error::{Exit, Failure};
use crate::ops::batch::Output;
use crate::ops::cite::{self, CiteStyle, Cited};
use crate::output::{self, cite::CiteFormat};

use crate::ops;
use clap::Args;

pub(super) const CITE_EXAMPLES: &str = "\
Examples:
  pubmed cite 12091962 9997
  pubmed cite 12091962 --style apa
  pubmed cite --input pmids.txt --style ama -f markdown > references.md
  pubmed search 'crispr[ti] AND 2023[pdat]' --retmax 20 | pubmed cite --style nature
  pubmed cite 12091962 --style my-journal.csl -f html
  pubmed cite --list-styles";

/// `cite --style`: the short names of the style table and the default.
fn style_help() -> String {
    format!(
        "Citation style: {}, any bundled style name, or a .csl file [default: {}]",
        ops::cite::SHORT_NAMES.map(|(n, _)| n).join(", "),
        ops::cite::DEFAULT_STYLE
    )
}

/// `pubmed cite [PMID…] [--input FILE|-] [--style NAME|PATH.csl]`
#[derive(Debug, Args)]
pub struct CiteArgs {
    /// PMIDs to cite; `-` (or none, piped) reads stdin
    #[arg(value_name = "PMID", conflicts_with = "input")]
    pub pmids: Vec<String>,
    /// Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<String>,
    /// Citation style (help from the style table: `style_help`)
    #[arg(short, long, value_name = "NAME|PATH.csl", help = style_help())]
    pub style: Option<String>,
    /// Print the style names and exit
    #[arg(long, conflicts_with_all = ["pmids", "input", "style"])]
    pub list_styles: bool,
}

/// `--list-styles`: the short names, then every bundled style, one per
/// line as `NAME<TAB>TITLE`.
fn list_styles() -> Result<Exit, Failure> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    for (name, title) in cite::style_list() {
        writeln!(out, "{name}\t{title}").map_err(Failure::Output)?;
    }
    out.flush().map_err(Failure::Output)?;
    Ok(Exit::Success)
}

pub(super) async fn run(a: CiteArgs, ctx: &Context) -> Result<Exit, Failure> {
    if a.list_styles {
        return list_styles();
    }
    let format = ctx.format_of::<CiteFormat>()?;
    let style = CiteStyle::resolve(a.style.as_deref().unwrap_or(cite::DEFAULT_STYLE))?;
    let input = choose_input("cite", a.input.as_deref(), &a.pmids)?;
    let client = ctx.client()?;
    let progress = ctx.progress(Counting::Ids(input.total(ctx)));
    let stdout = io::stdout();
    let mut lock = io::BufWriter::new(stdout.lock());
    let mut writer = output::cite::CiteWriter::begin(&mut lock, format);
    let mut sink = |item: Output<'_, Cited>| -> io::Result<()> {
        match item {
            Output::Record(c) => {
                progress.inc();
                writer.entry(c)
            }
            Output::Skipped => {
                progress.inc();
                Ok(())
            }
            Output::Progress(_) => Ok(()),
            Output::Flush => writer.flush(),
        }
    };
    let lines = input.lines();
    let run = cite::cite_stream(&client, lines, &style, &mut sink);
    let totals = end_of_stream(interruptible(run).await, &progress, || writer.flush())?;
    writer.flush().map_err(Failure::Output)?;
    lock.flush().map_err(Failure::Output)?;
    ctx.note(&output::cite::summary(&totals));
    super::require_input(totals.submitted, "PMIDs")?;
    Ok(totals.exit())
}
