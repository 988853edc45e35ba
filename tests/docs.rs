//! The README and `docs/` document every name the program writes for
//! machines: each warning kind, each reason (of a call and of a record),
//! each spell guard, each exit status. The lists come from the enums, so a
//! new variant fails here until it is documented. Doc comments cite
//! `docs/FILE.md "Section"`: every such page and section exists, and no
//! comment cites a spec file outside the repository.

use crate::support;

use pubmed::core::choice::Choice;
use pubmed::ops::search::WarningKind;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The backquoted words of the README paragraph that starts at `marker`.
fn listed_after(text: &str, marker: &str) -> Vec<String> {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("README has no {marker:?}"));
    let paragraph = text[at..].split("\n\n").next().unwrap();
    paragraph
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn every_warning_kind_is_documented() {
    let listed = listed_after(&readme(), "Warning kinds:");
    for kind in WarningKind::ALL {
        assert!(
            listed.iter().any(|w| w == kind.as_str()),
            "README's warning kinds lack `{kind}`: {listed:?}"
        );
    }
    assert_eq!(WarningKind::ALL.len(), 17);
}

#[test]
fn every_per_record_reason_is_documented() {
    let listed = listed_after(&readme(), "failures are per record:");
    for reason in pubmed::ops::convert::PER_RECORD_REASONS {
        assert!(
            listed.iter().any(|w| w == reason.as_str()),
            "README's per-record reasons lack `{reason}`: {listed:?}"
        );
    }
}

#[test]
fn the_exit_status_table_lists_every_status_and_reason() {
    use pubmed::error::{Exit, Reason};
    let text = readme();
    let at = text
        .find("| exit | meaning |")
        .expect("README's exit table");
    let rows: Vec<&str> = text[at..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    let codes: Vec<u8> = rows
        .iter()
        .map(|r| r.split('|').nth(1).unwrap().trim().parse().unwrap())
        .collect();
    let want: Vec<u8> = Exit::ALL.iter().map(|e| e.code()).collect();
    assert_eq!(codes, want);
    assert_eq!(codes, [0, 1, 2, 69, 70, 74, 75, 130]);
    for r in Reason::ALL {
        let row = rows[Exit::ALL.iter().position(|e| *e == r.exit()).unwrap()];
        assert!(
            row.contains(&format!("`{}`", r.as_str())),
            "{r} belongs in the row of exit {}: {row}",
            r.exit_code()
        );
    }
    // --help's summary and the man page come from the same list
    let man =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/man/pubmed.1")).unwrap();
    let section = &man[man
        .find(".SH \"EXIT STATUS\"")
        .or_else(|| man.find(".SH EXIT STATUS"))
        .expect("EXIT STATUS")..];
    for code in want {
        assert!(
            section.contains(&format!("\\fB{code}\\fR")),
            "man EXIT STATUS lacks {code}"
        );
    }
}

/// The README's first console block is what a terminal shows for the
/// captures: stdout (the table, the count, the ID) and the `pubmed:` notes
/// on stderr, command by command.
#[test]
fn the_first_console_block_is_what_the_commands_print() {
    use support::cli::pubmed;
    use support::ncbi;
    use support::server::{Reply, TestServer, fixture};
    let server = TestServer::start(|r| {
        if r.is("espell.fcgi") {
            Reply::xml(fixture("espell_asthmaa_alergies.xml"))
        } else if r.is("esearch.fcgi") {
            // The capture as the page asked for (`--count`: no IDs).
            let num = |k: &str, d: u64| r.param(k).and_then(|v| v.parse().ok()).unwrap_or(d);
            Reply::xml(ncbi::esearch_page(
                &String::from_utf8(fixture("esearch_pubmed_biopython.xml")).unwrap(),
                num("retstart", 0),
                num("retmax", 20),
            ))
        } else {
            Reply::json(200, fixture("idconv_json_doi_with_versions.json"))
        }
    });
    let text = readme();
    let block = text
        .split("```console\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap();
    let mut commands = block.split("$ pubmed ").skip(1);
    for (args, shown) in [
        (
            &["spell", "-f", "table", "asthmaa OR alergies"][..],
            commands.next(),
        ),
        (
            &["search", "-f", "table", "biopython", "--count"],
            commands.next(),
        ),
        (
            &["convert", "10.1038/ng.590", "--to", "pmcid"],
            commands.next(),
        ),
    ] {
        let shown = shown.expect("three commands");
        let lines: Vec<&str> = shown.lines().skip(1).collect();
        let stdout: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| !l.starts_with("pubmed:"))
            .collect();
        let stderr: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| l.starts_with("pubmed:"))
            .collect();
        let run = pubmed(args).server(&server).run();
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout.lines().collect::<Vec<_>>(), stdout, "{args:?}");
        assert_eq!(run.stderr.lines().collect::<Vec<_>>(), stderr, "{args:?}");
    }
    assert!(commands.next().is_none());
}

fn doc(name: &str) -> String {
    let path = format!("{}/docs/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The rows of the first table after the heading `## {heading}` of a page,
/// each as its trimmed cells (the header and separator rows left out).
fn table_after(text: &str, heading: &str) -> Vec<Vec<String>> {
    let marker = format!("\n## {heading}\n");
    let at = text
        .find(&marker)
        .unwrap_or_else(|| panic!("no section {heading:?}"));
    let section = &text[at + marker.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let rows: Vec<Vec<String>> = section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            // `\|` inside a cell is a pipe of the text, not a column.
            let l = l.replace("\\|", "\u{1}");
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().replace('\u{1}', "|"))
                .collect()
        })
        .collect();
    assert!(rows.len() > 2, "section {heading:?} has no table");
    rows.into_iter().skip(2).collect()
}

/// The backquoted name a table row starts with: `` `not_found` `` → `not_found`.
fn first_name(row: &[String]) -> String {
    row[0].trim_matches('`').to_string()
}

#[test]
fn docs_search_lists_every_warning_kind_once() {
    let rows = table_after(&doc("search.md"), "Warnings");
    let listed: Vec<String> = rows.iter().map(|r| first_name(r)).collect();
    let want: Vec<&str> = WarningKind::ALL.iter().map(|k| k.as_str()).collect();
    for kind in &want {
        assert_eq!(
            listed.iter().filter(|l| l == kind).count(),
            1,
            "docs/search.md \"Warnings\" must list `{kind}` once: {listed:?}"
        );
    }
    for l in &listed {
        assert!(
            want.contains(&l.as_str()),
            "docs/search.md lists `{l}`, which the code does not emit"
        );
    }
    // errors.md names every kind and points to the table
    let errors = doc("errors.md");
    for kind in &want {
        assert!(
            errors.contains(&format!("`{kind}`")),
            "docs/errors.md lacks `{kind}`"
        );
    }
}

#[test]
fn docs_errors_gives_every_reason_its_exit_and_mcp_code() {
    use pubmed::error::Reason;
    let rows = table_after(&doc("errors.md"), "Reasons of a failed call");
    for r in Reason::ALL {
        let row = rows
            .iter()
            .find(|row| first_name(row) == r.as_str())
            .unwrap_or_else(|| panic!("docs/errors.md has no row for `{r}`"));
        assert_eq!(row[2], r.exit_code().to_string(), "exit of `{r}`");
        assert_eq!(row[3], r.mcp_code().to_string(), "MCP code of `{r}`");
        assert_eq!(
            row[4].starts_with("yes"),
            r.retryable(),
            "retry advice of `{r}`: {}",
            row[4]
        );
    }
    assert_eq!(
        rows.len(),
        Reason::ALL.len(),
        "a row for a reason the code lacks"
    );
}

#[test]
fn docs_errors_lists_every_per_record_reason() {
    let rows = table_after(&doc("errors.md"), "Reasons of one record");
    let listed: Vec<String> = rows.iter().map(|r| first_name(r)).collect();
    let want = pubmed::ops::per_record_reasons();
    assert!(want.contains(&"not_in_pmc"), "{want:?}");
    for reason in &want {
        assert!(
            listed.iter().any(|l| l == reason),
            "docs/errors.md \"Reasons of one record\" lacks `{reason}`: {listed:?}"
        );
    }
    for l in &listed {
        assert!(
            want.contains(&l.as_str()),
            "docs/errors.md lists `{l}`, which no record carries"
        );
    }
}

#[test]
fn docs_errors_exit_table_is_the_exit_list() {
    use pubmed::error::{Exit, Reason};
    let rows = table_after(&doc("errors.md"), "Exit statuses");
    let codes: Vec<String> = rows.iter().map(|r| r[0].clone()).collect();
    let want: Vec<String> = Exit::ALL.iter().map(|e| e.code().to_string()).collect();
    assert_eq!(codes, want);
    assert_eq!(codes, ["0", "1", "2", "69", "70", "74", "75", "130"]);
    for r in Reason::ALL {
        let row = &rows[Exit::ALL.iter().position(|e| *e == r.exit()).unwrap()];
        assert!(
            row[2].contains(&format!("`{}`", r.as_str())),
            "`{r}` belongs in the row of exit {}: {row:?}",
            r.exit_code()
        );
    }
}

#[test]
fn docs_spell_lists_every_guard() {
    use pubmed::core::spell::Guard;
    let rows = table_after(&doc("spell.md"), "Guards");
    let listed: Vec<String> = rows.iter().map(|r| first_name(r)).collect();
    let want: Vec<&str> = Guard::ALL.iter().map(|g| g.as_str()).collect();
    assert_eq!(listed, want, "docs/spell.md \"Guards\" in the enum's order");
}

/// Every page of `docs/` is in its index, and every index entry is a page.
#[test]
fn docs_index_lists_every_page() {
    let index = doc("README.md");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs");
    let mut pages: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".md") && n != "README.md")
        .collect();
    pages.sort();
    for p in &pages {
        assert!(
            index.contains(&format!("[{p}]({p})")),
            "docs/README.md does not list {p}"
        );
    }
    let mut rest = index.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let target = &rest[..rest.find(')').unwrap()];
        if target.ends_with(".md") && !target.contains('/') {
            assert!(
                pages.iter().any(|p| p == target),
                "docs/README.md lists {target}, which does not exist"
            );
        }
    }
}

/// The doc comments of `src/`, one string per file: `//!` and `///` lines
/// joined with spaces, so a citation broken over two lines reads whole.
fn doc_comments() -> Vec<(String, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root.join("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let comments: Vec<&str> = text
                .lines()
                .filter_map(|l| {
                    let t = l.trim_start();
                    t.strip_prefix("//!")
                        .or_else(|| t.strip_prefix("///"))
                        .or_else(|| t.strip_prefix("//"))
                })
                .map(str::trim)
                .collect();
            let name = p.strip_prefix(root).unwrap().display().to_string();
            (name, comments.join(" "))
        })
        .collect()
}

/// The headings of a page, backquotes dropped.
fn headings(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim().replace('`', ""))
        .collect()
}

#[test]
fn doc_comments_cite_pages_and_sections_that_exist() {
    let mut cited = 0;
    for (file, comments) in doc_comments() {
        let mut rest = comments.as_str();
        while let Some(at) = rest.find("docs/") {
            rest = &rest[at + 5..];
            let Some(end) = rest.find(".md") else { break };
            let page = &rest[..end];
            if page.is_empty() || !page.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
                continue;
            }
            let path = format!("{}/docs/{page}.md", env!("CARGO_MANIFEST_DIR"));
            if file.starts_with("src/mcp/") && !std::path::Path::new(&path).exists() {
                // The MCP page lands with the MCP adapter's own work.
                continue;
            }
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|_| panic!("{file} cites docs/{page}.md, which does not exist"));
            cited += 1;
            // `docs/x.md "A" and "B"`: every quoted section right after it.
            let mut after = rest[end + 3..].trim_start_matches([')', '`', ',', ':']);
            let heads = headings(&text);
            loop {
                after = after.trim_start();
                let Some(q) = after.strip_prefix('"') else {
                    break;
                };
                let Some(close) = q.find('"') else { break };
                let section = &q[..close];
                assert!(
                    heads
                        .iter()
                        .any(|h| h.to_lowercase().contains(&section.to_lowercase())),
                    "{file} cites docs/{page}.md \"{section}\", which has no such section: {heads:?}"
                );
                after = q[close + 1..].trim_start();
                match after.strip_prefix("and ") {
                    Some(more) => after = more,
                    None => break,
                }
            }
        }
    }
    assert!(cited > 40, "only {cited} citations of docs/ found");
}

/// The project's rules are cited from `docs/`; the spec files they were
/// first written in are not part of the repository.
#[test]
fn doc_comments_cite_no_file_outside_the_repository() {
    let spec = ["client.md", "search.md", "spell.md", "convert.md", "cli.md"];
    for (file, comments) in doc_comments() {
        if file.starts_with("src/mcp/") {
            continue;
        }
        for name in spec {
            let mut rest = comments.as_str();
            while let Some(at) = rest.find(name) {
                assert!(
                    rest[..at].ends_with("docs/"),
                    "{file} cites {name} outside docs/: …{}…",
                    &rest[at.saturating_sub(40)..(at + name.len() + 20).min(rest.len())]
                );
                rest = &rest[at + name.len()..];
            }
        }
        assert!(
            !comments.contains('§'),
            "{file} cites a § section of a spec file"
        );
    }
}

/// The values of the `-f` entry of a man page, in order.
fn man_formats(page: &str) -> Vec<String> {
    let path = format!("{}/man/{page}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let at = text
        .find("\\fB\\-f\\fR, \\fB\\-\\-format\\fR")
        .unwrap_or_else(|| panic!("{page} has no -f entry"));
    let entry = &text[at..];
    let entry = &entry[..entry.find(".RE").unwrap_or(entry.len())];
    entry
        .split(".IP \\(bu 2\n")
        .skip(1)
        .map(|v| v.trim().replace("\\-", "-"))
        .collect()
}

/// The `[possible values: …]` of the `-f` line of `pubmed ARGS --help`.
fn help_formats(args: &[&str]) -> Vec<String> {
    let mut args = args.to_vec();
    args.push("--help");
    let run = support::cli::pubmed(&args).run();
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    let flat = run.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    let entry = &flat[flat.find("-f, --format <FORMAT>").expect("an -f line")..];
    let list = &entry[entry.find("[possible values: ").unwrap() + 18..];
    list[..list.find(']').unwrap()]
        .split(", ")
        .map(str::to_string)
        .collect()
}

/// One command's `-f`: its `--help`, its man page and the clap command
/// (which completions come from) list exactly `F`'s formats, in order, and
/// its `--help` gives `F`'s defaults.
fn offers_exactly<F: pubmed::output::CommandFormat>(path: &[&str]) {
    let want: Vec<String> = F::ALL.iter().map(|f| f.as_str().to_string()).collect();
    assert_eq!(help_formats(path), want, "pubmed {path:?} --help");
    assert_eq!(
        man_formats(&format!("pubmed-{}.1", path.join("-"))),
        want,
        "man page of {path:?}"
    );
    let mut cmd = pubmed::cli::command();
    cmd.build();
    let mut sub = &cmd;
    for p in path {
        sub = sub.find_subcommand(p).unwrap();
    }
    let arg = sub
        .get_arguments()
        .find(|a| a.get_id() == "format")
        .unwrap();
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .map(|v| v.get_name().to_string())
        .collect();
    assert_eq!(values, want, "clap's {path:?}");
    let help = arg.get_help().unwrap().to_string();
    assert_eq!(help, F::help());
    assert!(help.contains(F::PIPE.as_str()), "{help}");
}

#[test]
fn each_command_offers_exactly_its_formats() {
    use pubmed::cli::each_command_format;
    use pubmed::output::search_all::SearchAllFormat;
    use pubmed::output::*;
    /// Checks each listed subcommand's `-f`, and collects the paths.
    struct Offers(Vec<Vec<&'static str>>);
    impl FormatVisitor for Offers {
        fn visit<F: CommandFormat>(&mut self) {
            if let Some(path) = F::subcommand() {
                offers_exactly::<F>(&path);
                self.0.push(path);
            }
        }
    }
    let mut offers = Offers(Vec::new());
    each_command_format(&mut offers);
    let listed = offers.0;
    assert!(listed.len() >= 10, "{listed:?}");
    assert!(listed.contains(&vec!["config", "show"]), "{listed:?}");
    // `search --all` names its own subset in its help.
    let mut cmd = pubmed::cli::command();
    cmd.build();
    let search = cmd.find_subcommand("search").unwrap();
    let all = search
        .get_arguments()
        .find(|a| a.get_id() == "all")
        .unwrap();
    assert!(
        all.get_help()
            .unwrap()
            .to_string()
            .contains(&format!("(formats {};", SearchAllFormat::names())),
        "{:?}",
        all.get_help()
    );
    // No subcommand shows every format: each lists its own, or (no
    // formats of its own) none; one that shows formats is in the list
    // checked above.
    fn walk(cmd: &clap::Command, path: Vec<&str>, listed: &[Vec<&str>]) {
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            let mut path = path.clone();
            path.push(sub.get_name());
            let f = sub
                .get_arguments()
                .find(|a| a.get_id() == "format")
                .unwrap_or_else(|| panic!("{path:?}: no -f"));
            assert!(
                f.is_hide_set() || f.get_possible_values().len() < Format::ALL.len(),
                "{path:?} offers every format"
            );
            assert!(
                f.is_hide_set() || listed.contains(&path),
                "{path:?} shows formats not in cli::each_command_format"
            );
            walk(sub, path, listed);
        }
    }
    walk(&cmd, Vec::new(), &listed);
}

/// The MCP server's instructions and `pubmed mcp --help` name exactly the
/// tools it serves (`tools::specs`).
#[test]
fn mcp_texts_name_exactly_the_served_tools() {
    let specs: Vec<&str> = pubmed::mcp::tools::specs().iter().map(|s| s.name).collect();
    assert!(specs.len() >= 6, "{specs:?}");
    let help = support::cli::pubmed(&["mcp", "--help"]).run().stdout;
    for text in [pubmed::mcp::tools::instructions(), help] {
        let named: Vec<&str> = text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.starts_with("pubmed_"))
            .collect();
        assert_eq!(named, specs, "{text}");
    }
}

/// Every test file is compiled: `autotests = false` (Cargo.toml) means a
/// `tests/*.rs` that `tests/tests.rs` does not declare would never run.
#[test]
fn every_test_file_is_a_module_of_the_test_binary() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests");
    let main = std::fs::read_to_string(format!("{dir}/tests.rs")).unwrap();
    let declared: std::collections::BTreeSet<String> = main
        .lines()
        .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
        .filter(|m| *m != "support")
        .map(String::from)
        .collect();
    let files: std::collections::BTreeSet<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            let stem = name.strip_suffix(".rs")?.to_string();
            (stem != "tests" && stem != "assets").then_some(stem)
        })
        .collect();
    assert_eq!(
        declared, files,
        "tests/tests.rs declares exactly tests/*.rs"
    );
}

/// Issue 25 "first hour": the README's MCP client snippets, pasted as they
/// are (`"NCBI_API_KEY": "your-key"` then), made `pubmed mcp` exit 2 before
/// the handshake. Each snippet's `env` block, as written, lets the server
/// start and answer `initialize`.
#[test]
fn readme_mcp_snippets_start_the_server_as_pasted() {
    let readme = readme();
    let mut snippets = 0;
    for block in readme.split("```json\n").skip(1) {
        let block = block.split("```").next().unwrap();
        let Ok(v) = serde_json::from_str::<serde_json::Value>(block) else {
            continue;
        };
        let Some(server) = v
            .get("mcpServers")
            .or_else(|| v.get("servers"))
            .and_then(|s| s.get("pubmed"))
        else {
            continue;
        };
        snippets += 1;
        assert_eq!(server["args"], serde_json::json!(["mcp"]));
        let mut p = support::cli::pubmed(&["mcp"]).stdin(
            "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"readme\",\"version\":\"0\"}}}\n",
        );
        for (k, val) in server["env"].as_object().into_iter().flatten() {
            p = p.env(k, val.as_str().unwrap());
        }
        let run = p.run();
        assert_eq!(run.code, 0, "{block}\n{}", run.stderr);
        let answer: serde_json::Value =
            serde_json::from_str(run.stdout.lines().next().unwrap_or("null")).unwrap();
        assert_eq!(answer["id"], 0, "{}", run.stdout);
        assert!(answer["result"]["serverInfo"].is_object(), "{answer}");
    }
    assert_eq!(snippets, 2, "the Claude Desktop and VS Code snippets");
    // the placeholder the README had: still exit 2, naming the variable
    let run = support::cli::pubmed(&["mcp"])
        .env("NCBI_API_KEY", "your-key")
        .stdin("")
        .run();
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("NCBI_API_KEY"), "{}", run.stderr);
}
