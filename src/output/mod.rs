//! Formatters: render operation results as tables, JSON, NDJSON, CSV/TSV,
//! plain text or ID lists. Separate from the operations; they only write.
//! Text from a query or from NCBI goes out [`printable`] (JSON escapes it).

use std::io::{self, Write};

use comfy_table::{Cell, ContentArrangement, Table, presets};

use crate::core::choice::{Choice, choice};
use crate::core::text::printable;

choice! {
    /// An output format (`--format`).
    pub enum Format {
        /// A table for people (default on a terminal).
        Table = "table",
        /// Plain text (`spell`: the corrected query alone).
        Text = "text",
        /// One JSON document.
        Json = "json",
        /// One JSON object per line.
        Ndjson = "ndjson",
        /// RFC 4180 CSV with a header row.
        Csv = "csv",
        /// Tab-separated values with a header row.
        Tsv = "tsv",
        /// One ID per line.
        Ids = "ids",
        /// A readable record per article (`fetch`, default on a terminal).
        Abstract = "abstract",
        /// NCBI's MEDLINE text (`fetch`).
        Medline = "medline",
        /// NCBI's `PubmedArticleSet` XML (`fetch`).
        Xml = "xml",
        /// RIS for reference managers (`fetch`).
        Ris = "ris",
        /// BibTeX entries (`fetch`).
        Bibtex = "bibtex",
        /// A CSL-JSON array (`fetch`).
        CslJson = "csl-json",
        /// HTML references (`cite`).
        Html = "html",
        /// Markdown references (`cite`); the article (`fulltext`).
        Markdown = "markdown",
        /// PMC's JATS XML as received (`fulltext`).
        Jats = "jats",
    }
}

impl Format {
    /// True for formats whose errors are printed as JSON on stderr.
    pub fn is_json(self) -> bool {
        matches!(self, Format::Json | Format::Ndjson)
    }
}

/// Defines the formats of one command (or one MCP tool), in the module
/// that writes them, as an enum of some of [`Format`]'s variants, with [`Choice`]
/// (names are `Format`'s), `Display`, `FromStr`, serde, `From<Self> for
/// Format` and `TryFrom<Format>` (the global `-f` converted in the
/// adapter). Writers match on it exhaustively, and `--help`, completions
/// and man pages list exactly its values (`cli::command`).
macro_rules! formats {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident { $($variant:ident),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $(
                #[doc = concat!(
                    "[`Format::", stringify!($variant),
                    "`](crate::output::Format::", stringify!($variant), ")."
                )]
                $variant
            ),+
        }

        impl $name {
            /// The format's name (`Format`'s), as typed after `-f`.
            $vis const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $crate::output::Format::$variant.as_str() ),+
                }
            }
        }

        impl From<$name> for $crate::output::Format {
            fn from(f: $name) -> Self {
                match f {
                    $( $name::$variant => $crate::output::Format::$variant ),+
                }
            }
        }

        impl TryFrom<$crate::output::Format> for $name {
            /// The format given, which this set does not hold.
            type Error = $crate::output::Format;

            fn try_from(f: $crate::output::Format) -> Result<Self, Self::Error> {
                match f {
                    $( $crate::output::Format::$variant => Ok($name::$variant), )+
                    other => Err(other),
                }
            }
        }

        impl $crate::core::choice::Choice for $name {
            const ALL: &'static [Self] = &[$($name::$variant),+];

            fn as_str(self) -> &'static str {
                $name::as_str(self)
            }
        }

        $crate::core::choice::choice_traits!($name);
    };
}
// For the commands whose writer is their adapter (`config show`, `cache stats`).
pub(crate) use formats;

// One module per file of this directory (docs/adding-a-command.md),
// after `formats!` so that each command's module defines its formats
// with it; `citation` is a directory.
automod::dir!(pub "src/output");
pub mod citation;

/// The formats of a command, converted from the global `-f` by its
/// adapter (`cli::Context::format_of`), with what it writes when `-f` is
/// not given.
pub trait CommandFormat:
    Choice + Into<Format> + TryFrom<Format, Error = Format> + Send + Sync
{
    /// The command as messages name it (`search`, `search --all`).
    const COMMAND: &'static str;
    /// The format when stdout is a terminal.
    const TERMINAL: Self;
    /// The format in a pipe or a file.
    const PIPE: Self;
    /// Said after the defaults in `--help` (`; ids with --to`).
    const NOTE: &'static str = "";

    /// The subcommand whose own `-f` takes these formats, as the words of
    /// [`COMMAND`](Self::COMMAND) (`["config", "show"]`); `None` when
    /// `COMMAND` names a mode of a command (`search --all`, whose help
    /// names its formats), not a subcommand.
    fn subcommand() -> Option<Vec<&'static str>> {
        let words: Vec<&'static str> = Self::COMMAND.split(' ').collect();
        (!words.iter().any(|w| w.starts_with('-'))).then_some(words)
    }

    /// The `-f` help line: the defaults.
    fn help() -> String {
        let (t, p) = (Self::TERMINAL.as_str(), Self::PIPE.as_str());
        let defaults = if t == p {
            t.to_string()
        } else {
            format!("{t} on a terminal, {p} in a pipe")
        };
        format!("Output format [default: {defaults}{}]", Self::NOTE)
    }
}

/// Something done with each command's formats, one [`CommandFormat`] at a
/// time: see [`cli::each_command_format`](crate::cli::each_command_format).
pub trait FormatVisitor {
    /// Called once per command format set, `F`.
    fn visit<F: CommandFormat>(&mut self);

    /// Called once per subcommand without formats of its own, at `words`
    /// (`["config", "path"]`).
    fn no_formats(&mut self, words: &[&str]) {
        let _ = words;
    }
}

choice! {
    /// When to use colour (`--color`).
    #[derive(Default)]
    pub enum ColorWhen {
        /// On a terminal, unless `NO_COLOR` is set and not empty.
        #[default]
        Auto = "auto",
        /// Always.
        Always = "always",
        /// Never.
        Never = "never",
    }
}

/// How human output looks: colour and width.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    /// Use ANSI colour and bold.
    pub color: bool,
    /// Table width in columns; `None` lets the table size itself.
    pub width: Option<u16>,
}

impl Style {
    /// A table that wraps long cells to the width rather than cutting them
    /// (written with [`write_table`]).
    pub fn table(&self) -> Table {
        let mut t = Table::new();
        t.load_style(presets::UTF8_FULL_CONDENSED);
        t.set_content_arrangement(ContentArrangement::Dynamic);
        if let Some(w) = self.width {
            t.set_width(w);
        } else if t.width().is_some_and(|w| w < 30) {
            // A terminal that reports no size (e.g. under `script`): don't
            // squeeze every column to one character.
            t.set_width(100);
        }
        if self.color {
            t.enforce_styling();
        }
        t
    }

    /// `text` in bold when colour is on.
    pub fn bold(&self, text: &str) -> String {
        if self.color {
            format!("\x1b[1m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// Writes a table at its natural width when that fits the terminal (or
/// `COLUMNS`), else at the full width with long cells wrapped: the
/// terminal's width is used, not a part of it (comfy-table's `Dynamic`
/// leaves columns narrower than the space there is).
pub fn write_table(out: &mut dyn Write, mut t: Table) -> io::Result<()> {
    if let Some(width) = t.width() {
        let widths = t.column_max_content_widths();
        // Each column: its content, one space each side, one border.
        let natural: usize = widths.iter().map(|w| usize::from(*w) + 3).sum::<usize>() + 1;
        t.set_content_arrangement(if natural > usize::from(width) {
            ContentArrangement::DynamicFullWidth
        } else {
            ContentArrangement::Disabled
        });
    }
    writeln!(out, "{t}")
}

/// A table cell holding `text` made [`printable`]: one line, no escape
/// sequences.
pub fn cell(text: &str) -> Cell {
    Cell::new(printable(text))
}

/// Writes `value` as pretty JSON followed by a newline.
pub fn write_json<T: serde::Serialize>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}

/// Writes `value` as one compact JSON line.
pub fn write_json_line<T: serde::Serialize>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    // Made whole, then one write: serde_json writes a record in dozens of
    // small pieces, each a dynamic call through `out`.
    let mut line = serde_json::to_vec(value)?;
    line.push(b'\n');
    out.write_all(&line)
}
