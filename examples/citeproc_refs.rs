//! Writes, for the PubMed EFetch XML files named on the command line, one
//! JSON line per record: `{"pmid", "item", "refs": {style: text}}` — the
//! CSL-JSON item `fetch -f csl-json` writes and the reference `cite
//! --style STYLE` prints (numbered 1). `bench/citeproc/compare.py` feeds the
//! items to pandoc's citeproc and compares (docs/cite.md "Measured against
//! pandoc"). Usage: `citeproc_refs STYLE,STYLE,… FILE.xml…`.

use pubmed::core::citation::csl_item;
use pubmed::ncbi::efetch;
use pubmed::ops::cite::CiteStyle;
use serde_json::{Map, Value, json};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(names) = args.next() else {
        eprintln!("usage: citeproc_refs STYLE,STYLE,… FILE.xml…");
        std::process::exit(2);
    };
    let styles: Vec<(String, CiteStyle)> = names
        .split(',')
        .map(|n| {
            let s = CiteStyle::resolve(n).unwrap_or_else(|e| {
                eprintln!("{n}: {e}");
                std::process::exit(2)
            });
            (n.to_string(), s)
        })
        .collect();
    for path in args {
        let body = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("{path}: {e}");
            std::process::exit(2)
        });
        let Ok(set) = efetch::parse_set(&body, false) else {
            eprintln!("{path}: not a PubmedArticleSet");
            continue;
        };
        for (pmid, record, _) in set.articles {
            let Ok(r) = record else { continue };
            let mut refs = Map::new();
            for (name, style) in &styles {
                let text = match style.format(&r, 1) {
                    Ok(reference) => reference.text(),
                    Err(e) => format!("[citation_failed: {e}]"),
                };
                refs.insert(name.clone(), Value::String(text));
            }
            let line = json!({"pmid": pmid, "file": path, "item": csl_item(&r), "refs": refs});
            println!("{line}");
        }
    }
}
