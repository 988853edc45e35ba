//! Configuration (docs/config.md): one table of knobs ([`KNOBS`]) gives
//! every setting's config-file key, flag, environment variable, type and
//! documentation. From it come `pubmed config set|show`, the keys the file
//! accepts, the defaults printed in `--help` and the man pages, and the
//! README's table.
//!
//! - [`mod@file`]: the TOML file, edited in place (comments and layout kept) and
//!   written atomically with mode 0600.
//! - [`mod@resolve`]: flag > environment > config file > default, resolved once
//!   into typed [`Settings`] that know each value's [`Source`], then into the
//!   client's [`ClientSettings`](crate::ncbi::ClientSettings).

use std::ffi::OsString;
use std::path::PathBuf;

pub mod file;
pub mod resolve;
pub mod value;

pub use file::ConfigFile;
pub use resolve::{Entry, Flags, Layers, Resolved, Settings, Source, load, resolve};
pub use value::{ApiKey, Bytes, HttpUrl, Invalid, KnobValue, Millis, Seconds, mask};

/// One setting of the knob table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConfigKey {
    /// `api_key`: NCBI API key.
    ApiKey,
    /// `email`: contact e-mail.
    Email,
    /// `tool`: tool name.
    Tool,
    /// `eutils_url`: E-utilities base URL.
    EutilsUrl,
    /// `idconv_url`: PMC ID Converter URL.
    IdconvUrl,
    /// `request_gap_ms`: gap between request starts.
    RequestGapMs,
    /// `max_retries`: retries after the first attempt.
    MaxRetries,
    /// `retry_base_ms`: first backoff.
    RetryBaseMs,
    /// `deadline_s`: deadline of one call.
    DeadlineS,
    /// `shared_budget`: one request budget for every `pubmed` of the user.
    SharedBudget,
    /// `europepmc_url`: Europe PMC REST base URL (`fulltext`'s fallback).
    EuropepmcUrl,
    /// `cache_mode`: how a run uses the local cache (docs/cache.md).
    CacheMode,
    /// `cache_max_bytes`: the cache's size bound.
    CacheMaxBytes,
    /// `cache_dir`: the cache's directory.
    CacheDir,
}

impl ConfigKey {
    /// Every key, in the table's (and `config show`'s) order.
    pub const ALL: [ConfigKey; 14] = [
        ConfigKey::ApiKey,
        ConfigKey::Email,
        ConfigKey::Tool,
        ConfigKey::EutilsUrl,
        ConfigKey::IdconvUrl,
        ConfigKey::RequestGapMs,
        ConfigKey::MaxRetries,
        ConfigKey::RetryBaseMs,
        ConfigKey::DeadlineS,
        ConfigKey::SharedBudget,
        ConfigKey::EuropepmcUrl,
        ConfigKey::CacheMode,
        ConfigKey::CacheMaxBytes,
        ConfigKey::CacheDir,
    ];

    /// This key's row of [`KNOBS`].
    pub fn knob(self) -> &'static Knob {
        &KNOBS[self as usize]
    }

    /// The config-file key, e.g. `api_key`.
    pub fn name(self) -> &'static str {
        self.knob().name
    }

    /// The key written exactly as in the config file.
    pub fn from_file_key(name: &str) -> Option<ConfigKey> {
        ConfigKey::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The keys joined with ", " (for messages).
    pub fn list() -> String {
        ConfigKey::ALL.map(ConfigKey::name).join(", ")
    }
}

impl std::fmt::Display for ConfigKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for ConfigKey {
    type Err = String;
    /// Case-insensitive, as `pubmed config set` takes it.
    fn from_str(s: &str) -> Result<Self, String> {
        ConfigKey::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown config key {s:?}; keys: {}", ConfigKey::list()))
    }
}

/// A knob's value type (its parser is in [`value`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Free text ([`String`]).
    Text,
    /// An NCBI API key ([`ApiKey`]): never echoed, masked when shown.
    ApiKey,
    /// An http(s) URL ([`HttpUrl`]).
    Url,
    /// Whole milliseconds, at most a day ([`Millis`]).
    Millis,
    /// A whole number ([`u32`]).
    Count,
    /// Seconds above 0, at most a day ([`Seconds`]).
    Seconds,
    /// On or off ([`bool`]).
    Switch,
    /// A cache mode ([`CacheMode`](crate::cache::CacheMode)).
    CacheMode,
    /// A whole number of bytes above 0 ([`Bytes`]).
    Bytes,
}

impl Kind {
    /// What a value of this kind looks like, for messages and docs.
    pub fn expected(self) -> &'static str {
        match self {
            Kind::Text => "a string",
            Kind::ApiKey => "an NCBI API key (letters and digits only)",
            Kind::Url => "an http(s) URL",
            Kind::Millis => "a whole number of milliseconds (at most 86400000)",
            Kind::Count => "a whole number",
            Kind::Seconds => "a number of seconds above 0 and at most 86400",
            Kind::Switch => "true or false (also on/off, yes/no, 1/0)",
            Kind::CacheMode => "a cache mode (on, searches, read, refresh, off)",
            Kind::Bytes => "a whole number of bytes above 0",
        }
    }

    /// A short type name for tables: `text`, `letters and digits`, `URL`, `ms`, `count`,
    /// `seconds`, `bool`, `cache mode`, `bytes`.
    pub fn short(self) -> &'static str {
        match self {
            Kind::Text => "text",
            Kind::ApiKey => "letters and digits",
            Kind::Url => "URL",
            Kind::Millis => "ms",
            Kind::Count => "count",
            Kind::Seconds => "seconds",
            Kind::Switch => "bool",
            Kind::CacheMode => "cache mode",
            Kind::Bytes => "bytes",
        }
    }

    /// Parses `text` (trimmed, not empty) and gives the TOML value
    /// `config set` writes.
    pub fn encode(self, text: &str) -> Result<toml_edit::Value, Invalid> {
        fn enc<T: KnobValue>(text: &str) -> Result<toml_edit::Value, Invalid> {
            T::parse(text).map(|v| v.to_toml())
        }
        match self {
            Kind::Text => enc::<String>(text),
            Kind::ApiKey => enc::<ApiKey>(text),
            Kind::Url => enc::<HttpUrl>(text),
            Kind::Millis => enc::<Millis>(text),
            Kind::Count => enc::<u32>(text),
            Kind::Seconds => enc::<Seconds>(text),
            Kind::Switch => enc::<bool>(text),
            Kind::CacheMode => enc::<crate::cache::CacheMode>(text),
            Kind::Bytes => enc::<Bytes>(text),
        }
    }

    /// Checks a config-file value.
    pub fn check(self, v: &toml_edit::Value) -> Result<(), Invalid> {
        fn chk<T: KnobValue>(v: &toml_edit::Value) -> Result<(), Invalid> {
            T::from_toml(v).map(drop)
        }
        match self {
            Kind::Text => chk::<String>(v),
            Kind::ApiKey => chk::<ApiKey>(v),
            Kind::Url => chk::<HttpUrl>(v),
            Kind::Millis => chk::<Millis>(v),
            Kind::Count => chk::<u32>(v),
            Kind::Seconds => chk::<Seconds>(v),
            Kind::Switch => chk::<bool>(v),
            Kind::CacheMode => chk::<crate::cache::CacheMode>(v),
            Kind::Bytes => chk::<Bytes>(v),
        }
    }

    /// Whether `config show` quotes values of this kind.
    pub fn quoted(self) -> bool {
        matches!(
            self,
            Kind::Text | Kind::ApiKey | Kind::Url | Kind::CacheMode
        )
    }
}

/// One row of the knob table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Knob {
    /// The setting.
    pub key: ConfigKey,
    /// Its config-file key.
    pub name: &'static str,
    /// Its command-line flag, if any.
    pub flag: Option<&'static str>,
    /// Its environment variable, if any.
    pub env: Option<&'static str>,
    /// Its value type.
    pub kind: Kind,
    /// Refused from a config file that others can write (docs/config.md
    /// "Permissions"): a key or URL there could send the key elsewhere.
    pub guarded: bool,
    /// One line of documentation.
    pub doc: &'static str,
}

/// The knob table, in [`ConfigKey::ALL`] order. Defaults are not written
/// here: they are the client's own (`ClientSettings::default()`), see
/// [`Knob::default_text`].
pub const KNOBS: [Knob; 14] = [
    Knob {
        key: ConfigKey::ApiKey,
        name: "api_key",
        flag: Some("--api-key"),
        env: Some("NCBI_API_KEY"),
        kind: Kind::ApiKey,
        guarded: true,
        doc: "NCBI API key: 10 requests per second instead of 3",
    },
    Knob {
        key: ConfigKey::Email,
        name: "email",
        flag: Some("--email"),
        env: Some("NCBI_EMAIL"),
        kind: Kind::Text,
        guarded: false,
        doc: "Contact e-mail sent to NCBI with every request",
    },
    Knob {
        key: ConfigKey::Tool,
        name: "tool",
        flag: Some("--tool"),
        env: None,
        kind: Kind::Text,
        guarded: false,
        doc: "Tool name sent to NCBI with every request",
    },
    Knob {
        key: ConfigKey::EutilsUrl,
        name: "eutils_url",
        flag: Some("--eutils-url"),
        env: Some("PUBMED_EUTILS_URL"),
        kind: Kind::Url,
        guarded: true,
        doc: "E-utilities base URL, e.g. a mirror, a proxy or a test server",
    },
    Knob {
        key: ConfigKey::IdconvUrl,
        name: "idconv_url",
        flag: Some("--idconv-url"),
        env: Some("PUBMED_IDCONV_URL"),
        kind: Kind::Url,
        guarded: true,
        doc: "PMC ID Converter URL",
    },
    Knob {
        key: ConfigKey::RequestGapMs,
        name: "request_gap_ms",
        flag: None,
        env: Some("PUBMED_REQUEST_GAP_MS"),
        kind: Kind::Millis,
        guarded: false,
        doc: "Minimum gap between request starts in milliseconds; 0 allowed",
    },
    Knob {
        key: ConfigKey::MaxRetries,
        name: "max_retries",
        flag: None,
        env: Some("PUBMED_MAX_RETRIES"),
        kind: Kind::Count,
        guarded: false,
        doc: "Retries of a failed request after the first attempt",
    },
    Knob {
        key: ConfigKey::RetryBaseMs,
        name: "retry_base_ms",
        flag: None,
        env: Some("PUBMED_RETRY_BASE_MS"),
        kind: Kind::Millis,
        guarded: false,
        doc: "First backoff in milliseconds, doubled per retry; also the first 429 cooldown",
    },
    Knob {
        key: ConfigKey::DeadlineS,
        name: "deadline_s",
        flag: Some("--timeout"),
        env: Some("PUBMED_DEADLINE_S"),
        kind: Kind::Seconds,
        guarded: false,
        doc: "Deadline of one NCBI call in seconds, retries included",
    },
    Knob {
        key: ConfigKey::SharedBudget,
        name: "shared_budget",
        flag: None,
        env: Some("PUBMED_SHARED_BUDGET"),
        kind: Kind::Switch,
        guarded: false,
        doc: "Share NCBI's request budget with every pubmed process of this user",
    },
    Knob {
        key: ConfigKey::EuropepmcUrl,
        name: "europepmc_url",
        flag: Some("--europepmc-url"),
        env: Some("PUBMED_EUROPEPMC_URL"),
        kind: Kind::Url,
        guarded: true,
        doc: "Europe PMC REST base URL, asked by fulltext when PMC has no open text",
    },
    Knob {
        key: ConfigKey::CacheMode,
        name: "cache_mode",
        flag: Some("--cache"),
        env: Some("PUBMED_CACHE"),
        kind: Kind::CacheMode,
        guarded: false,
        doc: "How runs use the local cache: on, searches, read, refresh or off (docs/cache.md)",
    },
    Knob {
        key: ConfigKey::CacheMaxBytes,
        name: "cache_max_bytes",
        flag: None,
        env: Some("PUBMED_CACHE_MAX_BYTES"),
        kind: Kind::Bytes,
        guarded: false,
        doc: "Size bound of the local cache in bytes; least recently used entries go first",
    },
    Knob {
        key: ConfigKey::CacheDir,
        name: "cache_dir",
        flag: None,
        env: Some("PUBMED_CACHE_DIR"),
        kind: Kind::Text,
        guarded: false,
        doc: "Directory of the local cache's database (cache.sqlite3)",
    },
];

impl Knob {
    /// The built-in default as shown in `--help`, the man pages and the
    /// README, taken from the client's defaults; `None` when the setting
    /// has none (API key, e-mail).
    pub fn default_text(&self) -> Option<String> {
        let defaults = Settings::defaults();
        let entry = defaults.entry(self.key);
        entry.value.clone().or_else(|| entry.unset.clone())
    }

    /// The help of this knob's flag: the doc line, then its variable and
    /// default, e.g. `… [env: PUBMED_DEADLINE_S; default: 60]`.
    pub fn flag_help(&self) -> String {
        let mut help = self.doc.to_string();
        if self.kind == Kind::ApiKey {
            help.push_str(
                " (visible in the process list; prefer the environment or the config file)",
            );
        }
        let mut tags = Vec::new();
        if let Some(env) = self.env {
            tags.push(format!("env: {env}"));
        }
        if let Some(d) = self.default_text() {
            tags.push(format!("default: {d}"));
        }
        if !tags.is_empty() {
            help.push_str(&format!(" [{}]", tags.join("; ")));
        }
        help
    }

    /// The help of this key in `pubmed config set`: the doc line, its type
    /// and default.
    pub fn value_help(&self) -> String {
        match self.default_text() {
            Some(d) => format!("{} ({}; default {d})", self.doc, self.kind.short()),
            None => format!("{} ({})", self.doc, self.kind.short()),
        }
    }
}

/// The config file's path: `$PUBMED_CONFIG` when set and not empty, else
/// `config.toml` in the platform config directory (e.g.
/// `~/.config/pubmed/config.toml`); `None` when there is no home directory.
pub fn config_path(env: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    if let Some(p) = env("PUBMED_CONFIG").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    directories::ProjectDirs::from("", "", "pubmed").map(|d| d.config_dir().join("config.toml"))
}

/// The directory of the shared request budget's state file:
/// `$XDG_RUNTIME_DIR` when set to an absolute path, else the platform cache
/// directory (e.g. `~/.cache/pubmed`); `None` when neither exists.
pub fn budget_dir(env: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    env("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            directories::ProjectDirs::from("", "", "pubmed").map(|d| d.cache_dir().to_path_buf())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_key_order_with_unique_names() {
        for (i, key) in ConfigKey::ALL.into_iter().enumerate() {
            assert_eq!(KNOBS[i].key, key);
            assert_eq!(ConfigKey::from_file_key(KNOBS[i].name), Some(key));
        }
        let mut envs: Vec<_> = KNOBS.iter().filter_map(|k| k.env).collect();
        envs.sort();
        envs.dedup();
        assert_eq!(envs.len(), 13);
        assert_eq!("API_KEY".parse::<ConfigKey>(), Ok(ConfigKey::ApiKey));
        assert_eq!(
            "colour".parse::<ConfigKey>().unwrap_err(),
            "unknown config key \"colour\"; keys: api_key, email, tool, eutils_url, idconv_url, \
             request_gap_ms, max_retries, retry_base_ms, deadline_s, shared_budget, europepmc_url, \
             cache_mode, cache_max_bytes, cache_dir"
        );
    }

    #[test]
    fn defaults_come_from_the_client() {
        let text = |k: ConfigKey| k.knob().default_text();
        assert_eq!(text(ConfigKey::ApiKey), None);
        assert_eq!(text(ConfigKey::Email), None);
        assert_eq!(text(ConfigKey::Tool).as_deref(), Some("pubmed-cli"));
        assert_eq!(
            text(ConfigKey::EutilsUrl).as_deref(),
            Some(crate::ncbi::DEFAULT_EUTILS_URL)
        );
        // NCBI allows 3 requests/s without a key, 10 with one: 400 ms and 110 ms.
        assert_eq!(
            text(ConfigKey::RequestGapMs).as_deref(),
            Some("400 without an API key, 110 with one")
        );
        assert_eq!(text(ConfigKey::MaxRetries).as_deref(), Some("6"));
        assert_eq!(text(ConfigKey::RetryBaseMs).as_deref(), Some("1000"));
        assert_eq!(text(ConfigKey::DeadlineS).as_deref(), Some("60"));
        assert_eq!(text(ConfigKey::SharedBudget).as_deref(), Some("true"));
        assert_eq!(text(ConfigKey::CacheMode).as_deref(), Some("on"));
        // 1 GiB.
        assert_eq!(
            text(ConfigKey::CacheMaxBytes).as_deref(),
            Some("1073741824")
        );
        assert_eq!(
            text(ConfigKey::CacheDir).as_deref(),
            Some("the platform cache directory (~/.cache/pubmed on Linux)")
        );
        assert_eq!(
            ConfigKey::DeadlineS.knob().flag_help(),
            "Deadline of one NCBI call in seconds, retries included \
             [env: PUBMED_DEADLINE_S; default: 60]"
        );
        assert_eq!(
            ConfigKey::Tool.knob().flag_help(),
            "Tool name sent to NCBI with every request [default: pubmed-cli]"
        );
    }

    #[test]
    fn the_budget_lives_in_the_runtime_dir_else_the_cache() {
        let env = |k: &str| (k == "XDG_RUNTIME_DIR").then(|| OsString::from("/run/user/1000"));
        assert_eq!(budget_dir(&env), Some(PathBuf::from("/run/user/1000")));
        let relative = |k: &str| (k == "XDG_RUNTIME_DIR").then(|| OsString::from("run"));
        let cache =
            directories::ProjectDirs::from("", "", "pubmed").map(|d| d.cache_dir().to_path_buf());
        assert_eq!(budget_dir(&relative), cache);
        assert_eq!(budget_dir(&|_| Some(OsString::new())), cache);
    }
}
