//! The pure core: PubMed knowledge with no I/O (query rules, spell
//! alignment, field tags, text rules, full-record rules).

pub mod choice;
pub mod citation;
pub mod citmatch;
pub mod dates;
pub mod fields;
pub mod ids;
pub mod jats;
pub mod mathml;
pub mod mesh;
pub mod query;
pub mod record;
pub mod reflist;
pub mod secret;
pub mod spell;
pub mod text;
pub mod trust;
