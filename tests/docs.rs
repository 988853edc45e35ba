//! The README documents every name the program writes for machines: each
//! warning kind, each per-record reason of `convert`, each exit status. The
//! lists come from the enums, so a new variant fails here until it is
//! documented.

mod support;

use pubmed::core::choice::Choice;
use pubmed::ops::convert::RecordReason;
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
    assert_eq!(WarningKind::ALL.len(), 15);
}

#[test]
fn every_per_record_reason_is_documented() {
    let listed = listed_after(&readme(), "failures are per record:");
    for reason in RecordReason::PER_RECORD {
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
    use support::server::{Reply, TestServer, fixture};
    let server = TestServer::start(|r| {
        if r.is("espell.fcgi") {
            Reply::xml(fixture("espell_asthmaa_alergies.xml"))
        } else if r.is("esearch.fcgi") {
            Reply::xml(fixture("esearch_pubmed_biopython.xml"))
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
