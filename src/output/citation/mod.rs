//! Reference-manager exports of fetched records (docs/cite.md): RIS,
//! BibTeX and CSL-JSON, one entry per input PMID in input order, streamed.
//! A PMID without a record gets an entry in its place (a RIS or BibTeX
//! comment line, a CSL-JSON item with a `note`), so entry N is input N.

use std::io::{self, Write};

use crate::core::citation::{csl_error_item, csl_item};
use crate::ops::fetch::Fetched;

pub mod bibtex;
pub mod ris;

pub use bibtex::{BibOptions, KeyStyle};

/// Which export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export {
    /// RIS tags, CR LF line ends.
    Ris,
    /// BibTeX entries.
    Bibtex,
    /// A CSL-JSON array, one item per line.
    CslJson,
}

/// A streaming writer for one export.
#[derive(Debug)]
pub struct CitationWriter {
    export: Export,
    bib: BibOptions,
    keys: bibtex::Keys,
    items: u64,
}

impl CitationWriter {
    /// A writer for `export` (BibTeX options apply to BibTeX only).
    pub fn new(export: Export, bib: BibOptions) -> CitationWriter {
        CitationWriter {
            export,
            bib,
            keys: bibtex::Keys::new(bib.keys),
            items: 0,
        }
    }

    /// Starts the output (CSL-JSON: the array's opening bracket).
    pub fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.export == Export::CslJson {
            write!(out, "[")?;
        }
        Ok(())
    }

    /// The entry of one input PMID as text (CSL-JSON: the item on one
    /// line, without the array's separators).
    pub fn entry(&mut self, f: &Fetched) -> io::Result<String> {
        let mut out = Vec::new();
        match (self.export, f.parsed()) {
            (Export::Ris, Ok(r)) => ris::write_record(&mut out, r)?,
            (Export::Ris, Err(e)) => {
                ris::write_error(&mut out, &f.pmid, e.reason.as_str(), &e.message)?
            }
            (Export::Bibtex, Ok(r)) => {
                let key = self.keys.key(r);
                bibtex::write_entry(&mut out, r, &key, self.bib)?
            }
            (Export::Bibtex, Err(e)) => {
                bibtex::write_error(&mut out, &f.pmid, e.reason.as_str(), &e.message)?
            }
            (Export::CslJson, r) => {
                let item = match r {
                    Ok(r) => csl_item(r),
                    Err(e) => csl_error_item(&f.pmid, e.reason.as_str(), &e.message),
                };
                serde_json::to_writer(&mut out, &item)?;
            }
        }
        String::from_utf8(out).map_err(io::Error::other)
    }

    /// Writes the entry of one input PMID.
    pub fn record(&mut self, out: &mut dyn Write, f: &Fetched) -> io::Result<()> {
        self.items += 1;
        let entry = self.entry(f)?;
        if self.export == Export::CslJson {
            if self.items > 1 {
                write!(out, ",")?;
            }
            writeln!(out)?;
        }
        out.write_all(entry.as_bytes())
    }

    /// The whole document of `entries` made by [`CitationWriter::entry`]:
    /// what [`CitationWriter::begin`], [`CitationWriter::record`] and
    /// [`CitationWriter::finish`] write.
    pub fn document(export: Export, entries: &[String]) -> String {
        match export {
            Export::CslJson => {
                let mut s = String::from("[");
                for (i, e) in entries.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    s.push('\n');
                    s.push_str(e);
                }
                s.push_str("\n]\n");
                s
            }
            _ => entries.concat(),
        }
    }

    /// Ends the output (CSL-JSON: the closing bracket).
    pub fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.export == Export::CslJson {
            writeln!(out, "\n]")?;
        }
        Ok(())
    }
}
