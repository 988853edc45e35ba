//! The pure core: PubMed knowledge with no I/O (query rules, spell
//! alignment, field tags, text rules).

pub mod fields;
pub mod spell;
pub mod text;
