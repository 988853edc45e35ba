//! Formatters: render operation results as tables, JSON, NDJSON, CSV/TSV,
//! plain text or ID lists. Separate from the operations; they only write.
//! Text from a query or from NCBI goes out [`printable`] (JSON escapes it).

use std::io::{self, Write};

use comfy_table::{Cell, ContentArrangement, Table, presets};

use crate::core::choice::{Choice, choice};
use crate::core::text::printable;

pub mod citation;
pub mod cite;
pub mod citmatch;
pub mod convert;
pub mod delimited;
pub mod fetch;
pub mod fulltext;
pub mod mesh;
pub mod related;
pub mod rerun;
pub mod search;
pub mod search_all;
pub mod spell;
pub mod stream;
pub mod table;

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

/// Defines the formats of one command (or one MCP tool), here beside the
/// others, as an enum of some of [`Format`]'s variants, with [`Choice`]
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
                #[doc = concat!("[`Format::", stringify!($variant), "`].")]
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

formats! {
    /// The formats of `spell`.
    pub enum SpellFormat { Text, Json, Table }
}

impl CommandFormat for SpellFormat {
    const COMMAND: &'static str = "spell";
    const TERMINAL: Self = SpellFormat::Table;
    const PIPE: Self = SpellFormat::Text;
}

formats! {
    /// The formats of `search` (one page).
    pub enum SearchFormat { Table, Json, Ndjson, Csv, Tsv, Ids }
}

impl CommandFormat for SearchFormat {
    const COMMAND: &'static str = "search";
    const TERMINAL: Self = SearchFormat::Table;
    const PIPE: Self = SearchFormat::Ids;
}

formats! {
    /// The formats of `search --all`: streamed, so no table and no JSON
    /// document.
    pub enum SearchAllFormat { Ids, Ndjson, Csv, Tsv }
}

impl CommandFormat for SearchAllFormat {
    const COMMAND: &'static str = "search --all";
    const TERMINAL: Self = SearchAllFormat::Ids;
    const PIPE: Self = SearchAllFormat::Ids;
}

formats! {
    /// The formats of `convert`.
    pub enum ConvertFormat { Table, Json, Ndjson, Csv, Tsv, Ids }
}

impl CommandFormat for ConvertFormat {
    const COMMAND: &'static str = "convert";
    const TERMINAL: Self = ConvertFormat::Table;
    const PIPE: Self = ConvertFormat::Tsv;
    const NOTE: &'static str = "; ids with --to";
}

formats! {
    /// The formats of `related`.
    pub enum RelatedFormat { Table, Json, Ndjson, Csv, Tsv, Ids }
}

impl CommandFormat for RelatedFormat {
    const COMMAND: &'static str = "related";
    const TERMINAL: Self = RelatedFormat::Table;
    const PIPE: Self = RelatedFormat::Ids;
}

formats! {
    /// The formats of `fetch`.
    pub enum FetchFormat {
        Abstract, Medline, Xml, Json, Ndjson, Csv, Tsv, Table, Ris, Bibtex, CslJson,
    }
}

impl CommandFormat for FetchFormat {
    const COMMAND: &'static str = "fetch";
    const TERMINAL: Self = FetchFormat::Abstract;
    const PIPE: Self = FetchFormat::Ndjson;
}

formats! {
    /// The formats of `fulltext`.
    pub enum FulltextFormat { Markdown, Text, Json, Ndjson, Jats }
}

impl CommandFormat for FulltextFormat {
    const COMMAND: &'static str = "fulltext";
    const TERMINAL: Self = FulltextFormat::Markdown;
    const PIPE: Self = FulltextFormat::Markdown;
}

formats! {
    /// The formats of `cite`.
    pub enum CiteFormat { Text, Html, Markdown }
}

impl CommandFormat for CiteFormat {
    const COMMAND: &'static str = "cite";
    const TERMINAL: Self = CiteFormat::Text;
    const PIPE: Self = CiteFormat::Text;
}

formats! {
    /// The formats of `config show` (a table is the text listing).
    pub enum ConfigFormat { Text, Json, Table }
}

impl CommandFormat for ConfigFormat {
    const COMMAND: &'static str = "config show";
    const TERMINAL: Self = ConfigFormat::Table;
    const PIPE: Self = ConfigFormat::Text;
}

formats! {
    /// The formats of `cache stats`.
    pub enum CacheFormat { Text, Json }
}

impl CommandFormat for CacheFormat {
    const COMMAND: &'static str = "cache stats";
    const TERMINAL: Self = CacheFormat::Text;
    const PIPE: Self = CacheFormat::Text;
}

formats! {
    /// The formats of `mesh`.
    pub enum MeshFormat { Table, Json, Ndjson, Tsv, Ids }
}

impl CommandFormat for MeshFormat {
    const COMMAND: &'static str = "mesh";
    const TERMINAL: Self = MeshFormat::Table;
    const PIPE: Self = MeshFormat::Tsv;
}

formats! {
    /// The formats of `match`.
    pub enum MatchFormat { Table, Json, Ndjson, Tsv, Ids }
}

impl CommandFormat for MatchFormat {
    const COMMAND: &'static str = "match";
    const TERMINAL: Self = MatchFormat::Table;
    const PIPE: Self = MatchFormat::Tsv;
}

formats! {
    /// The formats of `rerun` (`markdown` is `--report`'s PRISMA-S summary).
    pub enum RerunFormat { Table, Json, Markdown }
}

impl CommandFormat for RerunFormat {
    const COMMAND: &'static str = "rerun";
    const TERMINAL: Self = RerunFormat::Table;
    const PIPE: Self = RerunFormat::Table;
    const NOTE: &'static str = "; markdown with --report";
}

/// Something done with each command's formats, one [`CommandFormat`] at a
/// time: see [`each_command_format`].
pub trait FormatVisitor {
    /// Called once per command format set, `F`.
    fn visit<F: CommandFormat>(&mut self);
}

/// Visits every [`CommandFormat`] above, in the order of the commands'
/// help: the one list of them. `tests/docs.rs` checks each subcommand's
/// `-f` (`--help`, man page, clap values: `cli::command`) against
/// it, and [`cli::Context::format_of`](crate::cli::Context::format_of)
/// refuses, in debug builds, a set that is not listed. A new command's
/// formats add one line here, beside their definition.
pub fn each_command_format(v: &mut impl FormatVisitor) {
    v.visit::<SpellFormat>();
    v.visit::<SearchFormat>();
    v.visit::<SearchAllFormat>();
    v.visit::<ConvertFormat>();
    v.visit::<RelatedFormat>();
    v.visit::<FetchFormat>();
    v.visit::<CiteFormat>();
    v.visit::<FulltextFormat>();
    v.visit::<MeshFormat>();
    v.visit::<MatchFormat>();
    v.visit::<RerunFormat>();
    v.visit::<ConfigFormat>();
    v.visit::<CacheFormat>();
}

/// The [`CommandFormat::COMMAND`] of each set [`each_command_format`]
/// visits, in its order.
pub fn command_names() -> Vec<&'static str> {
    struct Names(Vec<&'static str>);
    impl FormatVisitor for Names {
        fn visit<F: CommandFormat>(&mut self) {
            self.0.push(F::COMMAND);
        }
    }
    let mut names = Names(Vec::new());
    each_command_format(&mut names);
    names.0
}

formats! {
    /// The formats of MCP `pubmed_format_citations`: the reference-manager
    /// exports, or references in a style.
    pub enum ToolCiteFormat { Ris, Bibtex, CslJson, Text }
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
