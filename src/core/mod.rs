//! The pure core: PubMed knowledge with no I/O (query rules, spell
//! alignment, field tags, text rules, full-record rules).

// One module per file of this directory (docs/adding-a-command.md);
// `reflist` is a directory.
automod::dir!(pub "src/core");
pub mod reflist;
