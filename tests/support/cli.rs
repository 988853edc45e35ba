//! Running the built binary with a scrubbed environment: no NCBI_*,
//! PUBMED_*, RUST_LOG, NO_COLOR or COLUMNS from the developer's shell, a
//! temporary HOME, config, cache and runtime dir (so parallel tests never
//! share a request budget unless one asks to), and fast policy knobs.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

/// A prepared `pubmed` invocation with its own temporary HOME.
pub struct Pubmed {
    pub cmd: Command,
    pub home: tempfile::TempDir,
    stdin: Option<Vec<u8>>,
    rss: bool,
}

/// What a run printed and how it ended.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    /// Peak resident set size in KiB, when measured (`Pubmed::measure_rss`).
    pub peak_rss_kb: Option<u64>,
    /// The run's HOME, kept until the `Run` is dropped.
    pub home: tempfile::TempDir,
}

impl Run {
    /// The JSON error object printed on stderr with `--format json`.
    pub fn error_json(&self) -> serde_json::Value {
        let line = self
            .stderr
            .lines()
            .find(|l| l.starts_with('{'))
            .unwrap_or_else(|| panic!("no JSON error on stderr: {}", self.stderr));
        serde_json::from_str::<serde_json::Value>(line).unwrap()["error"].clone()
    }

    /// Checks that the run failed with exit `code` and the JSON error
    /// `reason`, its message holding `fragment`; gives the error object.
    pub fn failed_with(&self, code: i32, reason: &str, fragment: &str) -> serde_json::Value {
        assert_eq!(self.code, code, "{}", self.stderr);
        let e = self.error_json();
        assert_eq!(e["reason"], reason, "{e}");
        let message = e["message"].as_str().unwrap_or_default();
        assert!(message.contains(fragment), "{fragment:?} not in {e}");
        e
    }

    /// stdout parsed as one JSON document.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }
}

/// Where requests for hosts other than 127.0.0.1 go in tests: port 9
/// (discard) on loopback, which nothing serves.
pub const NO_HOST: &str = "http://127.0.0.1:9";

/// `pubmed ARGS…` with a clean environment, fast knobs (no pacing gap,
/// 1 ms backoff, 2 retries, 5 s deadline) and, when given, a server's URLs.
pub fn pubmed(args: &[&str]) -> Pubmed {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pubmed"));
    cmd.env_clear()
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join(".config"))
        .env("XDG_CACHE_HOME", home.path().join(".cache"))
        .env("XDG_RUNTIME_DIR", home.path().join("run"))
        .env("RUST_BACKTRACE", "0")
        .env("NO_PROXY", "127.0.0.1,localhost")
        .env("no_proxy", "127.0.0.1,localhost")
        // A request for any other host (a test without `.server()`, a
        // default URL) goes to a closed loopback port, never to NCBI.
        .env("HTTPS_PROXY", NO_HOST)
        .env("HTTP_PROXY", NO_HOST)
        .env("ALL_PROXY", NO_HOST)
        .env("PUBMED_REQUEST_GAP_MS", "0")
        .env("PUBMED_RETRY_BASE_MS", "1")
        .env("PUBMED_MAX_RETRIES", "2")
        .env("PUBMED_DEADLINE_S", "5")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    Pubmed {
        cmd,
        home,
        stdin: None,
        rss: false,
    }
}

const RSS_MARK: &str = "pubmed-peak-rss-kb=";

impl Pubmed {
    /// Points the binary at a test server.
    pub fn server(mut self, s: &super::server::TestServer) -> Self {
        self.cmd
            .env("PUBMED_EUTILS_URL", s.eutils_url())
            .env("PUBMED_IDCONV_URL", s.idconv_url())
            .env("PUBMED_EUROPEPMC_URL", s.europepmc_url());
        self
    }

    /// Shares the request budget in `dir` (as `XDG_RUNTIME_DIR`) with every
    /// other run given the same directory.
    pub fn shared_budget(mut self, dir: &std::path::Path) -> Self {
        self.cmd.env("XDG_RUNTIME_DIR", dir);
        self
    }

    /// The policy knobs at their defaults (400 ms gap, 1 s backoff, 6
    /// retries, 60 s deadline), as a user runs it.
    pub fn default_pacing(mut self) -> Self {
        for k in [
            "PUBMED_REQUEST_GAP_MS",
            "PUBMED_RETRY_BASE_MS",
            "PUBMED_MAX_RETRIES",
            "PUBMED_DEADLINE_S",
        ] {
            self.cmd.env_remove(k);
        }
        self
    }

    /// Sets one environment variable.
    pub fn env(mut self, k: &str, v: &str) -> Self {
        self.cmd.env(k, v);
        self
    }

    /// Sends stdout to a file instead of a pipe.
    pub fn stdout_to(mut self, file: std::fs::File) -> Self {
        self.cmd.stdout(file);
        self
    }

    /// The config file path inside this run's HOME.
    pub fn config_file(&self) -> std::path::PathBuf {
        self.home.path().join(".config/pubmed/config.toml")
    }

    /// Writes the config file inside this run's HOME.
    pub fn with_config(self, toml: &str) -> Self {
        let path = self.config_file();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, toml).unwrap();
        self
    }

    /// Feeds `data` on stdin.
    pub fn stdin(mut self, data: impl Into<Vec<u8>>) -> Self {
        self.stdin = Some(data.into());
        self
    }

    /// Measures peak RSS with GNU time (`/usr/bin/time`), for benchmarks.
    pub fn measure_rss(mut self) -> Self {
        self.rss = true;
        self
    }

    /// Runs to completion.
    pub fn run(mut self) -> Run {
        if self.rss {
            let mut timed = Command::new("/usr/bin/time");
            timed
                .arg("-f")
                .arg(format!("{RSS_MARK}%M"))
                .arg(self.cmd.get_program())
                .args(self.cmd.get_args())
                .env_clear()
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            for (k, v) in self.cmd.get_envs() {
                if let Some(v) = v {
                    timed.env(k, v);
                }
            }
            self.cmd = timed;
        }
        self.cmd.stdin(if self.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
        let mut child = self.cmd.spawn().expect("spawn pubmed");
        if let Some(data) = self.stdin.take() {
            let mut sin = child.stdin.take().unwrap();
            std::thread::spawn(move || {
                let _ = sin.write_all(&data);
            });
        }
        let out = child.wait_with_output().unwrap();
        let mut stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let mut peak_rss_kb = None;
        if let Some(at) = stderr.rfind(RSS_MARK) {
            peak_rss_kb = stderr[at + RSS_MARK.len()..].trim().parse().ok();
            stderr.truncate(at);
        }
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr,
            peak_rss_kb,
            home: self.home,
        }
    }
}
