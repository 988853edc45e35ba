//! Configuration (cli.md "Configuration"): flag > environment > config file >
//! default, resolved into plain [`ClientSettings`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Reason, Result};
use crate::ncbi::{ClientSettings, DEFAULT_EUTILS_URL, DEFAULT_IDCONV_URL, DEFAULT_TOOL, Policy};

/// The TOML config file: every key optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// NCBI API key (the file must then not be world-readable).
    pub api_key: Option<String>,
    /// Contact e-mail sent as `email`.
    pub email: Option<String>,
    /// `tool` parameter.
    pub tool: Option<String>,
    /// E-utilities base URL.
    pub eutils_url: Option<String>,
    /// ID Converter URL.
    pub idconv_url: Option<String>,
    /// Minimum gap between request starts, milliseconds.
    pub request_gap_ms: Option<u64>,
    /// Retries after the first attempt.
    pub max_retries: Option<u32>,
    /// First backoff, milliseconds.
    pub retry_base_ms: Option<u64>,
    /// Total deadline per call, seconds.
    pub deadline_s: Option<f64>,
}

/// The keys `pubmed config set` accepts.
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
    text[..offset.min(text.len())].matches('\n').count() + 1
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
        Error::new(
            Reason::InvalidArgument,
            format!(
                "config file {} line {line}: {}",
                path.display(),
                e.message()
            ),
        )
    })
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
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            Error::new(
                Reason::InvalidArgument,
                format!("{name} must be a positive number of seconds, not {s}"),
            )
        })
}

/// Resolves settings: flag > environment > file > default. Environment:
/// `NCBI_API_KEY`, `NCBI_EMAIL`, `PUBMED_EUTILS_URL`, `PUBMED_IDCONV_URL`,
/// `PUBMED_REQUEST_GAP_MS`, `PUBMED_MAX_RETRIES`, `PUBMED_RETRY_BASE_MS`,
/// `PUBMED_DEADLINE_S`. Errors: `invalid_argument` for a knob that is not a
/// number.
pub fn resolve(
    flags: &Flags,
    env: &dyn Fn(&str) -> Option<String>,
    file: Option<&FileConfig>,
) -> Result<ClientSettings> {
    let file = file.cloned().unwrap_or_default();
    let text = |flag: &Option<String>, var: Option<&str>, file: Option<String>| {
        flag.clone()
            .or_else(|| var.and_then(env))
            .or(file)
            .filter(|v| !v.trim().is_empty())
    };
    let mut policy = Policy::default();
    if let Some(ms) = env_num::<u64>(env, "PUBMED_REQUEST_GAP_MS")?.or(file.request_gap_ms) {
        policy.request_gap = Some(Duration::from_millis(ms));
    }
    if let Some(n) = env_num::<u32>(env, "PUBMED_MAX_RETRIES")?.or(file.max_retries) {
        policy.max_retries = n;
    }
    if let Some(ms) = env_num::<u64>(env, "PUBMED_RETRY_BASE_MS")?.or(file.retry_base_ms) {
        policy.retry_base = Duration::from_millis(ms);
    }
    if let Some(s) = flags.timeout {
        policy.deadline = seconds("--timeout", s)?;
    } else if let Some(s) = env_num::<f64>(env, "PUBMED_DEADLINE_S")?.or(file.deadline_s) {
        policy.deadline = seconds("PUBMED_DEADLINE_S", s)?;
    }
    policy.request_timeout = policy.request_timeout.min(policy.deadline);
    Ok(ClientSettings {
        eutils_url: text(
            &flags.eutils_url,
            Some("PUBMED_EUTILS_URL"),
            file.eutils_url,
        )
        .unwrap_or_else(|| DEFAULT_EUTILS_URL.into()),
        idconv_url: text(
            &flags.idconv_url,
            Some("PUBMED_IDCONV_URL"),
            file.idconv_url,
        )
        .unwrap_or_else(|| DEFAULT_IDCONV_URL.into()),
        tool: text(&flags.tool, None, file.tool).unwrap_or_else(|| DEFAULT_TOOL.into()),
        email: text(&flags.email, Some("NCBI_EMAIL"), file.email),
        api_key: text(&flags.api_key, Some("NCBI_API_KEY"), file.api_key),
        policy,
        verbose: flags.verbose,
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
        let bad = env_of(&[("PUBMED_MAX_RETRIES", "many")]);
        let e = resolve(&Flags::default(), &bad, None).unwrap_err();
        assert_eq!(e.reason, Reason::InvalidArgument);
        assert!(e.message.contains("PUBMED_MAX_RETRIES"), "{}", e.message);
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
    }
}
