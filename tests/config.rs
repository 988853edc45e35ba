//! The config layer through the binary (docs/config.md): `config set` keeps
//! the user's file, writes it privately and atomically, refuses keys and
//! URLs from a file others can write, and a variable that is not UTF-8 is a
//! named error.

use crate::support;

use support::cli::pubmed;
use support::server::{Reply, TestServer, fixture};

fn espell_server() -> TestServer {
    TestServer::start(|_| Reply::xml(fixture("espell_biopythooon.xml")))
}

const HAND_WRITTEN: &str = "\
# pubmed, set up by hand on 2024-05-01
email = \"me@example.org\"   # the lab's list

# slow down: we share the proxy
request_gap_ms   = 1_000
tool='lab-scripts'
";

#[test]
fn config_set_keeps_comments_and_layout_byte_for_byte() {
    let p = pubmed(&["config", "set", "max_retries", "3"]).with_config(HAND_WRITTEN);
    let path = p.config_file();
    let run = p.run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{HAND_WRITTEN}max_retries = 3\n")
    );
    // changing a value keeps its spacing and its comment; keys are
    // case-insensitive on the command line
    let p = pubmed(&["config", "set", "Request_Gap_MS", "250"]).with_config(HAND_WRITTEN);
    let path = p.config_file();
    let run = p.run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!("pubmed: set request_gap_ms = 250 in {}\n", path.display())
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        HAND_WRITTEN.replace("1_000", "250")
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "always written 0600");
    }
    // unsetting the first key keeps the header comment
    let p = pubmed(&["config", "set", "email", ""]).with_config(HAND_WRITTEN);
    let path = p.config_file();
    let run = p.run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "\
# pubmed, set up by hand on 2024-05-01

# slow down: we share the proxy
request_gap_ms   = 1_000
tool='lab-scripts'
"
    );
}

#[test]
fn config_set_takes_the_shared_budget_switch() {
    let p = pubmed(&["config", "set", "shared_budget", "OFF"]);
    let path = p.config_file();
    let run = p.run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "shared_budget = false\n"
    );
    let run = pubmed(&["config", "set", "shared_budget", "sometimes"]).run();
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        "pubmed: error: shared_budget takes true or false (also on/off, yes/no, 1/0), not \"sometimes\" [invalid_argument]"
    );
    let run = pubmed(&["config", "set", "--help"]).run();
    assert!(
        run.stdout
            .contains("shared_budget:   Share NCBI's request budget with every pubmed process"),
        "{}",
        run.stdout
    );
}

/// Issue 15: `config set` echoes the value as stored (the typed value the
/// file gets), not the text typed: `off` is written and echoed `false`.
#[test]
fn config_set_echoes_the_value_as_stored() {
    for (args, line) in [
        (["shared_budget", "off"], "shared_budget = false"),
        (["shared_budget", "Yes"], "shared_budget = true"),
        (["request_gap_ms", "0400"], "request_gap_ms = 400"),
        (["email", " a@b.c "], "email = \"a@b.c\""),
    ] {
        let p = pubmed(&["config", "set", args[0], args[1]]);
        let path = p.config_file();
        let run = p.run();
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{line}\n"));
        assert_eq!(
            run.stderr,
            format!("pubmed: set {line} in {}\n", path.display()),
            "{args:?}"
        );
    }
    // an API key is stored whole and echoed masked (its last four)
    let p = pubmed(&["config", "set", "api_key", "abcdef0123456789"]);
    let path = p.config_file();
    let run = p.run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "api_key = \"abcdef0123456789\"\n"
    );
    assert_eq!(
        run.stderr,
        format!("pubmed: set api_key = \"****6789\" in {}\n", path.display())
    );
}

#[test]
fn config_show_names_the_shared_budget_and_its_directory() {
    let runtime = tempfile::tempdir().unwrap();
    let run = pubmed(&["config", "show", "-f", "json"])
        .env("XDG_RUNTIME_DIR", runtime.path().to_str().unwrap())
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["settings"]["shared_budget"]["value"], "true");
    assert_eq!(v["settings"]["shared_budget"]["source"], "default");
    assert_eq!(v["budgetDir"], runtime.path().to_str().unwrap());
    assert_eq!(v["exists"], false);
    let run = pubmed(&["config", "show", "-f", "json"])
        .env("XDG_RUNTIME_DIR", runtime.path().to_str().unwrap())
        .env("PUBMED_SHARED_BUDGET", "off")
        .run();
    let v = run.json();
    assert_eq!(v["settings"]["shared_budget"]["value"], "false");
    assert_eq!(
        v["settings"]["shared_budget"]["source"],
        "env PUBMED_SHARED_BUDGET"
    );
    assert_eq!(v["budgetDir"], serde_json::Value::Null);
    // the text form: defaults as the client has them (the spec: 6 retries,
    // 1 s first backoff, 60 s deadline; 400/110 ms gap)
    let run = pubmed(&["config", "show"])
        .env("PUBMED_MAX_RETRIES", "")
        .env("PUBMED_RETRY_BASE_MS", "")
        .env("PUBMED_DEADLINE_S", "")
        .env("PUBMED_REQUEST_GAP_MS", "")
        .env("XDG_RUNTIME_DIR", runtime.path().to_str().unwrap())
        .run();
    let lines: Vec<&str> = run.stdout.lines().skip(1).collect();
    assert_eq!(
        lines,
        vec![
            "# api_key is not set",
            "# email is not set",
            "tool = \"pubmed-cli\"  # default",
            &format!(
                "eutils_url = {:?}  # default",
                pubmed::ncbi::DEFAULT_EUTILS_URL
            ),
            &format!(
                "idconv_url = {:?}  # default",
                pubmed::ncbi::DEFAULT_IDCONV_URL
            ),
            "# request_gap_ms is not set: 400 without an API key, 110 with one",
            "max_retries = 6  # default",
            "retry_base_ms = 1000  # default",
            "deadline_s = 60  # default",
            "shared_budget = true  # default",
            // Europe PMC's documented REST base (europepmc.org/RestfulWebService).
            "europepmc_url = \"https://www.ebi.ac.uk/europepmc/webservices/rest/\"  # default",
            // docs/cache.md: on by default, 1 GiB.
            "cache_mode = \"on\"  # default",
            "cache_max_bytes = 1073741824  # default",
            "# cache_dir is not set: the platform cache directory (~/.cache/pubmed on Linux)",
            &format!("# shared budget state in {}", runtime.path().display()),
        ]
    );
}

/// Issue 25 item 13: another user's config file redirected `eutils_url`
/// and received the victim's `NCBI_API_KEY`; a writable `~/.config` was
/// not checked. Like ssh: the file and every directory above it must be
/// this user's (or root's) and not writable by others. Needs root to
/// make a file another user's (skipped otherwise).
#[cfg(unix)]
#[test]
fn another_users_config_or_directory_gives_no_key_or_url() {
    use std::os::unix::fs::{PermissionsExt, chown};
    if std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m))
        .ok()
        != Some(0)
    {
        eprintln!("skipped: needs root to chown");
        return;
    }
    let server = espell_server();
    let attack = |setup: &dyn Fn(&std::path::Path)| {
        let p = pubmed(&["spell", "-f", "json", "biopythooon"])
            .server(&server)
            .env("NCBI_API_KEY", "victimkey0123456789")
            .with_config(&format!("eutils_url = \"{}\"\n", server.eutils_url()));
        let path = p.config_file();
        setup(&path);
        (path, p.run())
    };
    let (path, run) = attack(&|path| chown(path, Some(4242), Some(4242)).unwrap());
    assert_eq!(run.code, 2, "{}", run.stderr);
    let e = run.error_json();
    assert_eq!(e["reason"], "invalid_argument");
    assert_eq!(
        e["message"],
        format!(
            "config file {} is not safe for eutils_url: it is owned by another user (uid 4242)",
            path.display()
        )
    );
    assert!(
        e["hint"]
            .as_str()
            .unwrap()
            .starts_with("keep your settings in a file you own"),
        "{e}"
    );
    assert_eq!(server.count(), 0, "nothing sent, the key least of all");
    // ~/.config, two levels up, another user's or writable by others
    let (path, run) =
        attack(&|path| chown(path.parent().unwrap().parent().unwrap(), Some(4242), None).unwrap());
    assert_eq!(run.code, 2, "{}", run.stderr);
    let dot_config = path.parent().unwrap().parent().unwrap();
    assert_eq!(
        run.error_json()["message"],
        format!(
            "config file {} is not safe for eutils_url: its directory {} is owned by another user (uid 4242)",
            path.display(),
            dot_config.display()
        )
    );
    let (path, run) = attack(&|path| {
        let d = path.parent().unwrap().parent().unwrap();
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o777)).unwrap()
    });
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.error_json()["message"],
        format!(
            "config file {} is not safe for eutils_url: others can write to its directory {} (mode 0777)",
            path.display(),
            path.parent().unwrap().parent().unwrap().display()
        )
    );
    assert_eq!(server.count(), 0);
    // root's file is trusted (as ssh trusts it): the key goes to the URL
    let (_, run) = attack(&|path| chown(path, Some(0), Some(0)).unwrap());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(server.count(), 1);
}

/// Issue 25 item 14: a URL setting that fails to parse was printed whole
/// (error and `config show`), `api_key=` and password included.
#[test]
fn url_settings_are_shown_without_passwords_or_keys() {
    let run = pubmed(&["config", "show"])
        .env("PUBMED_EUTILS_URL", "ftp://me:hunter2@h/?api_key=SECRET1")
        .run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "pubmed: error: PUBMED_EUTILS_URL takes an http(s) URL, not \"ftp://me:REDACTED@h/?api_key=REDACTED\""
        ),
        "{}",
        run.stderr
    );
    let p = pubmed(&["config", "show"])
        .with_config("idconv_url = \"http://me:hunter2@bad host/?api_key=SECRET1\"\n");
    let run = p.run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("REDACTED"), "{}", run.stderr);
    let run = pubmed(&["config", "show"])
        .env(
            "PUBMED_EUTILS_URL",
            "https://me:hunter2@h.example/e/?api_key=SECRET1",
        )
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("https://me:REDACTED@h.example/e/?api_key=REDACTED"),
        "{}",
        run.stdout
    );
    for out in [&run.stdout, &run.stderr] {
        assert!(
            !out.contains("hunter2") && !out.contains("SECRET1"),
            "{out}"
        );
    }
}

/// Issue 25 "first hour": a bad environment variable got the hint "check
/// the arguments"; it names the variable.
#[test]
fn a_bad_variable_hints_at_the_variable_not_the_arguments() {
    let run = pubmed(&["spell", "x"])
        .env("PUBMED_MAX_RETRIES", "many")
        .run();
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "pubmed: error: PUBMED_MAX_RETRIES takes a whole number, not \"many\" (max_retries) [invalid_argument]\npubmed: hint: set PUBMED_MAX_RETRIES to a whole number, or unset it\n"
    );
}

#[cfg(unix)]
#[test]
fn a_group_writable_config_with_a_key_is_refused_naming_the_path() {
    use std::os::unix::fs::PermissionsExt;
    let server = espell_server();
    let p = pubmed(&["spell", "-f", "json", "biopythooon"])
        .server(&server)
        .with_config("api_key = \"filekey0123456789\"\nemail = \"me@example.org\"\n");
    let path = p.config_file();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o664)).unwrap();
    let run = p.run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    let e = run.error_json();
    assert_eq!(e["reason"], "invalid_argument");
    assert_eq!(
        e["message"],
        format!(
            "config file {} is not safe for api_key: others can write to it (mode 0664)",
            path.display()
        )
    );
    assert!(
        e["hint"]
            .as_str()
            .unwrap()
            .starts_with(&format!("run `chmod go-w {}`", path.display())),
        "{e}"
    );
    assert!(!run.stderr.contains("filekey0123456789"));
    assert_eq!(server.count(), 0, "nothing sent");
    // a URL in a file whose directory others can write: refused too
    let p = pubmed(&["spell", "biopythooon"])
        .server(&server)
        .with_config(&format!("eutils_url = \"{}\"\n", server.eutils_url()));
    let dir = p.config_file().parent().unwrap().to_path_buf();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let run = p.run();
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(&format!(
            "pubmed: error: config file {} is not safe for eutils_url: others can write to its directory {} (mode 0777)",
            dir.join("config.toml").display(),
            dir.display()
        )),
        "{}",
        run.stderr
    );
    // the other keys of such a file are used, with a warning naming it
    let p = pubmed(&["spell", "biopythooon"])
        .server(&server)
        .with_config("email = \"me@example.org\"\n");
    let path = p.config_file();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).unwrap();
    let run = p.run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "pubmed: warning: config file {} is used, but others can write to it (mode 0666)",
            path.display()
        )),
        "{}",
        run.stderr
    );
    assert_eq!(
        server.requests().last().unwrap().param("email"),
        Some("me@example.org")
    );
    // `config set` repairs the file's own mode
    let p = pubmed(&["config", "set", "api_key", "filekey0123456789"])
        .with_config("email = \"me@example.org\"\n");
    let path = p.config_file();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o664)).unwrap();
    let run = p.run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[cfg(unix)]
#[test]
fn a_variable_that_is_not_utf8_is_a_usage_error_naming_it() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let server = espell_server();
    for (name, json) in [
        ("NCBI_API_KEY", true),
        ("NCBI_API_KEY", false),
        ("PUBMED_MAX_RETRIES", false),
        ("NCBI_EMAIL", true),
    ] {
        let mut p = pubmed(&if json {
            vec!["spell", "-f", "json", "biopythooon"]
        } else {
            vec!["spell", "biopythooon"]
        })
        .server(&server);
        p.cmd.env(name, OsStr::from_bytes(b"abc\xffsecret"));
        let run = p.run();
        assert_eq!(run.code, 2, "{name}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"));
        assert!(!run.stderr.contains("secret"), "{}", run.stderr);
        if json {
            let e = run.error_json();
            assert_eq!(e["reason"], "invalid_argument");
            assert_eq!(e["message"], format!("{name} is not valid UTF-8"));
        } else {
            assert_eq!(
                run.stderr.lines().next().unwrap(),
                format!("pubmed: error: {name} is not valid UTF-8 [invalid_argument]")
            );
        }
    }
    assert_eq!(server.count(), 0);
    // config show says the same
    let mut p = pubmed(&["config", "show"]);
    p.cmd.env("PUBMED_DEADLINE_S", OsStr::from_bytes(b"\xfe"));
    let run = p.run();
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("pubmed: error: PUBMED_DEADLINE_S is not valid UTF-8"),
        "{}",
        run.stderr
    );
}

#[test]
fn help_shows_defaults_from_the_knob_table() {
    let run = pubmed(&["spell", "--help"]).run();
    // The spec gives every call a 60 s deadline.
    assert!(
        run.stdout
            .contains("Deadline of one NCBI call in seconds, retries included [env:"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("PUBMED_DEADLINE_S; default: 60]"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("Tool name sent to NCBI with every request [default: pubmed-cli]"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_key_flag_that_is_not_letters_and_digits_is_refused_unechoed() {
    let server = espell_server();
    let run = pubmed(&["spell", "--api-key", "my key", "biopythooon"])
        .server(&server)
        .run();
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        "pubmed: error: --api-key takes an NCBI API key (letters and digits only) (api_key) [invalid_argument]"
    );
    assert_eq!(server.count(), 0);
}
