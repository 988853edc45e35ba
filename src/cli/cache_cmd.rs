//! `pubmed cache path|stats|clear` (docs/cache.md).

use std::io::{self, Write};

use super::Context;
use crate::cache::{self, Cache, CacheMode};
use crate::error::{Error, Exit, Failure, Reason};

use clap::Subcommand;

crate::output::formats! {
    /// The formats of `cache stats`.
    pub enum CacheFormat { Text, Json }
}

impl crate::output::CommandFormat for CacheFormat {
    const COMMAND: &'static str = "cache stats";
    const TERMINAL: Self = CacheFormat::Text;
    const PIPE: Self = CacheFormat::Text;
}

pub(super) const CACHE_EXAMPLES: &str = "\
Examples:
  pubmed cache stats
  pubmed cache clear
  pubmed fetch 12091962 --cache refresh   # ask NCBI again and store the answer
  PUBMED_CACHE=off pubmed fetch 12091962  # no cache for this run

See docs/cache.md for what is kept and for how long.";

/// `pubmed cache …`
#[derive(Debug, Subcommand)]
pub enum CacheAction {
    /// Print the cache database's path
    Path,
    /// Print entries, bytes and stale entries per kind, the file's size and the bound
    Stats,
    /// Delete every entry (the next runs ask NCBI again)
    Clear,
}

pub(super) fn run(action: CacheAction, ctx: &Context) -> Result<Exit, Failure> {
    // The directory and bound as every command resolves them (flag >
    // environment > config file > default).
    let settings = crate::config::load(&ctx.flags, !ctx.quiet)?;
    for w in &settings.warnings {
        ctx.note(w);
    }
    let dir = settings.cache_dir().ok_or_else(|| {
        Error::new(
            Reason::InvalidArgument,
            "no cache directory could be found; set cache_dir, PUBMED_CACHE_DIR or HOME",
        )
    })?;
    let mut out = io::stdout().lock();
    if let CacheAction::Path = action {
        writeln!(out, "{}", dir.join(cache::FILE_NAME).display())?;
        out.flush()?;
        return Ok(Exit::Success);
    }
    let format = match action {
        CacheAction::Stats => Some(ctx.format_of::<CacheFormat>()?),
        _ => None,
    };
    // `cache stats|clear` work on the database whatever the run's mode.
    let note = |n: &str| ctx.note(n);
    let c = Cache::open(&dir, CacheMode::On, !ctx.quiet, &note)?
        .with_max_bytes(settings.cache_max_bytes.value.0);
    match (action, format) {
        (CacheAction::Clear, _) => {
            let n = c.clear()?;
            ctx.note(&format!("deleted {n} entries from {}", c.path().display()));
        }
        (_, Some(CacheFormat::Json)) => {
            serde_json::to_writer(&mut out, &c.stats()?).map_err(io::Error::other)?;
            writeln!(out)?;
        }
        (_, _) => {
            let s = c.stats()?;
            writeln!(out, "path\t{}", s.path.display())?;
            for k in &s.kinds {
                writeln!(
                    out,
                    "{}\t{} entries\t{} bytes\t{} stale\tttl {} days",
                    k.kind,
                    k.entries,
                    k.bytes,
                    k.stale,
                    k.ttl_s / 86_400
                )?;
            }
            writeln!(
                out,
                "file\t{} bytes (bound {} bytes)",
                s.file_bytes, s.max_bytes
            )?;
        }
    }
    out.flush()?;
    Ok(Exit::Success)
}
