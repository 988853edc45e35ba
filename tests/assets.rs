//! The committed shell completions (`completions/`) and man pages (`man/`)
//! must match what the current CLI definition generates. To refresh them:
//! `UPDATE_ASSETS=1 cargo test --test assets`.

use std::collections::BTreeMap;
use std::path::Path;

use pubmed::cli::assets;

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect()
        })
        .unwrap_or_default()
}

fn check(name: &str, generate: impl Fn(&Path)) {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    if std::env::var_os("UPDATE_ASSETS").is_some() {
        let _ = std::fs::remove_dir_all(&committed);
        generate(&committed);
        return;
    }
    let fresh = tempfile::tempdir().unwrap();
    generate(fresh.path());
    let (want, have) = (files(fresh.path()), files(&committed));
    assert_eq!(
        want.keys().collect::<Vec<_>>(),
        have.keys().collect::<Vec<_>>(),
        "{name}/ is stale: run `UPDATE_ASSETS=1 cargo test --test assets`"
    );
    for (file, bytes) in &want {
        assert!(
            have[file] == *bytes,
            "{name}/{file} is stale: run `UPDATE_ASSETS=1 cargo test --test assets`"
        );
    }
}

#[test]
fn completions_are_fresh() {
    check("completions", |dir| {
        let written = assets::write_completions(dir).unwrap();
        assert_eq!(written.len(), 5);
    });
    let names: Vec<String> = files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("completions"))
        .into_keys()
        .collect();
    assert_eq!(
        names,
        vec![
            "_pubmed",
            "_pubmed.ps1",
            "pubmed.bash",
            "pubmed.elv",
            "pubmed.fish"
        ]
    );
}

#[test]
fn man_pages_are_fresh() {
    check("man", |dir| assets::write_man_pages(dir).unwrap());
    let names: Vec<String> = files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("man"))
        .into_keys()
        .collect();
    for page in [
        "pubmed.1",
        "pubmed-spell.1",
        "pubmed-search.1",
        "pubmed-convert.1",
        "pubmed-mcp.1",
        "pubmed-config.1",
        "pubmed-completions.1",
    ] {
        assert!(names.iter().any(|n| n == page), "{page} missing: {names:?}");
    }
}
