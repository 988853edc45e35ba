//! One module per operation: typed input in, typed output or a typed error
//! out. The CLI and MCP layers are thin adapters over these.

pub mod batch;
pub mod cite;
pub mod citmatch;
pub mod convert;
pub mod fallback;
pub mod fetch;
pub mod fulltext;
pub mod mesh;
pub mod record;
pub mod recorded;
pub mod related;
pub mod rerun;
pub mod resume;
pub mod search;
pub mod search_all;
pub mod spell;
