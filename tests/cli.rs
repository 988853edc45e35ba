//! Command-line conventions: configuration precedence and masking, pipes
//! without colour or progress, terminal defaults, help, completions, errors.

use crate::support;

use std::io::Read;
use std::process::Stdio;

use support::cli::pubmed;
use support::fake_ncbi::{Corpus, FakeNcbi};
use support::server::{Reply, TestServer, fixture};

fn espell_server() -> TestServer {
    TestServer::start(|_| Reply::xml(fixture("espell_biopythooon.xml")))
}

#[test]
fn flag_beats_env_beats_file() {
    let server = espell_server();
    let file =
        "api_key = \"filekey0123456789\"\nemail = \"file@example.org\"\ntool = \"file-tool\"\n";
    // file only
    let run = pubmed(&["spell", "biopythooon"])
        .server(&server)
        .with_config(file)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    // env beats file
    let run = pubmed(&["spell", "biopythooon"])
        .server(&server)
        .with_config(file)
        .env("NCBI_EMAIL", "env@example.org")
        .env("NCBI_API_KEY", "envkey0123456789")
        .run();
    assert_eq!(run.code, 0);
    // flag beats env
    let run = pubmed(&[
        "spell",
        "--email",
        "flag@example.org",
        "--tool",
        "flag-tool",
        "biopythooon",
    ])
    .server(&server)
    .with_config(file)
    .env("NCBI_EMAIL", "env@example.org")
    .run();
    assert_eq!(run.code, 0);
    let reqs = server.requests();
    let got: Vec<(Option<&str>, Option<&str>, Option<&str>)> = reqs
        .iter()
        .map(|r| (r.param("api_key"), r.param("email"), r.param("tool")))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                Some("filekey0123456789"),
                Some("file@example.org"),
                Some("file-tool")
            ),
            (
                Some("envkey0123456789"),
                Some("env@example.org"),
                Some("file-tool")
            ),
            (
                Some("filekey0123456789"),
                Some("flag@example.org"),
                Some("flag-tool")
            ),
        ]
    );
    // the URL from the file is used when no env/flag gives one
    let run = pubmed(&["spell", "biopythooon"])
        .with_config(&format!("eutils_url = \"{}\"\n", server.eutils_url()))
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(server.count(), 4);
}

#[test]
fn config_show_masks_the_key_and_names_sources() {
    let run = pubmed(&["config", "show", "-f", "json", "--tool", "flagtool"])
        .with_config("api_key = \"abcdef0123456789secret\"\nemail = \"file@example.org\"\n")
        .env("NCBI_EMAIL", "env@example.org")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("abcdef0123456789secret"));
    let v = run.json();
    let s = &v["settings"];
    assert_eq!(s["api_key"]["value"], "****cret");
    assert_eq!(s["api_key"]["source"], "config file");
    assert_eq!(s["email"]["value"], "env@example.org");
    assert_eq!(s["email"]["source"], "env NCBI_EMAIL");
    assert_eq!(s["tool"]["value"], "flagtool");
    assert_eq!(s["tool"]["source"], "flag --tool");
    assert_eq!(s["deadline_s"]["value"], "5");
    assert_eq!(s["deadline_s"]["source"], "env PUBMED_DEADLINE_S");
    assert_eq!(s["max_retries"]["value"], "2");
    assert_eq!(v["exists"], true);
    let run = pubmed(&["config", "show"])
        .with_config("api_key = \"abcdef0123456789secret\"\n")
        .run();
    assert!(
        run.stdout.contains("api_key = \"****cret\"  # config file"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("0123456789secret"));
}

#[test]
fn config_set_writes_a_private_file() {
    let p = pubmed(&["config", "path"]);
    let home = p.home.path().to_path_buf();
    let run = p.run();
    assert_eq!(
        run.stdout.trim(),
        home.join(".config/pubmed/config.toml").to_str().unwrap()
    );
    let cmd = pubmed(&["config", "set", "api_key", "-"]);
    let path = cmd.config_file();
    let run = cmd.stdin("feedface0123456789abc\n").run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        !run.stderr.contains("feedface0123456789abc"),
        "{}",
        run.stderr
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text, "api_key = \"feedface0123456789abc\"\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let run = pubmed(&["config", "set", "max_retries", "many"]).run();
    assert_eq!(run.code, 2);
    let run = pubmed(&["config", "set", "colour", "x"]).run();
    assert_eq!(run.code, 2);
}

#[test]
fn a_broken_config_file_is_exit_2_naming_file_and_line() {
    let p = pubmed(&["spell", "-f", "json", "x"]).with_config("email = \"a@b\"\nmax_retries = [\n");
    let path = p.config_file();
    let run = p.run();
    assert_eq!(run.code, 2, "{}", run.stderr);
    let e = run.error_json();
    assert_eq!(e["reason"], "invalid_argument");
    let msg = e["message"].as_str().unwrap();
    assert!(msg.contains(path.to_str().unwrap()), "{msg}");
    assert!(msg.contains("line 2") || msg.contains("line 3"), "{msg}");
    let run = pubmed(&["spell", "x"])
        .with_config("nonsense_key = 1\n")
        .run();
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with("pubmed: error: config file "),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("line 1"), "{}", run.stderr);
}

#[test]
fn pipes_get_no_colour_and_no_progress() {
    let fake = FakeNcbi::new(Corpus::synthetic());
    let f = fake.clone();
    let server = TestServer::start(move |r| f.reply(r));
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["search", "hits30000", "--all"],
        vec!["search", "hits30000", "-f", "table", "--retmax", "3"],
        vec!["convert", "23193287", "PMC3531190", "-f", "table"],
        vec!["spell", "-f", "table", "hits1"],
    ] {
        let out = dir.path().join("out");
        let file = std::fs::File::create(&out).unwrap();
        let run = pubmed(&args).server(&server).stdout_to(file).run();
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        let bytes = std::fs::read(&out).unwrap();
        assert!(!bytes.is_empty(), "{args:?}");
        assert!(!bytes.contains(&0x1b), "{args:?}: ANSI escape in a file");
        assert!(
            !run.stderr.contains('\x1b') && !run.stderr.contains('\r'),
            "{args:?}: progress or colour on stderr: {:?}",
            run.stderr
        );
    }
    // --color always does colour (so the check above can fail)
    let run = pubmed(&["spell", "-f", "table", "--color", "always", "hits1"])
        .server(&server)
        .run();
    assert!(run.stdout.contains('\x1b'), "{}", run.stdout);
}

/// Under a pseudo-terminal (util-linux `script`): table by default,
/// colour unless NO_COLOR.
#[test]
fn terminal_defaults_and_no_color() {
    let server = TestServer::start(|_| Reply::xml(fixture("espell_asthmaa_alergies.xml")));
    let bin = env!("CARGO_BIN_EXE_pubmed");
    let tty = |no_color: bool| {
        let mut p = pubmed(&[]).server(&server);
        p.cmd = std::process::Command::new("script");
        p.cmd
            .args([
                "-qec",
                &format!("{bin} spell 'asthmaa OR alergies'"),
                "/dev/null",
            ])
            .env_clear()
            .env("HOME", p.home.path())
            .env("PUBMED_EUTILS_URL", server.eutils_url())
            .env("TERM", "xterm")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if no_color {
            p.cmd.env("NO_COLOR", "1");
        }
        p.run()
    };
    let run = tty(false);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("Corrected query:"),
        "table on a terminal: {}",
        run.stdout
    );
    assert!(run.stdout.contains('\x1b'), "colour on a terminal");
    let run = tty(true);
    assert!(run.stdout.contains("Corrected query:"));
    assert!(!run.stdout.contains('\x1b'), "NO_COLOR: {:?}", run.stdout);
}

#[test]
fn every_subcommand_help_shows_examples() {
    for (sub, needle) in [
        (
            vec!["--help"],
            "pubmed search 'microbiome[mh]' --all > pmids.txt",
        ),
        (vec!["spell", "--help"], "| jq -r .corrected"),
        (
            vec!["search", "--help"],
            "-f json | jq -r '.summaries[].title'",
        ),
        (vec!["convert", "--help"], "--input refs.txt --to pmcid"),
        (vec!["mcp", "--help"], "\"mcpServers\""),
        (vec!["config", "--help"], "pubmed config set email"),
        (vec!["completions", "--help"], "pubmed completions bash"),
    ] {
        let run = pubmed(&sub).run();
        assert_eq!(run.code, 0, "{sub:?}");
        assert!(run.stdout.contains("Examples:"), "{sub:?}");
        assert!(run.stdout.contains(needle), "{sub:?}: {}", run.stdout);
    }
    let run = pubmed(&["search", "--help"]).run();
    for heading in [
        "Query:", "Dates:", "Filters:", "Paging:", "Output:", "NCBI:",
    ] {
        assert!(
            run.stdout.contains(heading),
            "search --help groups {heading}"
        );
    }
}

#[test]
fn completions_subcommand_prints_the_committed_script() {
    for (shell, file) in [
        ("bash", "pubmed.bash"),
        ("zsh", "_pubmed"),
        ("fish", "pubmed.fish"),
    ] {
        let run = pubmed(&["completions", shell]).run();
        assert_eq!(run.code, 0);
        let committed =
            std::fs::read_to_string(format!("{}/completions/{file}", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        assert_eq!(run.stdout, committed, "{shell}");
    }
}

#[test]
fn usage_errors_are_one_prefixed_line_and_a_hint() {
    let run = pubmed(&["search", "x", "--retmax", "lots"]).run();
    assert_eq!(run.code, 2);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stderr);
    assert!(
        lines[0].starts_with("pubmed: error: invalid value 'lots'"),
        "{}",
        lines[0]
    );
    assert!(lines[1].starts_with("pubmed: hint: "));
    let run = pubmed(&["frobnicate"]).run();
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("pubmed: error: unrecognized subcommand 'frobnicate'")
    );
    let run = pubmed(&["search", "-f", "json", "x", "--retmax", "lots"]).run();
    assert_eq!(run.error_json()["reason"], "invalid_argument");
}

/// Issue 15: clap's usage errors have the shape of every text error
/// (docs/errors.md): `pubmed: error: MESSAGE [invalid_argument]` and one
/// `pubmed: hint:` line holding clap's tip; exit 2.
#[test]
fn clap_usage_errors_end_with_the_invalid_argument_reason() {
    for (args, expected) in [
        (
            &["search", "--bogus", "x"][..],
            [
                "pubmed: error: unexpected argument '--bogus' found [invalid_argument]",
                "pubmed: hint: to pass '--bogus' as a value, use '-- --bogus'",
            ],
        ),
        (
            &["convert", "--from", "nope", "1"],
            [
                "pubmed: error: invalid value 'nope' for '--from <TYPE>' [possible values: pmid, pmcid, doi] [invalid_argument]",
                "pubmed: hint: see `pubmed --help`",
            ],
        ),
        (
            &["convert", "--from", "pmd", "1"],
            [
                "pubmed: error: invalid value 'pmd' for '--from <TYPE>' [possible values: pmid, pmcid, doi] [invalid_argument]",
                "pubmed: hint: a similar value exists: 'pmid'",
            ],
        ),
    ] {
        let run = pubmed(args).run();
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(run.stdout, "", "{args:?}");
        let lines: Vec<&str> = run.stderr.lines().collect();
        assert_eq!(lines, expected, "{args:?}");
    }
    let run = pubmed(&["-f", "json", "convert", "--from", "nope", "1"]).run();
    assert_eq!(run.code, 2);
    let e = run.error_json();
    assert_eq!(e["reason"], "invalid_argument");
    assert_eq!(
        e["message"],
        "invalid value 'nope' for '--from <TYPE>' [possible values: pmid, pmcid, doi]"
    );
}

#[test]
fn a_closed_pipe_exits_0_quietly() {
    let fake = FakeNcbi::new(Corpus::synthetic());
    let f = fake.clone();
    let server = TestServer::start(move |r| f.reply(r));
    let mut p = pubmed(&["search", "hits250000", "--all"]).server(&server);
    let mut child = p.cmd.stdin(Stdio::null()).spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
}

#[test]
fn missing_arguments_and_subcommands() {
    let run = pubmed(&[]).run();
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("Usage: pubmed"), "{}", run.stderr);
    let run = pubmed(&["config"]).run();
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("Usage: pubmed config"),
        "{}",
        run.stderr
    );
    let run = pubmed(&["spell"]).run();
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(
            "pubmed: error: the following required arguments were not provided: <QUERY>..."
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn config_set_checks_the_key_and_says_when_it_unsets() {
    let run = pubmed(&["config", "set", "api_key", "abc def"]).run();
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("letters and digits"), "{}", run.stderr);
    let p = pubmed(&["config", "set", "email", ""]).with_config("email = \"a@b.c\"\n");
    let path = p.config_file();
    let run = p.run();
    assert_eq!(run.code, 0);
    assert!(run.stderr.contains("unset email"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(path).unwrap(), "");
    let run = pubmed(&["spell", "x"]).with_config("colour = 1\n").run();
    assert!(
        run.stderr.contains("pubmed: hint: fix that line"),
        "{}",
        run.stderr
    );
}

#[test]
fn choices_are_read_in_any_case() {
    let server = espell_server();
    // `-f JSON` is `-f json`: the ESpell capture's correction, as JSON
    let run = pubmed(&["spell", "-f", "JSON", "biopythooon"])
        .server(&server)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["corrected"], "biopython");
    // every choice flag takes the same rule
    let fake = FakeNcbi::new(Corpus::default());
    let f = fake.clone();
    let conv = TestServer::start(move |r| f.reply(r));
    let run = pubmed(&["convert", "--from", "PMCID", "--to", "Pmid", "PMC3531190"])
        .server(&conv)
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "23193287\n");
    // a value that is none of them is still clap's usage error with the list
    let run = pubmed(&["spell", "-f", "jsn", "x"]).run();
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("invalid value 'jsn' for '--format <FORMAT>'"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("json"), "{}", run.stderr);
    let run = pubmed(&["completions", "BASH"]).run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("_pubmed()"), "{}", &run.stdout[..200]);
}

#[test]
fn tables_use_the_whole_terminal_width() {
    use support::ncbi;
    let titles = [
        "Effects of a long-term Mediterranean diet intervention on cognitive decline in older adults at high cardiovascular risk: a randomized trial.",
        "GenBank.",
    ];
    let server = TestServer::start(move |r| {
        let ids = ["31452104".to_string(), "22144687".to_string()];
        if r.is("esearch.fcgi") {
            Reply::xml(ncbi::esearch(2, 0, &ids, "q", &[], &[]))
        } else {
            let docs: Vec<ncbi::Doc> = ids
                .iter()
                .zip(titles)
                .map(|(id, t)| {
                    let mut d = ncbi::Doc::new(id);
                    d.title = t.to_string();
                    d
                })
                .collect();
            Reply::xml(ncbi::esummary(&docs, &[]))
        }
    });
    let table = |columns: usize| {
        let run = pubmed(&["search", "-f", "table", "q"])
            .server(&server)
            .env("COLUMNS", &columns.to_string())
            .run();
        assert_eq!(run.code, 0, "{}", run.stderr);
        let lines: Vec<String> = run.stdout.lines().map(str::to_string).collect();
        let widths: Vec<usize> = lines.iter().map(|l| l.chars().count()).collect();
        assert!(
            widths.iter().all(|w| *w == widths[0]),
            "{columns}: {widths:?}"
        );
        (widths[0], lines)
    };
    // PMID, date, first author, title, "Journal": 8 + 10 + 14 + 140 + 7 of
    // content, 3 per column for padding and border, 1 for the last border
    let natural = 8 + 10 + 14 + titles[0].chars().count() + 7 + 5 * 3 + 1;
    assert_eq!(natural, 195);
    // at 200 columns the title fits on one line: the table is as wide as
    // its content and has one line per record
    let (width, lines) = table(200);
    assert_eq!(width, natural, "{lines:#?}");
    assert_eq!(lines.len(), 6, "{lines:#?}");
    assert!(lines[3].contains(titles[0]), "{lines:#?}");
    // narrower terminals get the whole width, titles wrapped
    for columns in [120, 80] {
        let (width, lines) = table(columns);
        assert_eq!(width, columns, "{lines:#?}");
        assert!(lines.len() > 6);
    }
}

/// Issue 25 "first hour": at 80 columns titles were squeezed to ~10
/// characters, identifiers split and an empty Note column took as much
/// width as the title. efetch_pubmed_two_articles.xml (11748933,
/// 11700088): PMID 8, date 7, first author 12 (its header), journal 12
/// ("J Magn Reson"), no note (neither is retracted, so the column is
/// dropped); 5 columns take 16 for borders and padding, the short columns
/// share half of the 49 left (12 each, what they need), the title gets 25
/// and wraps at spaces ("postthawed spermatozoa of" is exactly 25).
#[test]
fn fetch_table_at_80_columns_gives_the_title_the_rest() {
    let server = TestServer::start(|r| {
        assert!(r.is("efetch.fcgi"));
        Reply::xml(fixture("efetch_pubmed_two_articles.xml"))
    });
    let run = pubmed(&["fetch", "-f", "table", "11748933", "11700088"])
        .server(&server)
        .env("COLUMNS", "80")
        .run();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let want = "\
┌──────────┬─────────┬──────────────┬───────────────────────────┬──────────────┐
│ PMID     ┆ Date    ┆ First author ┆ Title                     ┆ Journal      │
╞══════════╪═════════╪══════════════╪═══════════════════════════╪══════════════╡
│ 11748933 ┆ 2001-06 ┆ Taddei AR    ┆ Is cryopreservation a     ┆ Cryobiology  │
│          ┆         ┆              ┆ homogeneous process?      ┆              │
│          ┆         ┆              ┆ Ultrastructure and        ┆              │
│          ┆         ┆              ┆ motility of untreated,    ┆              │
│          ┆         ┆              ┆ prefreezing, and          ┆              │
│          ┆         ┆              ┆ postthawed spermatozoa of ┆              │
│          ┆         ┆              ┆ Diplodus puntazzo         ┆              │
│          ┆         ┆              ┆ (Cetti).                  ┆              │
│ 11700088 ┆ 2001-11 ┆ Casieri C    ┆ Proton MRI of (13)C       ┆ J Magn Reson │
│          ┆         ┆              ┆ distribution by J and     ┆              │
│          ┆         ┆              ┆ chemical shift editing.   ┆              │
└──────────┴─────────┴──────────────┴───────────────────────────┴──────────────┘
";
    assert_eq!(run.stdout, want, "\n{}", run.stdout);
    assert!(run.stdout.lines().all(|l| l.chars().count() == 80));
}

/// esummary_v2_pubmed_2012.xml (5683731, 22144687) as `search --detail
/// full` at 80 columns: PMID 8, date 7, first author and journal 12 each
/// ("Goldberg MJ et al." 18 and "Nucleic Acids Res" 17 wrap at a space),
/// the title 25 of its 32; at 120 columns the whole table fits in 98.
#[test]
fn search_table_at_80_columns_wraps_words_not_identifiers() {
    let server = TestServer::start(|r| {
        if r.is("esearch.fcgi") {
            let ids = ["5683731".to_string(), "22144687".to_string()];
            Reply::xml(support::ncbi::esearch(2, 0, &ids, "genbank", &[], &[]))
        } else {
            Reply::xml(fixture("esummary_v2_pubmed_2012.xml"))
        }
    });
    let table = |columns: &str| {
        let run = pubmed(&["search", "-f", "table", "--detail", "full", "genbank"])
            .server(&server)
            .env("COLUMNS", columns)
            .run();
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stdout
    };
    let want = "\
┌──────────┬─────────┬──────────────┬───────────────────────────┬──────────────┐
│ PMID     ┆ Date    ┆ First author ┆ Title                     ┆ Journal      │
╞══════════╪═════════╪══════════════╪═══════════════════════════╪══════════════╡
│ 5683731  ┆ 1968-08 ┆ Goldberg MJ  ┆ An assistive device for   ┆ Paraplegia   │
│          ┆         ┆ et al.       ┆ smoking.                  ┆              │
│ 22144687 ┆ 2012-01 ┆ Benson DA et ┆ GenBank.                  ┆ Nucleic      │
│          ┆         ┆ al.          ┆                           ┆ Acids Res    │
└──────────┴─────────┴──────────────┴───────────────────────────┴──────────────┘
";
    let got = table("80");
    assert_eq!(got, want, "\n{got}");
    let want = "\
┌──────────┬─────────┬────────────────────┬──────────────────────────────────┬───────────────────┐
│ PMID     ┆ Date    ┆ First author       ┆ Title                            ┆ Journal           │
╞══════════╪═════════╪════════════════════╪══════════════════════════════════╪═══════════════════╡
│ 5683731  ┆ 1968-08 ┆ Goldberg MJ et al. ┆ An assistive device for smoking. ┆ Paraplegia        │
│ 22144687 ┆ 2012-01 ┆ Benson DA et al.   ┆ GenBank.                         ┆ Nucleic Acids Res │
└──────────┴─────────┴────────────────────┴──────────────────────────────────┴───────────────────┘
";
    let got = table("120");
    assert_eq!(got, want, "\n{got}");
}

/// Issue 25 "first hour": `-f ndjson` errors are JSON, but the README said
/// only `-f json`. It names both, and both print the JSON error object.
#[test]
fn readme_says_ndjson_errors_are_json_and_they_are() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        readme.contains("With `-f json` or `-f ndjson` an error is printed on stderr as"),
        "README's error paragraph"
    );
    for format in ["json", "ndjson"] {
        let run = pubmed(&["search", "-f", format, "   "]).run();
        assert_eq!(run.code, 2, "{}", run.stderr);
        let last = run.stderr.lines().last().unwrap_or_default();
        let v: serde_json::Value = serde_json::from_str(last).unwrap();
        assert_eq!(v["error"]["reason"], "blank_query", "{format}: {last}");
    }
}

/// Issue 25 "first hour": the abstract view was not wrapped on a terminal.
/// Under a pseudo-terminal with COLUMNS=60 every line of the two records
/// of efetch_pubmed_two_articles.xml is at most 60 columns, with the same
/// words in the same order as in a pipe, where lines stay whole (the
/// abstracts are single lines of hundreds of characters).
#[test]
fn the_abstract_view_wraps_on_a_terminal_only() {
    let server = TestServer::start(|_| Reply::xml(fixture("efetch_pubmed_two_articles.xml")));
    let bin = env!("CARGO_BIN_EXE_pubmed");
    let mut p = pubmed(&[]).server(&server);
    p.cmd = std::process::Command::new("script");
    p.cmd
        .args([
            "-qec",
            &format!("{bin} fetch --color never 11748933 11700088"),
            "/dev/null",
        ])
        .env_clear()
        .env("HOME", p.home.path())
        .env("PUBMED_EUTILS_URL", server.eutils_url())
        .env("TERM", "xterm")
        .env("COLUMNS", "60")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let tty = p.run();
    assert_eq!(tty.code, 0, "{}", tty.stderr);
    let piped = pubmed(&["fetch", "-f", "abstract", "11748933", "11700088"])
        .server(&server)
        .env("COLUMNS", "60")
        .run();
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    let tty_out = tty.stdout.replace("\r\n", "\n");
    // script's stdout carries the stderr summary too: keep the records
    let tty_out = &tty_out[..tty_out.find("pubmed: 2 PMIDs").unwrap_or(tty_out.len())];
    assert!(tty_out.contains("1. Cryobiology."), "{tty_out}");
    assert!(
        tty_out.lines().all(|l| l.chars().count() <= 60),
        "{tty_out}"
    );
    assert!(piped.stdout.lines().any(|l| l.chars().count() > 300));
    let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(words(tty_out), words(&piped.stdout));
}
