//! The README documents every name the program writes for machines: each
//! warning kind, each per-record reason of `convert`, each exit status. The
//! lists come from the enums, so a new variant fails here until it is
//! documented.

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
    assert_eq!(WarningKind::ALL.len(), 13);
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
