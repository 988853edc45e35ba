//! The `cite` adapter: PMIDs as `fetch` reads them → the cite engine (one
//! formatted reference per PMID, in input order) → a streaming writer
//! (docs/cite.md). `--list-styles` prints the style names.

use std::io::{self, Write};

use super::args::CiteArgs;
use super::fetch::choose_input;
use super::progress::Counting;
use super::{Context, end_of_stream, interruptible};
use crate::error::{Exit, Failure};
use crate::ops::batch::Output;
use crate::ops::cite::{self, CiteStyle, Cited};
use crate::output::{self, CiteFormat};

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
