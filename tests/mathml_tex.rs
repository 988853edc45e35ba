//! MathML → TeX against an independent reference: pandoc 3.9's answers
//! (tests/fixtures/mathml_tex_pandoc.json, made by
//! scripts/mathml_tex_pandoc.py) for every `<mml:math>` in the fixtures
//! with MathML and for one snippet per element the converter knows.
//! Compared after folding whitespace runs to one space (docs/fulltext.md
//! "Formulas").

use pubmed::core::mathml;
use serde_json::Value;

fn fold(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Where the converter departs from pandoc on purpose (documented in
/// docs/fulltext.md "Formulas"): (source, index, our TeX).
const DEPARTURES: [(&str, u64, &str); 2] = [
    // The author's TeX annotation, not the first child.
    ("synthetic", 34, "\\alpha"),
    // A stretchy arrow is a plain relation; pandoc writes
    // `\left. a\rightarrow b \right.`.
    ("synthetic", 32, "a \\rightarrow b"),
];

#[test]
fn every_formula_is_pandocs_tex() {
    let j: Value = serde_json::from_str(
        &std::fs::read_to_string("tests/fixtures/mathml_tex_pandoc.json").unwrap(),
    )
    .unwrap();
    assert_eq!(j["pandoc"], "pandoc 3.9");
    let fs = j["formulas"].as_array().unwrap();
    // 4 in the PubMed abstract, 32 in the MathML article, 2 in the review.
    assert_eq!(fs.iter().filter(|f| f["source"] != "synthetic").count(), 38);
    let mut bad = Vec::new();
    for f in fs {
        let (src, i) = (f["source"].as_str().unwrap(), f["index"].as_u64().unwrap());
        let m = mathml::parse(f["mathml"].as_str().unwrap()).unwrap();
        let ours = mathml::to_tex(&m);
        let want = match DEPARTURES.iter().find(|d| d.0 == src && d.1 == i) {
            Some(d) => {
                assert_ne!(
                    fold(f["tex"].as_str().unwrap()),
                    d.2,
                    "{src} {i} is no departure"
                );
                d.2.to_string()
            }
            None => fold(f["tex"].as_str().unwrap()),
        };
        if fold(&ours) != want {
            bad.push(format!("{src} #{i}: ours {ours:?}, pandoc {want:?}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
