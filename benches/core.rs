//! Benchmarks of the pure core, per item (`cargo bench --bench core`): the
//! spell aligner on long queries, ESearch and ESummary parsing of 10,000
//! records, ID validation and canonicalisation of 1,000,000 IDs, and one
//! booking in the shared request budget.

#[path = "../tests/support/ncbi.rs"]
mod ncbi;

use divan::Bencher;
use divan::counter::ItemsCount;
use pubmed::core::ids;
use pubmed::core::spell::{Segment, apply};
use pubmed::ncbi::{esearch, esummary, xml};

fn main() {
    divan::main();
}

/// A query of `words` words, every third misspelled, with ESpell's segments.
fn spell_case(words: usize) -> (String, Vec<Segment>) {
    let mut query = Vec::new();
    let mut segs = vec![Segment::Original(String::new())];
    for i in 0..words {
        if i > 0 {
            segs.push(Segment::Original(" ".into()));
        }
        if i % 3 == 0 {
            query.push(format!("canser{i}x"));
            segs.push(Segment::Replaced(format!("cancer{i}x")));
        } else if i % 7 == 0 {
            query.push(format!("mesh{i}[mh]"));
            segs.push(Segment::Original(format!("mesh{i}[mh]")));
        } else {
            query.push(format!("word{i}"));
            segs.push(Segment::Original(format!("word{i}")));
        }
    }
    (query.join(" "), segs)
}

#[divan::bench(args = [10, 100, 1000])]
fn spell_align(bencher: Bencher, words: usize) {
    let (query, segs) = spell_case(words);
    bencher
        .counter(ItemsCount::new(words))
        .bench(|| apply(divan::black_box(&query), divan::black_box(&segs)));
}

#[divan::bench]
fn esearch_parse_10000(bencher: Bencher) {
    let ids: Vec<String> = (30_000_000..30_010_000u64).map(|i| i.to_string()).collect();
    let body = ncbi::esearch(10_000, 0, &ids, "x[All Fields]", &[], &[]);
    bencher.counter(ItemsCount::new(ids.len())).bench(|| {
        let root = xml::parse(divan::black_box(&body)).unwrap();
        esearch::parse(&root).unwrap()
    });
}

#[divan::bench]
fn esummary_parse_10000(bencher: Bencher) {
    let docs: Vec<ncbi::Doc> = (30_000_000..30_010_000u64)
        .map(|i| ncbi::Doc::new(&i.to_string()))
        .collect();
    let body = ncbi::esummary(&docs, &[]);
    bencher.counter(ItemsCount::new(docs.len())).bench(|| {
        let (root, taken) = esummary::read(divan::black_box(&body)).unwrap();
        esummary::parse_taken(&root, taken).unwrap()
    });
}

#[divan::bench]
fn ids_detect_1m(bencher: Bencher) {
    let input: Vec<String> = (0..1_000_000u64)
        .map(|i| match i % 4 {
            0 => (10_000_000 + i).to_string(),
            1 => format!("pmc{}", 3_000_000 + i),
            2 => format!("10.1000/journal.{i}"),
            _ => format!("00{}", 20_000_000 + i),
        })
        .collect();
    bencher.counter(ItemsCount::new(input.len())).bench(|| {
        let mut valid = 0usize;
        for raw in &input {
            if ids::detect(divan::black_box(raw)).is_ok() {
                valid += 1;
            }
        }
        valid
    });
}

/// One booking in the shared request budget when it is idle (no other
/// process, gap 0): open the state file, lock, read, write, unlock. The
/// target is under 1 ms per request; the file lives on the runtime dir
/// (tmpfs) in practice, a temporary directory here.
#[divan::bench]
fn budget_book_idle(bencher: Bencher) {
    let dir = tempfile::tempdir().unwrap();
    let budget = pubmed::ncbi::budget::SharedBudget::new(dir.path().join("pubmed"), false, false);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    bencher.bench_local(|| {
        rt.block_on(budget.book("eutils", std::time::Duration::ZERO, 0, u64::MAX))
            .unwrap()
            .unwrap()
    });
}
