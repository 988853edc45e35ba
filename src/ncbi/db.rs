//! The Entrez databases E-utility calls name (`db`, `dbfrom`): every call
//! takes one, so a lookup in another database is a parameter, not new
//! client code.

use crate::core::choice::choice;

choice! {
    /// An Entrez database, as E-utilities spell it in `db` and `dbfrom`.
    #[derive(Default)]
    pub enum Db {
        /// PubMed citations (UIDs are PMIDs); the default.
        #[default]
        Pubmed = "pubmed",
        /// PubMed Central full-text articles (UIDs are PMCIDs' digits).
        Pmc = "pmc",
        /// MeSH, NLM's controlled vocabulary (UIDs are MeSH record IDs).
        Mesh = "mesh",
    }
}
