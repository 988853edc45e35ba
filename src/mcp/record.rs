//! The `record` option of `pubmed_search_articles` (docs/mcp.md "Recording
//! searches"): a search record appended to a file of the directory the
//! server was started with (`PUBMED_MCP_RECORD_DIR=DIR pubmed mcp`), named by a
//! bare file name, never a path, so a client cannot write anywhere else.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::{Value, json};

use super::schema::{Arg, Values};
use crate::error::{Error, Reason};
use crate::ops::recorded::{self, AppendError, Searched};
use crate::ops::search::{SearchOutcome, SearchRequest};

/// The argument's name.
pub const ARG: &str = "record";

/// The environment variable naming the records directory.
pub const ENV: &str = "PUBMED_MCP_RECORD_DIR";

/// Longest record file name, in bytes.
const NAME_MAX: usize = 100;

/// The records directory, read once from [`ENV`] (unset or empty: none).
fn dir() -> Option<&'static PathBuf> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        std::env::var_os(ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    })
    .as_ref()
}

/// Checks the records directory when the server starts.
///
/// Errors: `invalid_argument` naming it when it is set and not a directory.
pub fn check_dir() -> Result<(), Error> {
    match dir() {
        Some(d) if !d.is_dir() => Err(invalid(format!("{ENV}={}: not a directory", d.display()))),
        _ => Ok(()),
    }
}

/// The tool argument, offered only when the server has a records
/// directory (a client of a server without one never sees it).
pub fn arg() -> Option<Arg> {
    dir().map(|_| {
        Arg::text(
            ARG,
            "Append a record of this search (for a review's PRISMA-S report and `pubmed rerun`) to this file of the server's records directory: a file name ending in .jsonl (letters, digits, ., _, -), never a path.",
        )
    })
}

/// Checks the `record` argument before the search: the path it names, or
/// `None` without it.
///
/// Errors: `invalid_argument` when the server has no records directory,
/// the name is not a bare `.jsonl` file name, or names a symbolic link.
pub fn target(v: &Values) -> Result<Option<PathBuf>, Error> {
    let Some(name) = v.text(ARG) else {
        return Ok(None);
    };
    let dir = dir()
        .ok_or_else(|| invalid(format!("this server records no searches: {ENV} is not set")))?;
    file_in(dir, &name).map(Some)
}

/// `name` in `dir` when it is a bare record file name.
fn file_in(dir: &Path, name: &str) -> Result<PathBuf, Error> {
    let ok_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if !ok_chars || name.starts_with('.') || name.len() > NAME_MAX || !name.ends_with(".jsonl") {
        return Err(invalid(format!(
            "record must be a file name ending in .jsonl (letters, digits, ., _, -; at most {NAME_MAX} characters, not starting with .), not {name:?}"
        )));
    }
    let path = dir.join(name);
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(invalid(format!(
            "record {name:?} is a symbolic link in the records directory; records are only written to regular files there"
        )));
    }
    Ok(path)
}

fn invalid(msg: impl Into<String>) -> Error {
    Error::new(Reason::InvalidArgument, msg)
}

/// Appends the record of the page `o` to `path`; returns the `recorded`
/// output property.
///
/// Errors: `invalid_argument` when the file cannot be opened; `internal`
/// naming the file when the lock, write or sync fails (a full disk).
pub fn append(
    path: &Path,
    o: &SearchOutcome,
    req: &SearchRequest,
    base_url: &str,
) -> Result<Value, Error> {
    let searched = Searched::page(o, req);
    let rec = recorded::record(&searched, base_url, jiff::Timestamp::now());
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let rec = recorded::append(path, rec).map_err(|e| match e {
        AppendError::Open(_, e) => {
            invalid(format!("cannot append the search record to {name}: {e}"))
        }
        AppendError::Write(_, e) => Error::new(
            Reason::Internal,
            format!("cannot write the search record to {name}: {e}; the search was not recorded"),
        ),
    })?;
    Ok(json!({"file": name, "pmids": rec.pmid_count}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bare_jsonl_names_are_taken() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            file_in(dir.path(), "review-2026_a.jsonl").unwrap(),
            dir.path().join("review-2026_a.jsonl")
        );
        for bad in [
            "../x.jsonl",
            "/etc/x.jsonl",
            "a/b.jsonl",
            ".hidden.jsonl",
            "review.txt",
            "a b.jsonl",
            "..jsonl",
            "",
        ] {
            let e = file_in(dir.path(), bad).unwrap_err();
            assert_eq!(e.reason, Reason::InvalidArgument, "{bad}");
        }
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("l.jsonl")).unwrap();
        let e = file_in(dir.path(), "l.jsonl").unwrap_err();
        assert!(e.message.contains("symbolic link"), "{}", e.message);
    }
}
