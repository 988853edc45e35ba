//! One module per operation: typed input in, typed output or a typed error
//! out. The CLI and MCP layers are thin adapters over these.

// One module per file of this directory (docs/adding-a-command.md).
automod::dir!(pub "src/ops");

/// The name of every reason one record of a batch can carry, each
/// operation's list once (a name repeats when two operations share it):
/// the rows of docs/errors.md "Reasons of one record", which
/// `tests/docs.rs` checks against this. A command whose records carry
/// reasons adds its list here.
pub fn per_record_reasons() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = [
        &convert::PER_RECORD_REASONS[..],
        &fetch::PER_RECORD_REASONS,
        &fulltext::PER_RECORD_REASONS,
    ]
    .concat()
    .into_iter()
    .map(record::RecordReason::as_str)
    .collect();
    names.push(cite::CiteReason::CitationFailed.as_str());
    // `matched` is a success and `failed` a chunk's reason from the shared table.
    names.extend(
        [
            citmatch::Status::NotFound,
            citmatch::Status::Ambiguous,
            citmatch::Status::InvalidCitation,
        ]
        .map(citmatch::Status::as_str),
    );
    names
}
