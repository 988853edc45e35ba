//! Configuration (cli.md "Configuration"): flag > environment > config file >
//! default, resolved into plain [`ClientSettings`]; the TOML file and
//! `pubmed config path|show|set`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Reason, Result};
use crate::ncbi::{ClientSettings, DEFAULT_EUTILS_URL, DEFAULT_IDCONV_URL, DEFAULT_TOOL, Policy};

/// The TOML config file: every key optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// NCBI API key (the file is then written with mode 0600).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
    /// Contact e-mail sent as `email`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// `tool` parameter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// E-utilities base URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eutils_url: Option<String>,
    /// ID Converter URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idconv_url: Option<String>,
    /// Minimum gap between request starts, milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_gap_ms: Option<u64>,
    /// Retries after the first attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_retries: Option<u32>,
    /// First backoff, milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_base_ms: Option<u64>,
    /// Total deadline per call, seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline_s: Option<f64>,
}

/// The keys `pubmed config set` accepts, in display order.
pub const FILE_KEYS: &[&str] = &[
    "api_key",
    "email",
    "tool",
    "eutils_url",
    "idconv_url",
    "request_gap_ms",
    "max_retries",
    "retry_base_ms",
    "deadline_s",
];

/// Connection options given as flags (no clap types).
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
    /// `--timeout SECS`: the per-call deadline.
    pub timeout: Option<f64>,
    /// `-v`.
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

/// One resolved setting: the config-file key, its value as text (absent
/// when unset) and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// Config-file key (`api_key`).
    pub key: &'static str,
    /// Value as text; `None` when unset.
    pub value: Option<String>,
    /// Where it came from.
    pub source: Source,
}

/// The config file's path: `$PUBMED_CONFIG`, else `config.toml` in the
/// platform config dir (e.g. `~/.config/pubmed/config.toml`).
pub fn config_path(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if let Some(p) = env("PUBMED_CONFIG").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    directories::ProjectDirs::from("", "", "pubmed").map(|d| d.config_dir().join("config.toml"))
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset).unwrap_or(text).matches('\n').count() + 1
}

/// Reads the config file if it exists. Errors (`invalid_argument`, exit 2)
/// name the file and the line.
pub fn load_file(path: &Path) -> Result<Option<FileConfig>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Error::new(
                Reason::InvalidArgument,
                format!("cannot read config file {}: {e}", path.display()),
            ));
        }
    };
    toml::from_str(&text).map(Some).map_err(|e| {
        let line = e.span().map_or(1, |s| line_of(&text, s.start));
        // TOML's message may quote the value; never echo an API key.
        let on_key_line = text
            .lines()
            .nth(line - 1)
            .is_some_and(|l| l.trim_start().starts_with("api_key"));
        let why = if on_key_line {
            "api_key must be a quoted string of letters and digits".to_string()
        } else {
            e.message().to_string()
        };
        Error::new(
            Reason::InvalidArgument,
            format!("config file {} line {line}: {why}", path.display()),
        )
        .with_hint(format!(
            "fix that line, or see `pubmed config show`; keys: {}",
            FILE_KEYS.join(", ")
        ))
    })
}

/// Writes the config file (creating its directory). A file holding an API
/// key is created with mode 0600 and kept so.
pub fn write_file(path: &Path, cfg: &FileConfig) -> Result<()> {
    let io_err = |e: std::io::Error| {
        Error::new(
            Reason::InvalidArgument,
            format!("cannot write config file {}: {e}", path.display()),
        )
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io_err)?;
    }
    let text = toml::to_string(cfg).map_err(|e| {
        Error::new(
            Reason::InvalidArgument,
            format!("cannot encode the config: {e}"),
        )
    })?;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        if cfg.api_key.is_some() {
            opts.mode(0o600);
            if path.exists() {
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
                    .map_err(io_err)?;
            }
        }
    }
    use std::io::Write;
    let mut f = opts.open(path).map_err(io_err)?;
    f.write_all(text.as_bytes()).map_err(io_err)
}

/// Checks that `v` is an http(s) URL with a host. Errors: `invalid_argument`.
fn check_url(key: &str, v: &str) -> Result<()> {
    match url::Url::parse(v) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => Ok(()),
        _ => Err(Error::new(
            Reason::InvalidArgument,
            format!("{key} {v:?} is not an http(s) URL"),
        )),
    }
}

/// Sets `key` to `value` (parsed for its type) in `cfg`. Errors:
/// `invalid_argument` for an unknown key or a value of the wrong type.
pub fn set_key(cfg: &mut FileConfig, key: &str, value: &str) -> Result<()> {
    fn num<T: std::str::FromStr>(key: &str, v: &str) -> Result<Option<T>> {
        v.trim().parse().map(Some).map_err(|_| {
            Error::new(
                Reason::InvalidArgument,
                format!("{key} takes a number, not {v:?}"),
            )
        })
    }
    let text = Some(value.to_string()).filter(|v| !v.is_empty());
    match key {
        "api_key" => {
            if value.chars().any(|c| !c.is_ascii_alphanumeric()) {
                return Err(Error::new(
                    Reason::InvalidArgument,
                    "an NCBI API key is letters and digits only",
                ));
            }
            cfg.api_key = text
        }
        "email" => cfg.email = text,
        "tool" => cfg.tool = text,
        "eutils_url" | "idconv_url" => {
            if let Some(v) = &text {
                check_url(key, v)?;
            }
            if key == "eutils_url" {
                cfg.eutils_url = text;
            } else {
                cfg.idconv_url = text;
            }
        }
        "request_gap_ms" => cfg.request_gap_ms = num(key, value)?,
        "max_retries" => cfg.max_retries = num(key, value)?,
        "retry_base_ms" => cfg.retry_base_ms = num(key, value)?,
        "deadline_s" => {
            let s: Option<f64> = num(key, value)?;
            if let Some(s) = s {
                seconds(key, s)?;
            }
            cfg.deadline_s = s;
        }
        _ => {
            return Err(Error::new(
                Reason::InvalidArgument,
                format!("unknown config key {key:?}; keys: {}", FILE_KEYS.join(", ")),
            ));
        }
    }
    Ok(())
}

/// Shows an API key without revealing it: its last four characters at most.
pub fn mask(key: &str) -> String {
    let n = key.chars().count();
    if n < 12 {
        "****".to_string()
    } else {
        let tail: String = key.chars().skip(n - 4).collect();
        format!("****{tail}")
    }
}

fn env_num<T: std::str::FromStr>(
    env: &dyn Fn(&str) -> Option<String>,
    name: &str,
) -> Result<Option<T>> {
    match env(name).filter(|v| !v.trim().is_empty()) {
        None => Ok(None),
        Some(v) => v.trim().parse().map(Some).map_err(|_| {
            Error::new(
                Reason::InvalidArgument,
                format!("{name}={v:?} is not a valid number"),
            )
        }),
    }
}

fn seconds(name: &str, s: f64) -> Result<Duration> {
    Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero() && *d <= Duration::from_secs(86_400))
        .ok_or_else(|| {
            Error::new(
                Reason::InvalidArgument,
                format!("{name} must be a number of seconds above 0 and at most 86400, not {s}"),
            )
        })
}

/// Every setting with its value and source (flag > environment > file >
/// default). Environment: `NCBI_API_KEY`, `NCBI_EMAIL`, `PUBMED_EUTILS_URL`,
/// `PUBMED_IDCONV_URL`, `PUBMED_REQUEST_GAP_MS`, `PUBMED_MAX_RETRIES`,
/// `PUBMED_RETRY_BASE_MS`, `PUBMED_DEADLINE_S`. Errors: `invalid_argument`
/// for a knob that is not a valid number.
pub fn settings(
    flags: &Flags,
    env: &dyn Fn(&str) -> Option<String>,
    file: Option<&FileConfig>,
) -> Result<Vec<Setting>> {
    let file = file.cloned().unwrap_or_default();
    let pick = |key: &'static str,
                flag: Option<(&'static str, Option<String>)>,
                var: Option<&'static str>,
                from_file: Option<String>,
                default: Option<String>| {
        let nonblank = |v: Option<String>| v.filter(|v| !v.trim().is_empty());
        if let Some((name, Some(v))) = flag.map(|(n, v)| (n, nonblank(v))) {
            return Setting {
                key,
                value: Some(v),
                source: Source::Flag(name),
            };
        }
        if let Some(name) = var
            && let Some(v) = nonblank(env(name))
        {
            return Setting {
                key,
                value: Some(v),
                source: Source::Env(name),
            };
        }
        if let Some(v) = nonblank(from_file) {
            return Setting {
                key,
                value: Some(v),
                source: Source::File,
            };
        }
        Setting {
            key,
            value: default,
            source: Source::Default,
        }
    };
    // Numbers are validated here so `show` and every command agree.
    env_num::<u64>(env, "PUBMED_REQUEST_GAP_MS")?;
    env_num::<u32>(env, "PUBMED_MAX_RETRIES")?;
    env_num::<u64>(env, "PUBMED_RETRY_BASE_MS")?;
    if let Some(s) = env_num::<f64>(env, "PUBMED_DEADLINE_S")? {
        seconds("PUBMED_DEADLINE_S", s)?;
    }
    if let Some(s) = flags.timeout {
        seconds("--timeout", s)?;
    }
    let d = Policy::default();
    Ok(vec![
        pick(
            "api_key",
            Some(("--api-key", flags.api_key.clone())),
            Some("NCBI_API_KEY"),
            file.api_key,
            None,
        ),
        pick(
            "email",
            Some(("--email", flags.email.clone())),
            Some("NCBI_EMAIL"),
            file.email,
            None,
        ),
        pick(
            "tool",
            Some(("--tool", flags.tool.clone())),
            None,
            file.tool,
            Some(DEFAULT_TOOL.into()),
        ),
        pick(
            "eutils_url",
            Some(("--eutils-url", flags.eutils_url.clone())),
            Some("PUBMED_EUTILS_URL"),
            file.eutils_url,
            Some(DEFAULT_EUTILS_URL.into()),
        ),
        pick(
            "idconv_url",
            Some(("--idconv-url", flags.idconv_url.clone())),
            Some("PUBMED_IDCONV_URL"),
            file.idconv_url,
            Some(DEFAULT_IDCONV_URL.into()),
        ),
        pick(
            "request_gap_ms",
            None,
            Some("PUBMED_REQUEST_GAP_MS"),
            file.request_gap_ms.map(|v| v.to_string()),
            None,
        ),
        pick(
            "max_retries",
            None,
            Some("PUBMED_MAX_RETRIES"),
            file.max_retries.map(|v| v.to_string()),
            Some(d.max_retries.to_string()),
        ),
        pick(
            "retry_base_ms",
            None,
            Some("PUBMED_RETRY_BASE_MS"),
            file.retry_base_ms.map(|v| v.to_string()),
            Some(d.retry_base.as_millis().to_string()),
        ),
        pick(
            "deadline_s",
            Some(("--timeout", flags.timeout.map(|t| t.to_string()))),
            Some("PUBMED_DEADLINE_S"),
            file.deadline_s.map(|v| v.to_string()),
            Some(d.deadline.as_secs().to_string()),
        ),
    ])
}

/// Resolves [`settings`] into the client's settings.
pub fn resolve(
    flags: &Flags,
    env: &dyn Fn(&str) -> Option<String>,
    file: Option<&FileConfig>,
) -> Result<ClientSettings> {
    let all = settings(flags, env, file)?;
    let get = |k: &str| {
        all.iter()
            .find(|s| s.key == k)
            .and_then(|s| s.value.clone())
    };
    let source = |k: &str| {
        all.iter()
            .find(|s| s.key == k)
            .map_or(Source::Default, |s| s.source.clone())
    };
    let number = |k: &str| -> Result<Option<f64>> {
        get(k)
            .map(|v| {
                v.trim().parse::<f64>().map_err(|_| {
                    Error::new(
                        Reason::InvalidArgument,
                        format!("{k} = {v:?} is not a number"),
                    )
                })
            })
            .transpose()
    };
    let mut policy = Policy::default();
    if let Some(ms) = number("request_gap_ms")? {
        policy.request_gap = Some(Duration::from_millis(ms as u64));
    }
    if let Some(n) = number("max_retries")? {
        policy.max_retries = n as u32;
    }
    if let Some(ms) = number("retry_base_ms")? {
        policy.retry_base = Duration::from_millis(ms as u64);
    }
    if let Some(s) = number("deadline_s")? {
        policy.deadline = seconds(&format!("deadline_s (from {})", source("deadline_s")), s)?;
    }
    policy.request_timeout = policy.request_timeout.min(policy.deadline);
    let url = |k: &str, default: &str| -> Result<String> {
        let v = get(k).unwrap_or_else(|| default.into());
        check_url(k, &v).map_err(|mut e| {
            e.message = format!("{} (from {})", e.message, source(k));
            e
        })?;
        Ok(v)
    };
    Ok(ClientSettings {
        eutils_url: url("eutils_url", DEFAULT_EUTILS_URL)?,
        idconv_url: url("idconv_url", DEFAULT_IDCONV_URL)?,
        tool: get("tool").unwrap_or_else(|| DEFAULT_TOOL.into()),
        email: get("email"),
        api_key: get("api_key"),
        policy,
        verbose: flags.verbose,
        notes: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k: &str| map.get(k).cloned()
    }

    #[test]
    fn flag_beats_env_beats_file_beats_default() {
        let file = FileConfig {
            api_key: Some("filekey".into()),
            email: Some("file@example.org".into()),
            eutils_url: Some("http://file/".into()),
            deadline_s: Some(5.0),
            ..Default::default()
        };
        let env = env_of(&[
            ("NCBI_API_KEY", "envkey"),
            ("PUBMED_EUTILS_URL", "http://env/"),
            ("PUBMED_DEADLINE_S", "7"),
        ]);
        let flags = Flags {
            api_key: Some("flagkey".into()),
            ..Default::default()
        };
        let s = resolve(&flags, &env, Some(&file)).unwrap();
        assert_eq!(s.api_key.as_deref(), Some("flagkey"));
        assert_eq!(s.eutils_url, "http://env/");
        assert_eq!(s.email.as_deref(), Some("file@example.org"));
        assert_eq!(s.idconv_url, DEFAULT_IDCONV_URL);
        assert_eq!(s.tool, "pubmed-cli");
        assert_eq!(s.policy.deadline, Duration::from_secs(7));
        let s = resolve(&Flags::default(), &env_of(&[]), Some(&file)).unwrap();
        assert_eq!(s.api_key.as_deref(), Some("filekey"));
        assert_eq!(s.policy.deadline, Duration::from_secs(5));
        let s = resolve(
            &Flags {
                timeout: Some(2.5),
                ..Default::default()
            },
            &env,
            Some(&file),
        )
        .unwrap();
        assert_eq!(s.policy.deadline, Duration::from_millis(2500));
        let shown = settings(&flags, &env, Some(&file)).unwrap();
        let src = |k: &str| shown.iter().find(|s| s.key == k).unwrap().source.clone();
        assert_eq!(src("api_key"), Source::Flag("--api-key"));
        assert_eq!(src("eutils_url"), Source::Env("PUBMED_EUTILS_URL"));
        assert_eq!(src("email"), Source::File);
        assert_eq!(src("tool"), Source::Default);
    }

    #[test]
    fn knobs_from_env() {
        let env = env_of(&[
            ("PUBMED_REQUEST_GAP_MS", "0"),
            ("PUBMED_MAX_RETRIES", "2"),
            ("PUBMED_RETRY_BASE_MS", "5"),
        ]);
        let s = resolve(&Flags::default(), &env, None).unwrap();
        assert_eq!(s.policy.request_gap, Some(Duration::ZERO));
        assert_eq!(s.policy.max_retries, 2);
        assert_eq!(s.policy.retry_base, Duration::from_millis(5));
        for (k, v) in [
            ("PUBMED_MAX_RETRIES", "many"),
            ("PUBMED_MAX_RETRIES", "-1"),
            ("PUBMED_DEADLINE_S", "-1"),
            ("PUBMED_DEADLINE_S", "1e999"),
            ("PUBMED_DEADLINE_S", "1e19"),
            ("PUBMED_DEADLINE_S", "NaN"),
        ] {
            let e = resolve(&Flags::default(), &env_of(&[(k, v)]), None).unwrap_err();
            assert_eq!(e.reason, Reason::InvalidArgument, "{k}={v}");
            assert!(e.message.contains(k), "{}", e.message);
        }
        let e = resolve(
            &Flags {
                timeout: Some(0.0),
                ..Default::default()
            },
            &env_of(&[]),
            None,
        )
        .unwrap_err();
        assert!(e.message.contains("--timeout"));
    }

    #[test]
    fn empty_values_do_not_hide_lower_layers() {
        let file = FileConfig {
            api_key: Some("filekey".into()),
            email: Some("file@example.org".into()),
            ..Default::default()
        };
        let env = env_of(&[
            ("NCBI_API_KEY", ""),
            ("NCBI_EMAIL", " "),
            ("PUBMED_EUTILS_URL", "http://env/"),
        ]);
        let flags = Flags {
            eutils_url: Some(String::new()),
            ..Default::default()
        };
        let s = resolve(&flags, &env, Some(&file)).unwrap();
        assert_eq!(s.api_key.as_deref(), Some("filekey"));
        assert_eq!(s.email.as_deref(), Some("file@example.org"));
        assert_eq!(s.eutils_url, "http://env/");
    }

    #[test]
    fn urls_must_be_http() {
        for bad in ["not a url", "ftp://host/x/", "file:///tmp/x", "http://"] {
            let flags = Flags {
                eutils_url: Some(bad.into()),
                ..Default::default()
            };
            let e = resolve(&flags, &env_of(&[]), None).unwrap_err();
            assert_eq!(e.reason, Reason::InvalidArgument, "{bad}");
            assert!(e.message.contains("eutils_url"), "{}", e.message);
        }
        let e = resolve(
            &Flags::default(),
            &env_of(&[("PUBMED_IDCONV_URL", "localhost:8080")]),
            None,
        )
        .unwrap_err();
        assert!(e.message.contains("idconv_url"));
    }

    #[test]
    fn broken_file_names_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "email = \"a@b.c\"\n\nmax_retries = \"lots\"\n").unwrap();
        let e = load_file(&path).unwrap_err();
        assert_eq!(e.reason, Reason::InvalidArgument);
        assert!(
            e.message.contains(&path.display().to_string()),
            "{}",
            e.message
        );
        assert!(e.message.contains("line 3"), "{}", e.message);
        assert_eq!(load_file(&dir.path().join("absent.toml")).unwrap(), None);
        std::fs::write(&path, "email = \"a@b.c\"\napi_key = 98765432109876543\n").unwrap();
        let e = load_file(&path).unwrap_err();
        assert!(!e.message.contains("98765432109876543"), "{}", e.message);
        assert!(e.message.contains("line 2"), "{}", e.message);
    }

    #[test]
    fn set_and_write_round_trip_with_private_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/config.toml");
        let mut cfg = FileConfig::default();
        set_key(&mut cfg, "email", "me@example.org").unwrap();
        set_key(&mut cfg, "max_retries", "3").unwrap();
        assert!(set_key(&mut cfg, "max_retries", "x").is_err());
        assert!(set_key(&mut cfg, "deadline_s", "0").is_err());
        assert!(set_key(&mut cfg, "colour", "x").is_err());
        write_file(&path, &cfg).unwrap();
        assert_eq!(load_file(&path).unwrap().unwrap(), cfg);
        set_key(&mut cfg, "api_key", "0123456789abcdef").unwrap();
        write_file(&path, &cfg).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert_eq!(mask("0123456789abcdef"), "****cdef");
        assert_eq!(mask("short"), "****");
    }
}
