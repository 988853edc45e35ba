//! The `match` adapter: a reference list from a file or stdin → the
//! ECitMatch engine → a streaming writer, the summary on stderr
//! (docs/match.md).

use std::io::{self, IsTerminal, Read, Write};

use super::{Context, end_of_stream, interruptible};
use crate::core::reflist::{self, ListKind};
use crate::error::{Error, Exit, Failure, Reason};
use crate::ops::batch::Output;
use crate::ops::citmatch;
use crate::output::{self, citmatch::MatchFormat};

use super::choice::choice;
use clap::Args;

pub(super) const MATCH_EXAMPLES: &str = "\
Examples:
  pubmed match refs.txt                  # journal|year|volume|first_page|author|key| lines
  pubmed match refs.csv -f json          # CSV with journal, year, volume, first_page, author, key columns
  echo 'proc natl acad sci u s a|1991|88|3248|mann bj|Art1|' | pubmed match -
  pubmed match refs.tsv -f ids | pubmed fetch -f ris";

/// `pubmed match [FILE]`
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The reference list (`-` or none: stdin)
    #[arg(value_name = "FILE")]
    pub input: Option<String>,
    /// The list's form [default: by the file name: .csv, .tsv, .bib, .ris, else pipe lines]
    #[arg(long, value_name = "FORM", value_parser = choice::<crate::core::reflist::ListKind>())]
    pub from: Option<crate::core::reflist::ListKind>,
    /// BibTeX or RIS: write the list, with the PMID (and PMCID/DOI found) added to each matched entry that lacks them, to this new FILE (never overwritten)
    #[arg(long, visible_alias = "write-back", value_name = "FILE")]
    pub bib_out: Option<std::path::PathBuf>,
}

fn read_input(path: Option<&str>) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    match path {
        None | Some("-") => {
            if path.is_none() && io::stdin().is_terminal() {
                return Err(Error::new(
                    Reason::InvalidArgument,
                    "give a reference list: a FILE, or `-` for stdin",
                )
                .into());
            }
            io::stdin().read_to_end(&mut bytes).map_err(|e| {
                Error::new(Reason::InvalidArgument, format!("cannot read stdin: {e}"))
            })?;
        }
        Some(p) => {
            bytes = std::fs::read(p).map_err(|e| {
                Error::new(Reason::InvalidArgument, format!("cannot read {p}: {e}"))
            })?;
        }
    }
    String::from_utf8(bytes).map_err(|_| {
        Error::new(
            Reason::InvalidArgument,
            "the reference list is not valid UTF-8",
        )
        .into()
    })
}

pub(super) async fn run(a: MatchArgs, ctx: &Context) -> Result<Exit, Failure> {
    let format = ctx.format_of::<MatchFormat>()?;
    let kind = a
        .from
        .unwrap_or_else(|| ListKind::of_path(a.input.as_deref().unwrap_or_default()));
    let text = read_input(a.input.as_deref())?;
    if a.bib_out.is_some() && !matches!(kind, ListKind::Bibtex | ListKind::Ris) {
        return Err(Error::new(
            Reason::InvalidArgument,
            "--bib-out/--write-back needs a BibTeX or RIS list (--from bibtex|ris, or a .bib/.ris FILE)",
        )
        .into());
    }
    // Refused before any request (the write itself still never replaces a
    // file that appears meanwhile: `write_new`).
    if let Some(out) = &a.bib_out
        && std::fs::symlink_metadata(out).is_ok()
    {
        return Err(Error::new(
            Reason::InvalidArgument,
            format!(
                "{} exists: --bib-out/--write-back writes a new file and never replaces one; name another",
                out.display()
            ),
        )
        .into());
    }
    let refs = reflist::read(&text, kind).map_err(|m| Error::new(Reason::InvalidArgument, m))?;
    super::require_input(refs.len() as u64, "references")?;
    let client = ctx.client()?;

    let stdout = io::stdout();
    let mut lock = io::BufWriter::new(stdout.lock());
    let mut writer = output::citmatch::Writer::begin(&mut lock, format, ctx.style)?;
    let mut matched: Vec<Found> = Vec::new();
    let mut sink = |item: Output<'_, citmatch::MatchRecord>| -> io::Result<()> {
        match item {
            Output::Record(r) => {
                matched.push([
                    ("pmid", r.pmid.clone()),
                    ("pmcid", r.pmcid.clone()),
                    ("doi", r.doi.clone()),
                ]);
                writer.record(r)
            }
            Output::Flush => Ok(()),
            Output::Skipped | Output::Progress(_) => Ok(()),
        }
    };
    let run = citmatch::match_stream(&client, refs, &mut sink);
    let progress = ctx.progress(super::progress::Counting::Ids(None));
    let totals = end_of_stream(interruptible(run).await, &progress, || Ok(()))?;
    writer.finish(&totals)?;
    lock.flush()?;
    if let Some(out) = &a.bib_out {
        let body = if kind == ListKind::Ris {
            ris_body(&text, &matched)?
        } else {
            bib_body(&text, &matched)?
        };
        write_new(out, &body)?;
    }
    let by: Vec<String> = totals
        .by_reason
        .iter()
        .map(|(k, v)| format!("{v} {k}"))
        .collect();
    ctx.note(&format!(
        "matched {} of {} references{}",
        totals.succeeded,
        totals.submitted,
        if by.is_empty() {
            String::new()
        } else {
            format!(" ({})", by.join(", "))
        }
    ));
    Ok(totals.exit())
}

/// What a record found, by BibTeX/RIS field name.
type Found = [(&'static str, Option<String>); 3];

/// `src` with each matched entry's PMID, and the PMCID and DOI found,
/// added where the entry lacks them. `found` are the records in order, one
/// per entry without a `pmid`.
fn bib_body(src: &str, found: &[Found]) -> Result<String, Failure> {
    let entries = reflist::bibtex::read(src).map_err(|m| Error::new(Reason::InvalidArgument, m))?;
    let found: Vec<(usize, Vec<(String, String)>)> = entries
        .iter()
        .filter(|e| e.reference.is_some())
        .zip(found)
        .map(|(e, f)| {
            (
                e.close,
                if f[0].1.is_some() {
                    e.missing(f)
                } else {
                    Vec::new()
                },
            )
        })
        .collect();
    Ok(reflist::bibtex::write_back(src, &found))
}

/// `src` with each matched record's `AN` (PMID) and `DO` (DOI) added where
/// the record lacks them (RIS has no PMCID tag). `found` as [`bib_body`].
fn ris_body(src: &str, found: &[Found]) -> Result<String, Failure> {
    let entries = reflist::ris::read(src).map_err(|m| Error::new(Reason::InvalidArgument, m))?;
    let found: Vec<reflist::ris::Additions<'_>> = entries
        .iter()
        .filter(|e| e.reference.is_some())
        .zip(found)
        .map(|(e, f)| {
            let tags = [("AN", f[0].1.clone()), ("DO", f[2].1.clone())];
            let add = if f[0].1.is_some() {
                e.missing(&tags)
            } else {
                Vec::new()
            };
            (e.end, e.eol, add)
        })
        .collect();
    Ok(reflist::ris::write_back(src, &found))
}

/// Writes `body` to the new file `out` (a temporary file beside it, linked
/// without replacing: an existing `out` is refused, the user's file never
/// touched).
fn write_new(out: &std::path::Path, body: &str) -> Result<(), Failure> {
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    let named = |e: io::Error| super::outfile::naming(out, e);
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(named)?;
    tmp.write_all(body.as_bytes()).map_err(named)?;
    tmp.as_file().sync_all().map_err(named)?;
    tmp.persist_noclobber(out).map_err(|e| named(e.error))?;
    Ok(())
}
