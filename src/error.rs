//! The one error type every operation returns: a [`Reason`] that maps to
//! an exit status and an MCP code, a message and a hint. [`Failure`] is why
//! a command or a streaming run stopped, and [`Exit`] the exit statuses the
//! binary documents (`--help`, README, `man pubmed`).

use std::fmt;
use std::io;

use crate::core::choice::Choice;

crate::core::choice::choice! {
    /// Why a call failed. The name (`as_str`, also serde's spelling) is the
    /// machine-readable `reason` printed in `--format json` errors and MCP
    /// `data.reason`. Declared in the order of the exit-status table, which
    /// [`Choice::ALL`] and [`Exit::meaning`] follow.
    pub enum Reason {
        /// NCBI says the ID or document does not exist.
        NcbiResourceNotFound = "ncbi_resource_not_found",
        /// The query or spell input has no search term.
        BlankQuery = "blank_query",
        /// A search filter has no term.
        BlankFilter = "blank_filter",
        /// An impossible date, or a start after the end.
        InvalidDateRange = "invalid_date_range",
        /// An ID does not fit its type.
        MalformedId = "malformed_id",
        /// Any other bad argument: limits, unknown field, caller errors NCBI reports.
        InvalidArgument = "invalid_argument",
        /// NCBI rejected the configured API key (HTTP 400 `API key invalid`).
        InvalidApiKey = "invalid_api_key",
        /// Every allowed attempt failed, or the next backoff would overrun the deadline.
        NcbiUnreachable = "ncbi_unreachable",
        /// The total deadline expired (queued, in flight or backing off).
        NcbiDeadlineExceeded = "ncbi_deadline_exceeded",
        /// A complete body that cannot be parsed.
        NcbiInvalidResponse = "ncbi_invalid_response",
        /// A failure that is neither NCBI's nor the caller's: the MCP server
        /// stopped on a protocol or transport failure, a signal listener
        /// could not be installed, or a state the code never reaches.
        Internal = "internal",
        /// NCBI answered HTTP 429 and the call stopped on it.
        NcbiRateLimited = "ncbi_rate_limited",
        /// The local request queue shed the call.
        QueueFull = "queue_full",
        /// Another run is writing the `--output` file (it holds its lock).
        OutputLocked = "output_locked",
        /// Writing the output failed (a full disk, `ulimit -f`, a file
        /// that cannot be written; not a closed pipe): exit 74, CLI only.
        OutputFailed = "output_failed",
    }
}

impl Reason {
    /// Advice to the caller: trying the same call later may succeed.
    pub fn retryable(self) -> bool {
        matches!(
            self,
            Reason::QueueFull
                | Reason::NcbiRateLimited
                | Reason::OutputLocked
                | Reason::NcbiUnreachable
                | Reason::NcbiDeadlineExceeded
                | Reason::NcbiInvalidResponse
        )
    }

    /// The CLI exit status of a command that stops with this reason.
    pub fn exit(self) -> Exit {
        match self {
            Reason::BlankQuery
            | Reason::BlankFilter
            | Reason::InvalidDateRange
            | Reason::MalformedId
            | Reason::InvalidArgument
            | Reason::InvalidApiKey => Exit::Usage,
            Reason::QueueFull | Reason::NcbiRateLimited | Reason::OutputLocked => Exit::TempFail,
            Reason::NcbiUnreachable
            | Reason::NcbiDeadlineExceeded
            | Reason::NcbiInvalidResponse => Exit::Unavailable,
            Reason::NcbiResourceNotFound => Exit::NotFound,
            Reason::Internal => Exit::Internal,
            Reason::OutputFailed => Exit::Output,
        }
    }

    /// [`Reason::exit`] as a number: 1, 2, 69, 70, 74 or 75.
    pub fn exit_code(self) -> u8 {
        self.exit().code()
    }

    /// JSON-RPC error code used in MCP tool errors (docs/errors.md "Reasons of a failed call").
    pub fn mcp_code(self) -> i32 {
        match self {
            Reason::BlankQuery
            | Reason::BlankFilter
            | Reason::InvalidDateRange
            | Reason::MalformedId => -32007,
            Reason::InvalidArgument => -32602,
            Reason::QueueFull | Reason::NcbiRateLimited | Reason::OutputLocked => -32003,
            Reason::NcbiUnreachable => -32000,
            Reason::NcbiDeadlineExceeded => -32004,
            Reason::NcbiInvalidResponse => -32070,
            Reason::NcbiResourceNotFound => -32001,
            Reason::Internal | Reason::OutputFailed => -32603,
            Reason::InvalidApiKey => -32005,
        }
    }

    /// A one-line recovery hint shown after the error.
    pub fn hint(self) -> &'static str {
        match self {
            Reason::BlankQuery => "give at least one search term",
            Reason::BlankFilter => "give the filter a term, or leave it out",
            Reason::InvalidDateRange => {
                "use YYYY, YYYY/MM or YYYY/MM/DD, with the start on or before the end"
            }
            Reason::MalformedId => {
                "PMIDs are digits, PMCIDs are PMC followed by digits, DOIs look like 10.1234/abc"
            }
            Reason::InvalidArgument => "check the arguments against `pubmed help`",
            Reason::QueueFull => "too many calls are waiting; retry after the given delay",
            Reason::OutputLocked => "wait for the other run to end, or give another --output",
            Reason::OutputFailed => "check the disk or the file that stdout goes to",
            Reason::NcbiRateLimited => {
                "set NCBI_API_KEY (or `pubmed config set api_key KEY`) to raise NCBI's limit from 3 to 10 requests/s, then retry later"
            }
            Reason::NcbiUnreachable => {
                "NCBI did not answer usefully; check the network or status.ncbi.nlm.nih.gov and retry later"
            }
            Reason::NcbiDeadlineExceeded => "NCBI is slow; retry later or raise --timeout",
            Reason::NcbiInvalidResponse => {
                "NCBI sent a body that is not what E-utilities document; retry later"
            }
            Reason::NcbiResourceNotFound => "check the ID; it may not exist in this database",
            Reason::Internal => {
                "this is pubmed's failure, not NCBI's or the input's; run it again, and report it if it persists"
            }
            Reason::InvalidApiKey => {
                "check the key in your NCBI account settings, or unset it (NCBI_API_KEY, `pubmed config set api_key ''`, --api-key) to work without one at 3 requests/s"
            }
        }
    }
}

/// An input of an operation's request that an error is about. The
/// operations name it; each surface spells it its own way (the CLI as a
/// flag such as `--mindate`, MCP as an argument path such as
/// `dateRange.minDate`; see docs/mcp.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// The search or spell query.
    Query,
    /// The ESearch `field` that limits untagged terms.
    SearchField,
    /// The earliest date (ESearch `mindate`).
    MinDate,
    /// The latest date (ESearch `maxdate`).
    MaxDate,
    /// The last N days (applied locally as `mindate`/`maxdate`).
    RelDate,
    /// The publication type filter.
    PublicationType,
    /// The author filter.
    Author,
    /// The journal filter.
    Journal,
    /// The MeSH term filter.
    MeshTerm,
    /// The language filter.
    Language,
    /// Records per page (ESearch `retmax`).
    Retmax,
    /// The first record, 0-based (ESearch `retstart`).
    Retstart,
    /// The IDs of the request (convert, fetch, cite, related).
    Ids,
    /// The citation style (`cite --style`).
    Style,
}

/// What a named part of a message refers to, so that each surface can name
/// it in its own terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    /// An input of the request.
    Field(Field),
    /// A PubMed search for this query (`pubmed search '…'` on the CLI, the
    /// search tool in MCP).
    Search(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Term { cli: String, term: Term },
    CliOnly(String),
}

/// A message whose named parts each surface spells its own way. The CLI
/// rendering (the text given with each part) is the error's `message`;
/// other surfaces render the same parts with their own names, and drop the
/// CLI-only advice in favour of their own hints.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Words(Vec<Part>);

impl Words {
    /// An empty message.
    pub fn new() -> Self {
        Words(Vec::new())
    }

    /// Text every surface shows.
    pub fn text(mut self, s: impl Into<String>) -> Self {
        self.0.push(Part::Text(s.into()));
        self
    }

    /// A named part: `cli` is how the CLI writes it.
    pub fn term(mut self, term: Term, cli: impl Into<String>) -> Self {
        self.0.push(Part::Term {
            cli: cli.into(),
            term,
        });
        self
    }

    /// An input, written `cli` on the CLI.
    pub fn field(self, field: Field, cli: impl Into<String>) -> Self {
        self.term(Term::Field(field), cli)
    }

    /// Advice only the CLI shows (it names flags or commands); other
    /// surfaces give their own hint instead.
    pub fn cli_only(mut self, s: impl Into<String>) -> Self {
        self.0.push(Part::CliOnly(s.into()));
        self
    }

    /// The CLI's rendering.
    pub fn cli(&self) -> String {
        self.0
            .iter()
            .map(|p| match p {
                Part::Text(s) | Part::CliOnly(s) | Part::Term { cli: s, .. } => s.as_str(),
            })
            .collect()
    }

    /// Another surface's rendering: `name` spells each named part; CLI-only
    /// advice is left out.
    pub fn render(&self, name: impl Fn(&Term) -> String) -> String {
        let mut out = String::new();
        for p in &self.0 {
            match p {
                Part::Text(s) => out.push_str(s),
                Part::Term { term, .. } => out.push_str(&name(term)),
                Part::CliOnly(_) => {}
            }
        }
        out
    }

    /// The first input named, if any.
    pub fn first_field(&self) -> Option<Field> {
        self.0.iter().find_map(|p| match p {
            Part::Term {
                term: Term::Field(f),
                ..
            } => Some(*f),
            _ => None,
        })
    }
}

/// A typed failure: `reason` decides exit code and MCP code, `message` is ours
/// (it names the endpoint, never a URL with `api_key`), `retry_after` is in
/// seconds when known (`queue_full`, `ncbi_rate_limited`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The machine-readable reason.
    pub reason: Reason,
    /// A short human message, as the CLI prints it.
    pub message: String,
    /// Seconds to wait before retrying, when known.
    pub retry_after: Option<u64>,
    /// A hint that fits this failure better than the reason's own.
    pub hint: Option<String>,
    /// The input the error is about, when it is about one.
    pub field: Option<Field>,
    /// `message` in parts, when it names inputs or CLI commands, so other
    /// surfaces can word it their own way.
    pub words: Option<Words>,
}

impl Error {
    /// An error with a reason and a message.
    pub fn new(reason: Reason, message: impl Into<String>) -> Self {
        Error {
            reason,
            message: message.into(),
            retry_after: None,
            hint: None,
            field: None,
            words: None,
        }
    }

    /// An error about `field`, with a message in parts (its CLI rendering
    /// becomes `message`).
    pub fn about(reason: Reason, field: Field, words: Words) -> Self {
        Error {
            message: words.cli(),
            field: Some(field),
            words: Some(words),
            ..Error::new(reason, "")
        }
    }

    /// Marks the input the error is about.
    pub fn with_field(mut self, field: Field) -> Self {
        self.field = Some(field);
        self
    }

    /// Replaces the reason's generic hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The recovery hint: this error's own, else the reason's.
    pub fn hint(&self) -> &str {
        self.hint.as_deref().unwrap_or(self.reason.hint())
    }

    /// Sets `retry_after` (seconds).
    pub fn with_retry_after(mut self, secs: u64) -> Self {
        self.retry_after = Some(secs);
        self
    }

    /// `{"reason", "message", "retryable", "hint", "retryAfter"?}` as printed
    /// under `"error"` on stderr with `--format json`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "reason": self.reason.as_str(),
            "message": self.message,
            "retryable": self.reason.retryable(),
            "hint": self.hint(),
        });
        if let Some(s) = self.retry_after {
            v["retryAfter"] = s.into();
        }
        v
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.reason)
    }
}

impl std::error::Error for Error {}

/// The exit statuses of `pubmed` (sysexits(3) numbers where one fits), in
/// the style of fd's `ExitCode`: the one list that `main`, `--help`, the
/// README table and the man page's EXIT STATUS follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Exit {
    /// 0: success, including zero hits, no suggestion and a closed pipe.
    Success,
    /// 1: NCBI says the record does not exist, or a batch found or
    /// converted nothing (every input failed on its own).
    NotFound,
    /// 2: input to change (usage errors and input reasons).
    Usage,
    /// 69 (`EX_UNAVAILABLE`): NCBI unavailable.
    Unavailable,
    /// 70 (`EX_SOFTWARE`): an internal failure (`internal`: the async
    /// runtime or the MCP server could not run).
    Internal,
    /// 74 (`EX_IOERR`): writing the output failed.
    Output,
    /// 75 (`EX_TEMPFAIL`): try again later.
    TempFail,
    /// 130 (128 + SIGINT): interrupted by Ctrl-C.
    Interrupted,
}

impl Exit {
    /// Every status, in numeric order.
    pub const ALL: [Exit; 8] = [
        Exit::Success,
        Exit::NotFound,
        Exit::Usage,
        Exit::Unavailable,
        Exit::Internal,
        Exit::Output,
        Exit::TempFail,
        Exit::Interrupted,
    ];

    /// The number the process exits with.
    pub fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::NotFound => 1,
            Exit::Usage => 2,
            Exit::Unavailable => 69,
            Exit::Internal => 70,
            Exit::Output => 74,
            Exit::TempFail => 75,
            Exit::Interrupted => 130,
        }
    }

    /// Two or three words for the `--help` summary line.
    pub fn short(self) -> &'static str {
        match self {
            Exit::Success => "ok",
            Exit::NotFound => "not found",
            Exit::Usage => "bad input",
            Exit::Unavailable => "NCBI unavailable",
            Exit::Internal => "internal error",
            Exit::Output => "output failed",
            Exit::TempFail => "rate limited (retry later)",
            Exit::Interrupted => "interrupted",
        }
    }

    /// A sentence for the README table and the man page, naming the
    /// reasons that end with this status.
    pub fn meaning(self) -> String {
        let reasons: Vec<&str> = Reason::ALL
            .iter()
            .filter(|r| r.exit() == self)
            .map(|r| r.as_str())
            .collect();
        let reasons = reasons.join(", ");
        match self {
            Exit::Success => {
                "Success, including zero hits, no spelling suggestion and a closed output pipe."
                    .into()
            }
            Exit::NotFound => format!(
                "NCBI says the record does not exist ({reasons}), or a batch (convert, search --all, fetch, related, cite) converted or found nothing: every input failed on its own."
            ),
            Exit::Usage => format!("Input to change: usage errors, {reasons}."),
            Exit::Unavailable => format!("NCBI unavailable: {reasons}."),
            Exit::Internal => format!(
                "Internal failure, neither NCBI's nor the input's ({reasons}): the async runtime could not start, the MCP server stopped on a protocol or transport failure, a signal listener could not be installed."
            ),
            Exit::Output => "Writing the output failed (a full disk, a closed file).".into(),
            Exit::TempFail => format!("Try again later: {reasons}."),
            Exit::Interrupted => {
                "Interrupted (Ctrl-C): the progress bar is cleared, every line written is whole."
                    .into()
            }
        }
    }

    /// `Exit status: 0 ok, 1 not found, …` for `--help`.
    pub fn summary() -> String {
        let parts: Vec<String> = Exit::ALL
            .iter()
            .map(|e| format!("{} {}", e.code(), e.short()))
            .collect();
        format!("Exit status: {}.", parts.join(", "))
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(e: Exit) -> Self {
        std::process::ExitCode::from(e.code())
    }
}

/// Why a command, or a streaming run (`search --all`, `convert`), stopped.
#[derive(Debug)]
pub enum Failure {
    /// A typed operation error; its reason decides the exit status.
    Op(Error),
    /// Writing the output failed; a closed pipe (`BrokenPipe`) exits 0.
    Output(io::Error),
    /// SIGINT (Ctrl-C) stopped a long run.
    Interrupted,
}

impl Failure {
    /// The exit status this failure ends the process with.
    pub fn exit(&self) -> Exit {
        match self {
            Failure::Op(e) => e.reason.exit(),
            Failure::Output(e) if e.kind() == io::ErrorKind::BrokenPipe => Exit::Success,
            Failure::Output(_) => Exit::Output,
            Failure::Interrupted => Exit::Interrupted,
        }
    }
}

impl Failure {
    /// The operation error of a run whose records are collected in memory
    /// (CLI arguments, MCP): its sink cannot fail and nothing listens for
    /// SIGINT there, so any other failure is a bug, reported as
    /// `internal` (exit 70) rather than a panic.
    pub fn into_op_error(self) -> Error {
        match self {
            Failure::Op(e) => e,
            f @ (Failure::Output(_) | Failure::Interrupted) => Error::new(
                Reason::Internal,
                format!("a run collected in memory stopped without an operation error: {f:?}"),
            ),
        }
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Op(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Output(e)
    }
}

/// Shorthand for results of this crate's operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_per_reason() {
        assert_eq!(Reason::BlankQuery.exit_code(), 2);
        assert_eq!(Reason::QueueFull.exit_code(), 75);
        assert_eq!(Reason::NcbiRateLimited.exit_code(), 75);
        assert_eq!(Reason::NcbiUnreachable.exit_code(), 69);
        assert_eq!(Reason::NcbiInvalidResponse.exit_code(), 69);
        assert_eq!(Reason::NcbiResourceNotFound.exit_code(), 1);
        assert_eq!(Reason::InvalidArgument.mcp_code(), -32602);
        assert_eq!(Reason::MalformedId.mcp_code(), -32007);
        assert_eq!(Reason::NcbiInvalidResponse.mcp_code(), -32070);
        assert_eq!(Reason::InvalidApiKey.exit_code(), 2);
        assert_eq!(Reason::InvalidApiKey.mcp_code(), -32005);
        // Neither NCBI's nor the caller's: EX_SOFTWARE and JSON-RPC's internal error.
        assert_eq!(Reason::Internal.exit_code(), 70);
        assert_eq!(Reason::Internal.mcp_code(), -32603);
        assert!(!Reason::Internal.retryable());
    }

    /// The name is serde's and `as_str`'s alike, read back in any case.
    #[test]
    fn reasons_are_spelled_once() {
        for r in Reason::ALL {
            assert_eq!(serde_json::to_value(r).unwrap(), r.as_str());
            assert_eq!(Reason::parse(&r.as_str().to_uppercase()), Some(*r));
        }
        assert_eq!(Reason::Internal.as_str(), "internal");
        assert_eq!(
            Reason::NcbiResourceNotFound.to_string(),
            "ncbi_resource_not_found"
        );
    }

    /// A run collected in memory that stops without an operation error is
    /// a bug: `internal`, exit 70, never `invalid_argument`.
    #[test]
    fn impossible_stream_failures_are_internal() {
        let e = Failure::Interrupted.into_op_error();
        assert_eq!(e.reason, Reason::Internal);
        assert_eq!(Failure::Op(e).exit(), Exit::Internal);
        let e = Failure::Output(io::Error::from(io::ErrorKind::StorageFull)).into_op_error();
        assert_eq!(e.reason, Reason::Internal);
        let op = Error::new(Reason::BlankQuery, "blank");
        assert_eq!(Failure::Op(op.clone()).into_op_error(), op);
        assert_eq!(
            Exit::Internal.meaning(),
            "Internal failure, neither NCBI's nor the input's (internal): the async runtime could not start, the MCP server stopped on a protocol or transport failure, a signal listener could not be installed."
        );
    }

    #[test]
    fn exit_statuses_are_the_documented_numbers() {
        let codes: Vec<u8> = Exit::ALL.iter().map(|e| e.code()).collect();
        assert_eq!(codes, [0, 1, 2, 69, 70, 74, 75, 130]);
        assert_eq!(
            Exit::Usage.meaning(),
            "Input to change: usage errors, blank_query, blank_filter, invalid_date_range, malformed_id, invalid_argument, invalid_api_key."
        );
        assert_eq!(
            Exit::TempFail.meaning(),
            "Try again later: ncbi_rate_limited, queue_full, output_locked."
        );
        assert!(Exit::summary().starts_with("Exit status: 0 ok, 1 not found, 2 bad input, 69 "));
        let broken = Failure::Output(io::Error::from(io::ErrorKind::BrokenPipe));
        assert_eq!(broken.exit(), Exit::Success);
        let full = Failure::Output(io::Error::from(io::ErrorKind::StorageFull));
        assert_eq!(full.exit(), Exit::Output);
        assert_eq!(Failure::Interrupted.exit().code(), 130);
        // every reason has a place in the table
        for r in Reason::ALL {
            assert!(Exit::ALL.contains(&r.exit()));
        }
    }

    #[test]
    fn json_shape_carries_retry_after_only_when_known() {
        let e = Error::new(Reason::QueueFull, "queue full").with_retry_after(3);
        let v = e.to_json();
        assert_eq!(v["reason"], "queue_full");
        assert_eq!(v["retryable"], true);
        assert_eq!(v["retryAfter"], 3);
        let v = Error::new(Reason::BlankQuery, "blank").to_json();
        assert!(v.get("retryAfter").is_none());
        assert_eq!(v["retryable"], false);
    }
}
