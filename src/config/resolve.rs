//! Resolution (docs/config.md "Precedence"): for each knob of the table,
//! flag > environment > config file > default, into typed [`Settings`]
//! that remember where each value came from. An empty value (a flag, a
//! variable, a file string) does not hide the layers below it. Every layer
//! is checked, even one a higher layer overrides, so `config show` and
//! every command agree on what is broken.

use std::ffi::OsString;
use std::path::PathBuf;

use super::{ApiKey, Bytes, ConfigFile, ConfigKey, HttpUrl, Invalid, KnobValue, Millis, Seconds};
use crate::cache::CacheMode;
use crate::error::{Error, Reason, Result};
use crate::ncbi::{ClientSettings, Policy};

/// Connection options given as flags, as plain values (no clap types).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Flags {
    /// `--api-key`.
    pub api_key: Option<String>,
    /// `--email`.
    pub email: Option<String>,
    /// `--tool`.
    pub tool: Option<String>,
    /// `--eutils-url`.
    pub eutils_url: Option<String>,
    /// `--idconv-url`.
    pub idconv_url: Option<String>,
    /// `--europepmc-url`.
    pub europepmc_url: Option<String>,
    /// `--timeout SECS`: the per-call deadline.
    pub timeout: Option<f64>,
    /// `--cache MODE`.
    pub cache: Option<CacheMode>,
    /// `-v`: log each request on stderr.
    pub verbose: bool,
}

/// Where a setting came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A command-line flag (named).
    Flag(&'static str),
    /// An environment variable (named).
    Env(&'static str),
    /// The config file.
    File,
    /// Built in.
    Default,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Flag(n) => write!(f, "flag {n}"),
            Source::Env(n) => write!(f, "env {n}"),
            Source::File => f.write_str("config file"),
            Source::Default => f.write_str("default"),
        }
    }
}

/// A resolved value and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved<T> {
    /// The value.
    pub value: T,
    /// Its layer.
    pub source: Source,
}

/// One row of `pubmed config show`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The setting.
    pub key: ConfigKey,
    /// The value as shown (an API key masked); `None` when not set.
    pub value: Option<String>,
    /// What an unset value means, when that is not nothing (the request
    /// gap: "400 without an API key, 110 with one").
    pub unset: Option<String>,
    /// Its layer.
    pub source: Source,
}

/// What resolution reads: the flags, the environment (as `OsString`, so a
/// value that is not UTF-8 is an error rather than absent), the config
/// file, and whether the client may print notes.
pub struct Layers<'a> {
    /// Flags given on the command line.
    pub flags: &'a Flags,
    /// Reads one environment variable.
    pub env: &'a dyn Fn(&str) -> Option<OsString>,
    /// The config file, when there is a config directory.
    pub file: Option<&'a ConfigFile>,
    /// The client may say on stderr when it retries or waits (not `-q`).
    pub notes: bool,
}

/// Every knob resolved, with its source, plus what the client needs
/// beside them.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `api_key`.
    pub api_key: Resolved<Option<ApiKey>>,
    /// `email`.
    pub email: Resolved<Option<String>>,
    /// `tool`.
    pub tool: Resolved<String>,
    /// `eutils_url`.
    pub eutils_url: Resolved<HttpUrl>,
    /// `idconv_url`.
    pub idconv_url: Resolved<HttpUrl>,
    /// `request_gap_ms`; `None`: the client's default for the key state.
    pub request_gap: Resolved<Option<Millis>>,
    /// `max_retries`.
    pub max_retries: Resolved<u32>,
    /// `retry_base_ms`.
    pub retry_base: Resolved<Millis>,
    /// `deadline_s` (`--timeout`).
    pub deadline: Resolved<Seconds>,
    /// `shared_budget`.
    pub shared_budget: Resolved<bool>,
    /// `europepmc_url`.
    pub europepmc_url: Resolved<HttpUrl>,
    /// `cache_mode` (`--cache`).
    pub cache_mode: Resolved<CacheMode>,
    /// `cache_max_bytes`.
    pub cache_max_bytes: Resolved<Bytes>,
    /// `cache_dir`; `None`: the platform cache directory
    /// ([`Settings::cache_dir`]).
    pub cache_dir: Resolved<Option<String>>,
    /// The config file's path, when there is a config directory.
    pub config_path: Option<PathBuf>,
    /// Whether the config file exists.
    pub config_exists: bool,
    /// The shared budget's directory; `None` when the budget is off.
    pub budget_dir: Option<PathBuf>,
    /// `-v`.
    pub verbose: bool,
    /// The client may print notes.
    pub notes: bool,
    /// Warnings for stderr (`warning: …`), e.g. a key given as a flag.
    pub warnings: Vec<String>,
    /// The rows of `config show`, in [`ConfigKey::ALL`] order.
    pub entries: Vec<Entry>,
}

/// Reads the process environment and the config file (its path computed
/// once) and resolves them with `flags`.
pub fn load(flags: &Flags, notes: bool) -> Result<Settings> {
    let env = |k: &str| std::env::var_os(k);
    let file = super::config_path(&env)
        .map(|p| ConfigFile::load(&p))
        .transpose()?;
    resolve(&Layers {
        flags,
        env: &env,
        file: file.as_ref(),
        notes,
    })
}

/// Resolves every knob. Errors (`invalid_argument`, exit 2), each naming
/// the flag, variable or file line: a value of the wrong type, a variable
/// that is not UTF-8 (its value never shown), an API key or URL in a config
/// file that others can write.
pub fn resolve(layers: &Layers) -> Result<Settings> {
    let mut r = Resolver {
        layers,
        entries: Vec::new(),
    };
    let guard = r.guard()?;
    let f = layers.flags;
    let d = ClientSettings::default();
    let gap_default = format!(
        "{} without an API key, {} with one",
        d.policy.gap(false).as_millis(),
        d.policy.gap(true).as_millis()
    );
    let api_key = r.optional::<ApiKey>(ConfigKey::ApiKey, text(&f.api_key).map(ApiKey::parse))?;
    let email = r.optional::<String>(ConfigKey::Email, text(&f.email).map(String::parse))?;
    let tool = r.or_default(ConfigKey::Tool, text(&f.tool).map(String::parse), d.tool)?;
    let eutils_url = r.or_default(
        ConfigKey::EutilsUrl,
        text(&f.eutils_url).map(HttpUrl::parse),
        HttpUrl::parse(&d.eutils_url).map_err(|_| builtin("eutils_url"))?,
    )?;
    let idconv_url = r.or_default(
        ConfigKey::IdconvUrl,
        text(&f.idconv_url).map(HttpUrl::parse),
        HttpUrl::parse(&d.idconv_url).map_err(|_| builtin("idconv_url"))?,
    )?;
    let request_gap = r.optional::<Millis>(ConfigKey::RequestGapMs, None)?;
    r.entries[ConfigKey::RequestGapMs as usize].unset = Some(gap_default);
    let max_retries = r.or_default(ConfigKey::MaxRetries, None, d.policy.max_retries)?;
    let retry_base = r.or_default(ConfigKey::RetryBaseMs, None, Millis(d.policy.retry_base))?;
    let deadline = r.or_default(
        ConfigKey::DeadlineS,
        f.timeout.map(Seconds::from_secs_f64),
        Seconds::from(d.policy.deadline),
    )?;
    let shared_budget = r.or_default(ConfigKey::SharedBudget, None, d.policy.shared_budget)?;
    let europepmc_url = r.or_default(
        ConfigKey::EuropepmcUrl,
        text(&f.europepmc_url).map(HttpUrl::parse),
        HttpUrl::parse(&d.europepmc_url).map_err(|_| builtin("europepmc_url"))?,
    )?;
    let cache_mode = r.or_default(ConfigKey::CacheMode, f.cache.map(Ok), CacheMode::default())?;
    let cache_max_bytes = r.or_default(
        ConfigKey::CacheMaxBytes,
        None,
        Bytes(crate::cache::DEFAULT_MAX_BYTES),
    )?;
    let cache_dir = r.optional::<String>(ConfigKey::CacheDir, None)?;
    r.entries[ConfigKey::CacheDir as usize].unset =
        Some("the platform cache directory (~/.cache/pubmed on Linux)".into());
    debug_assert!(r.entries.iter().map(|e| e.key).eq(ConfigKey::ALL));
    let mut warnings = guard;
    if api_key.source == Source::Flag("--api-key") {
        warnings.push("warning: --api-key is visible to other users in the process list; prefer NCBI_API_KEY or `pubmed config set api_key -`".into());
    }
    if let Some(file) = layers.file
        && file.readable_by_others()
        && file.value(ConfigKey::ApiKey).is_some()
    {
        let p = file.path().display();
        warnings.push(format!(
            "warning: {p} holds an API key and others can read it; run `chmod 600 {p}`"
        ));
    }
    let budget_dir = if shared_budget.value {
        super::budget_dir(layers.env)
    } else {
        None
    };
    Ok(Settings {
        api_key,
        email,
        tool,
        eutils_url,
        idconv_url,
        request_gap,
        max_retries,
        retry_base,
        deadline,
        shared_budget,
        europepmc_url,
        cache_mode,
        cache_max_bytes,
        cache_dir,
        config_path: layers.file.map(|f| f.path().to_path_buf()),
        config_exists: layers.file.is_some_and(ConfigFile::exists),
        budget_dir,
        verbose: layers.flags.verbose,
        notes: layers.notes,
        warnings,
        entries: r.entries,
    })
}

/// A flag's text, unless empty.
fn text(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

fn builtin(key: &str) -> Error {
    Error::new(
        Reason::InvalidArgument,
        format!("the built-in {key} is not an http(s) URL"),
    )
}

struct Resolver<'a> {
    layers: &'a Layers<'a>,
    entries: Vec<Entry>,
}

impl Resolver<'_> {
    /// The file's guarded keys (API key, URLs) are refused when others can
    /// write it; its other keys are used, with a warning (returned).
    fn guard(&self) -> Result<Vec<String>> {
        let Some(file) = self.layers.file else {
            return Ok(Vec::new());
        };
        let (Some(risk), Some(fix)) = (file.write_risk(), file.risk_fix()) else {
            return Ok(Vec::new());
        };
        let held: Vec<&str> = ConfigKey::ALL
            .into_iter()
            .filter(|k| k.knob().guarded && file.value(*k).is_some())
            .map(ConfigKey::name)
            .collect();
        let p = file.path().display();
        if !held.is_empty() {
            return Err(Error::new(
                Reason::InvalidArgument,
                format!(
                    "config file {p} is not safe for {}: {risk}",
                    held.join(", ")
                ),
            )
            .with_hint(format!(
                "{fix}; an API key or URL is never taken from a file others could change"
            )));
        }
        Ok(vec![format!(
            "warning: config file {p} is used, but {risk}; {fix}"
        )])
    }

    /// The highest layer that sets `key`, each layer checked.
    fn layered<T: KnobValue>(
        &self,
        key: ConfigKey,
        flag: Option<std::result::Result<T, Invalid>>,
    ) -> Result<Option<Resolved<T>>> {
        let knob = key.knob();
        debug_assert_eq!(T::KIND, knob.kind, "{key}: the table's kind");
        let bad = |label: &str, why: Invalid| {
            Error::new(
                Reason::InvalidArgument,
                format!("{} ({})", why.describe(label), knob.name),
            )
        };
        let flag_name = knob.flag.unwrap_or(knob.name);
        let flag = flag
            .map(|v| v.map_err(|why| bad(flag_name, why)))
            .transpose()?
            .map(|value| Resolved {
                value,
                source: Source::Flag(flag_name),
            });
        let env = match knob.env {
            None => None,
            Some(name) => match (self.layers.env)(name).map(OsString::into_string) {
                None => None,
                Some(Err(_)) => {
                    return Err(Error::new(
                        Reason::InvalidArgument,
                        format!("{name} is not valid UTF-8"),
                    )
                    .with_hint(format!(
                        "set {name} to {}, or unset it",
                        knob.kind.expected()
                    )));
                }
                Some(Ok(v)) if v.trim().is_empty() => None,
                Some(Ok(v)) => Some(Resolved {
                    // The hint names the variable: no argument is at fault.
                    value: T::parse(v.trim()).map_err(|why| {
                        bad(name, why).with_hint(format!(
                            "set {name} to {}, or unset it",
                            knob.kind.expected()
                        ))
                    })?,
                    source: Source::Env(name),
                }),
            },
        };
        let file = match self.layers.file.and_then(|f| Some((f, f.value(key)?))) {
            None => None,
            Some((f, (v, line))) => Some(Resolved {
                value: T::from_toml(v).map_err(|why| {
                    Error::new(
                        Reason::InvalidArgument,
                        format!(
                            "config file {} line {line}: {}",
                            f.path().display(),
                            why.describe(knob.name)
                        ),
                    )
                })?,
                source: Source::File,
            }),
        };
        Ok(flag.or(env).or(file))
    }

    fn record<T: KnobValue>(&mut self, key: ConfigKey, value: Option<&T>, source: &Source) {
        self.entries.push(Entry {
            key,
            value: value.map(T::show),
            unset: None,
            source: source.clone(),
        });
    }

    fn or_default<T: KnobValue>(
        &mut self,
        key: ConfigKey,
        flag: Option<std::result::Result<T, Invalid>>,
        default: T,
    ) -> Result<Resolved<T>> {
        let r = self.layered(key, flag)?.unwrap_or(Resolved {
            value: default,
            source: Source::Default,
        });
        self.record(key, Some(&r.value), &r.source);
        Ok(r)
    }

    fn optional<T: KnobValue>(
        &mut self,
        key: ConfigKey,
        flag: Option<std::result::Result<T, Invalid>>,
    ) -> Result<Resolved<Option<T>>> {
        let r = match self.layered(key, flag)? {
            Some(r) => Resolved {
                value: Some(r.value),
                source: r.source,
            },
            None => Resolved {
                value: None,
                source: Source::Default,
            },
        };
        self.record(key, r.value.as_ref(), &r.source);
        Ok(r)
    }
}

impl Settings {
    /// The built-in settings: no flags, no environment, no file (resolved
    /// once per process; `--help` asks for each knob's default).
    pub fn defaults() -> &'static Settings {
        static DEFAULTS: std::sync::OnceLock<Settings> = std::sync::OnceLock::new();
        DEFAULTS.get_or_init(|| {
            resolve(&Layers {
                flags: &Flags::default(),
                env: &|_| None,
                file: None,
                notes: false,
            })
            .expect("the built-in defaults are valid")
        })
    }

    /// The `config show` row of `key`.
    pub fn entry(&self, key: ConfigKey) -> &Entry {
        &self.entries[key as usize]
    }

    /// Where the API key came from, for messages about it: `--api-key`,
    /// `NCBI_API_KEY` or `config file PATH`; `None` without a key.
    pub fn api_key_origin(&self) -> Option<String> {
        self.api_key.value.as_ref()?;
        Some(match &self.api_key.source {
            Source::Flag(n) | Source::Env(n) => (*n).to_string(),
            Source::File | Source::Default => match &self.config_path {
                Some(p) => format!("config file {}", p.display()),
                None => "config file".to_string(),
            },
        })
    }

    /// The cache's directory: `cache_dir` when set, else the platform cache
    /// directory (e.g. `~/.cache/pubmed`); `None` when there is no home
    /// directory.
    pub fn cache_dir(&self) -> Option<PathBuf> {
        match &self.cache_dir.value {
            Some(d) => Some(PathBuf::from(d)),
            None => crate::cache::default_dir(),
        }
    }

    /// The client's settings: the knobs over the client's defaults.
    pub fn client_settings(&self) -> ClientSettings {
        let d = Policy::default();
        let deadline = self.deadline.value.get();
        let policy = Policy {
            request_gap: self.request_gap.value.map(|m| m.0),
            max_retries: self.max_retries.value,
            retry_base: self.retry_base.value.0,
            deadline,
            request_timeout: d.request_timeout.min(deadline),
            shared_budget: self.shared_budget.value,
            ..d
        };
        ClientSettings {
            eutils_url: self.eutils_url.value.as_str().to_string(),
            idconv_url: self.idconv_url.value.as_str().to_string(),
            europepmc_url: self.europepmc_url.value.as_str().to_string(),
            tool: self.tool.value.clone(),
            email: self.email.value.clone(),
            api_key: self.api_key.value.as_ref().map(|k| k.as_str().to_string()),
            api_key_origin: self.api_key_origin(),
            budget_dir: self.budget_dir.clone(),
            policy,
            verbose: self.verbose,
            notes: self.notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::time::Duration;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let map: HashMap<String, OsString> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), OsString::from(v)))
            .collect();
        move |k: &str| map.get(k).cloned()
    }

    fn file(text: &str) -> (tempfile::TempDir, ConfigFile) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, text).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let f = ConfigFile::load(&path).unwrap();
        (dir, f)
    }

    fn run(
        flags: &Flags,
        env: &dyn Fn(&str) -> Option<OsString>,
        file: Option<&ConfigFile>,
    ) -> Result<Settings> {
        resolve(&Layers {
            flags,
            env,
            file,
            notes: true,
        })
    }

    #[test]
    fn flag_beats_env_beats_file_beats_default() {
        let (_dir, f) = file(
            "api_key = \"filekey\"\nemail = \"file@example.org\"\n\
             eutils_url = \"http://file/\"\ndeadline_s = 5\nshared_budget = false\n",
        );
        let env = env_of(&[
            ("NCBI_API_KEY", "envkey"),
            ("PUBMED_EUTILS_URL", "http://env/"),
            ("PUBMED_DEADLINE_S", "7"),
        ]);
        let flags = Flags {
            api_key: Some("flagkey".into()),
            ..Default::default()
        };
        let s = run(&flags, &env, Some(&f)).unwrap().client_settings();
        assert_eq!(s.api_key.as_deref(), Some("flagkey"));
        assert_eq!(s.api_key_origin.as_deref(), Some("--api-key"));
        assert_eq!(s.eutils_url, "http://env/");
        assert_eq!(s.email.as_deref(), Some("file@example.org"));
        assert_eq!(s.idconv_url, crate::ncbi::DEFAULT_IDCONV_URL);
        assert_eq!(s.tool, "pubmed-cli");
        assert_eq!(s.policy.deadline, Duration::from_secs(7));
        assert!(!s.policy.shared_budget);
        assert_eq!(s.budget_dir, None);
        assert!(s.notes);
        let s = run(&Flags::default(), &env_of(&[]), Some(&f)).unwrap();
        assert_eq!(
            s.api_key_origin(),
            Some(format!("config file {}", f.path().display()))
        );
        let c = s.client_settings();
        assert_eq!(c.api_key.as_deref(), Some("filekey"));
        assert_eq!(c.policy.deadline, Duration::from_secs(5));
        assert_eq!(c.policy.request_timeout, Duration::from_secs(5));
        let s = run(&Flags::default(), &env, Some(&f)).unwrap();
        assert_eq!(s.api_key_origin().as_deref(), Some("NCBI_API_KEY"));
        let timeout = Flags {
            timeout: Some(2.5),
            ..Default::default()
        };
        let s = run(&timeout, &env, Some(&f)).unwrap();
        assert_eq!(s.deadline.value.get(), Duration::from_millis(2500));
        assert_eq!(s.deadline.source, Source::Flag("--timeout"));
        let s = run(&flags, &env, Some(&f)).unwrap();
        let src = |k: ConfigKey| s.entry(k).source.clone();
        assert_eq!(src(ConfigKey::ApiKey), Source::Flag("--api-key"));
        assert_eq!(src(ConfigKey::EutilsUrl), Source::Env("PUBMED_EUTILS_URL"));
        assert_eq!(src(ConfigKey::Email), Source::File);
        assert_eq!(src(ConfigKey::Tool), Source::Default);
        assert_eq!(s.entry(ConfigKey::ApiKey).value.as_deref(), Some("****"));
        assert_eq!(
            s.entry(ConfigKey::SharedBudget).value.as_deref(),
            Some("false")
        );
        assert_eq!(
            s.warnings,
            [
                "warning: --api-key is visible to other users in the process list; prefer NCBI_API_KEY or `pubmed config set api_key -`"
            ]
        );
    }

    /// The cache keys (docs/cache.md "Modes", "Size", "Where"): flag >
    /// environment > file > default, each layer checked.
    #[test]
    fn cache_keys_resolve_by_layer() {
        let d = run(&Flags::default(), &env_of(&[]), None).unwrap();
        assert_eq!(d.cache_mode.value, CacheMode::On);
        assert_eq!(d.cache_max_bytes.value, Bytes(1 << 30));
        assert_eq!(d.cache_dir(), crate::cache::default_dir());
        let (_dir, f) =
            file("cache_mode = \"read\"\ncache_max_bytes = 2048\ncache_dir = \"/file/cache\"\n");
        let s = run(&Flags::default(), &env_of(&[]), Some(&f)).unwrap();
        assert_eq!(s.cache_mode.value, CacheMode::Read);
        assert_eq!(s.cache_mode.source, Source::File);
        assert_eq!(s.cache_max_bytes.value, Bytes(2048));
        assert_eq!(s.cache_dir(), Some(PathBuf::from("/file/cache")));
        let env = env_of(&[
            ("PUBMED_CACHE", "refresh"),
            ("PUBMED_CACHE_MAX_BYTES", "4096"),
            ("PUBMED_CACHE_DIR", "/env/cache"),
        ]);
        let s = run(&Flags::default(), &env, Some(&f)).unwrap();
        assert_eq!(s.cache_mode.value, CacheMode::Refresh);
        assert_eq!(s.cache_mode.source, Source::Env("PUBMED_CACHE"));
        assert_eq!(s.cache_max_bytes.value, Bytes(4096));
        assert_eq!(s.cache_dir(), Some(PathBuf::from("/env/cache")));
        let flags = Flags {
            cache: Some(CacheMode::Off),
            ..Default::default()
        };
        let s = run(&flags, &env, Some(&f)).unwrap();
        assert_eq!(s.cache_mode.value, CacheMode::Off);
        assert_eq!(s.cache_mode.source, Source::Flag("--cache"));
        let e = s.entry(ConfigKey::CacheMode);
        assert_eq!(e.value.as_deref(), Some("off"));
        // Refused values name their layer and key.
        let e = run(
            &Flags::default(),
            &env_of(&[("PUBMED_CACHE", "sometimes")]),
            None,
        )
        .unwrap_err();
        assert_eq!(e.reason, Reason::InvalidArgument);
        assert_eq!(
            e.message,
            "PUBMED_CACHE takes a cache mode (on, searches, read, refresh, off), not \"sometimes\" (cache_mode)"
        );
        let bad_dir = tempfile::tempdir().unwrap();
        let bad = bad_dir.path().join("config.toml");
        std::fs::write(&bad, "cache_max_bytes = 0\n").unwrap();
        let e = ConfigFile::load(&bad).unwrap_err();
        assert_eq!(
            e.message,
            format!(
                "config file {} line 1: cache_max_bytes takes a whole number of bytes above 0, not 0",
                bad.display()
            )
        );
    }

    #[test]
    fn knobs_from_env() {
        let env = env_of(&[
            ("PUBMED_REQUEST_GAP_MS", "0"),
            ("PUBMED_MAX_RETRIES", "2"),
            ("PUBMED_RETRY_BASE_MS", "5"),
            ("PUBMED_SHARED_BUDGET", "off"),
        ]);
        let s = run(&Flags::default(), &env, None)
            .unwrap()
            .client_settings();
        assert_eq!(s.policy.request_gap, Some(Duration::ZERO));
        assert_eq!(s.policy.max_retries, 2);
        assert_eq!(s.policy.retry_base, Duration::from_millis(5));
        assert!(!s.policy.shared_budget);
        assert_eq!(s.budget_dir, None);
        let runtime = env_of(&[("XDG_RUNTIME_DIR", "/run/user/1000")]);
        let s = run(&Flags::default(), &runtime, None)
            .unwrap()
            .client_settings();
        assert!(s.policy.shared_budget);
        assert_eq!(s.budget_dir, Some(PathBuf::from("/run/user/1000")));
        for (k, v, msg) in [
            (
                "PUBMED_MAX_RETRIES",
                "many",
                "PUBMED_MAX_RETRIES takes a whole number, not \"many\" (max_retries)",
            ),
            (
                "PUBMED_MAX_RETRIES",
                "-1",
                "PUBMED_MAX_RETRIES takes a whole number, not \"-1\" (max_retries)",
            ),
            (
                "PUBMED_DEADLINE_S",
                "-1",
                "PUBMED_DEADLINE_S takes a number of seconds above 0 and at most 86400, not \"-1\" (deadline_s)",
            ),
            (
                "PUBMED_DEADLINE_S",
                "1e999",
                "PUBMED_DEADLINE_S takes a number of seconds above 0 and at most 86400, not \"1e999\" (deadline_s)",
            ),
            (
                "PUBMED_DEADLINE_S",
                "1e19",
                "PUBMED_DEADLINE_S takes a number of seconds above 0 and at most 86400, not \"1e19\" (deadline_s)",
            ),
            (
                "PUBMED_DEADLINE_S",
                "NaN",
                "PUBMED_DEADLINE_S takes a number of seconds above 0 and at most 86400, not \"NaN\" (deadline_s)",
            ),
            (
                "PUBMED_SHARED_BUDGET",
                "2",
                "PUBMED_SHARED_BUDGET takes true or false (also on/off, yes/no, 1/0), not \"2\" (shared_budget)",
            ),
            (
                "PUBMED_IDCONV_URL",
                "localhost:8080",
                "PUBMED_IDCONV_URL takes an http(s) URL, not \"localhost:8080\" (idconv_url)",
            ),
            (
                "NCBI_API_KEY",
                "abc-def",
                "NCBI_API_KEY takes an NCBI API key (letters and digits only) (api_key)",
            ),
        ] {
            let e = run(&Flags::default(), &env_of(&[(k, v)]), None).unwrap_err();
            assert_eq!(e.reason, Reason::InvalidArgument, "{k}={v}");
            assert_eq!(e.message, msg);
        }
        let zero = Flags {
            timeout: Some(0.0),
            ..Default::default()
        };
        let e = run(&zero, &env_of(&[]), None).unwrap_err();
        assert_eq!(
            e.message,
            "--timeout takes a number of seconds above 0 and at most 86400, not 0 (deadline_s)"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_variable_that_is_not_utf8_is_named_never_shown() {
        use std::os::unix::ffi::OsStringExt;
        for name in ["NCBI_API_KEY", "PUBMED_MAX_RETRIES", "PUBMED_EUTILS_URL"] {
            let env = move |k: &str| (k == name).then(|| OsString::from_vec(b"k3y\xff".to_vec()));
            // a flag above it does not hide it
            let flags = Flags {
                api_key: Some("flagkey".into()),
                ..Default::default()
            };
            let e = run(&flags, &env, None).unwrap_err();
            assert_eq!(e.reason, Reason::InvalidArgument);
            assert_eq!(e.message, format!("{name} is not valid UTF-8"));
            assert!(!e.hint().contains("k3y"));
        }
    }

    #[test]
    fn empty_values_do_not_hide_lower_layers() {
        let (_dir, f) = file("api_key = \"filekey\"\nemail = \"file@example.org\"\ntool = \"\"\n");
        let env = env_of(&[
            ("NCBI_API_KEY", ""),
            ("NCBI_EMAIL", " "),
            ("PUBMED_EUTILS_URL", "http://env/"),
            ("PUBMED_REQUEST_GAP_MS", ""),
        ]);
        let flags = Flags {
            eutils_url: Some(String::new()),
            email: Some("  ".into()),
            ..Default::default()
        };
        let s = run(&flags, &env, Some(&f)).unwrap();
        let c = s.client_settings();
        assert_eq!(c.api_key.as_deref(), Some("filekey"));
        assert_eq!(c.email.as_deref(), Some("file@example.org"));
        assert_eq!(c.eutils_url, "http://env/");
        assert_eq!(c.tool, "pubmed-cli");
        assert_eq!(c.policy.request_gap, None);
        let gap = s.entry(ConfigKey::RequestGapMs);
        assert_eq!(gap.value, None);
        assert_eq!(
            gap.unset.as_deref(),
            Some("400 without an API key, 110 with one")
        );
    }

    #[test]
    fn urls_must_be_http() {
        for bad in ["not a url", "ftp://host/x/", "file:///tmp/x", "http://"] {
            let flags = Flags {
                eutils_url: Some(bad.into()),
                ..Default::default()
            };
            let e = run(&flags, &env_of(&[]), None).unwrap_err();
            assert_eq!(e.reason, Reason::InvalidArgument, "{bad}");
            assert_eq!(
                e.message,
                format!("--eutils-url takes an http(s) URL, not {bad:?} (eutils_url)")
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_file_others_can_write_gives_no_key_or_url() {
        use std::os::unix::fs::PermissionsExt;
        let (_dir, f) =
            file("api_key = \"filekey\"\nidconv_url = \"http://x/\"\nmax_retries = 1\n");
        std::fs::set_permissions(f.path(), std::fs::Permissions::from_mode(0o620)).unwrap();
        let f = ConfigFile::load(f.path()).unwrap();
        let e = run(&Flags::default(), &env_of(&[]), Some(&f)).unwrap_err();
        let p = f.path().display();
        assert_eq!(e.reason, Reason::InvalidArgument);
        assert_eq!(
            e.message,
            format!(
                "config file {p} is not safe for api_key, idconv_url: others can write to it (mode 0620)"
            )
        );
        assert!(
            e.hint().starts_with(&format!("run `chmod go-w {p}`")),
            "{}",
            e.hint()
        );
        // the other keys are used, with a warning
        std::fs::write(f.path(), "max_retries = 1\n").unwrap();
        let f = ConfigFile::load(f.path()).unwrap();
        let s = run(&Flags::default(), &env_of(&[]), Some(&f)).unwrap();
        assert_eq!(s.max_retries.value, 1);
        assert_eq!(
            s.warnings,
            [format!(
                "warning: config file {p} is used, but others can write to it (mode 0620); run `chmod go-w {p}`"
            )]
        );
    }
}
