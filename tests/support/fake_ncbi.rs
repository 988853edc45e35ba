//! A fake NCBI over a synthetic corpus: ESearch with `(Q) AND LO:HI[uid]`
//! ranges and PubMed's 9,999-record window, ESummary and ESpell in NCBI's
//! formats, an optional NCBI-like rate limit, and request counters.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rand::{Rng, SeedableRng};

use super::ncbi::{self, Doc};
use super::server::{RateLimit, Reply, Request};

/// PubMed serves records 0–9,998 of a query.
pub const WINDOW: usize = 9999;

/// Queries and the PMIDs they hit (ascending).
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    pub queries: HashMap<String, Arc<Vec<u64>>>,
}

impl Corpus {
    /// `hits0`, `hits1`, `hits9999`, `hits10000`, `hits30000`,
    /// `hits250000`: uniform over PMIDs 1,000,000–41,000,000; and
    /// `skewed60000`: density growing towards recent PMIDs, as in PubMed.
    pub fn synthetic() -> Corpus {
        let mut c = Corpus::default();
        for (i, n) in [0usize, 1, 9999, 10_000, 30_000, 250_000]
            .into_iter()
            .enumerate()
        {
            c.add_uniform(&format!("hits{n}"), n, 1_000_000, 41_000_000, i as u64);
        }
        c.add_skewed("skewed60000", 60_000, 41_000_000, 99);
        c
    }

    /// `n` distinct PMIDs drawn uniformly from `lo..hi`.
    pub fn add_uniform(&mut self, name: &str, n: usize, lo: u64, hi: u64, seed: u64) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut set = std::collections::BTreeSet::new();
        while set.len() < n {
            set.insert(rng.random_range(lo..hi));
        }
        self.queries
            .insert(name.into(), Arc::new(set.into_iter().collect()));
    }

    /// `n` distinct PMIDs below `top`, denser near `top` (quadratic).
    pub fn add_skewed(&mut self, name: &str, n: usize, top: u64, seed: u64) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut set = std::collections::BTreeSet::new();
        while set.len() < n {
            let u: f64 = rng.random::<f64>().sqrt();
            set.insert(1 + (u * (top - 2) as f64) as u64);
        }
        self.queries
            .insert(name.into(), Arc::new(set.into_iter().collect()));
    }

    /// The PMIDs `term` hits: a corpus query, optionally `(Q) AND LO:HI[uid]`.
    pub fn hits(&self, term: &str) -> Vec<u64> {
        let (base, range) = split_uid_range(term);
        let Some(all) = self.queries.get(base) else {
            return Vec::new();
        };
        match range {
            None => all.to_vec(),
            Some((lo, hi)) => {
                let start = all.partition_point(|p| *p < lo);
                let end = all.partition_point(|p| *p <= hi);
                all[start..end.max(start)].to_vec()
            }
        }
    }
}

/// `(Q) AND LO:HI[uid]` → (`Q`, Some((LO, HI))); anything else → (term, None).
pub fn split_uid_range(term: &str) -> (&str, Option<(u64, u64)>) {
    let parse = || {
        let rest = term.strip_suffix("[uid]")?;
        let at = rest.rfind(" AND ")?;
        let (lo, hi) = rest[at + 5..].split_once(':')?;
        let base = rest[..at].strip_prefix('(')?.strip_suffix(')')?;
        Some((base, (lo.trim().parse().ok()?, hi.trim().parse().ok()?)))
    };
    match parse() {
        Some((base, r)) => (base, Some(r)),
        None => (term, None),
    }
}

/// Counts of what the fake saw and answered.
#[derive(Debug, Default)]
pub struct Counters {
    pub esearch: AtomicUsize,
    pub esummary: AtomicUsize,
    pub espell: AtomicUsize,
    pub idconv: AtomicUsize,
    pub rate_limited: AtomicUsize,
}

/// The fake NCBI service.
#[derive(Default)]
pub struct FakeNcbi {
    pub corpus: Corpus,
    /// Answer 429 above 3 (10 with a key) requests in any second.
    pub limit: Option<RateLimit>,
    pub counters: Counters,
    /// ESearch terms containing one of these are answered with HTTP 500
    /// (e.g. `AND 1:` fails the lowest PMID range).
    pub failing_terms: Mutex<Vec<String>>,
}

impl FakeNcbi {
    pub fn new(corpus: Corpus) -> Arc<FakeNcbi> {
        Arc::new(FakeNcbi {
            corpus,
            ..Default::default()
        })
    }

    pub fn rate_limited(corpus: Corpus) -> Arc<FakeNcbi> {
        Arc::new(FakeNcbi {
            corpus,
            limit: Some(RateLimit::default()),
            ..Default::default()
        })
    }

    pub fn reply(&self, req: &Request) -> Reply {
        if let Some(limit) = &self.limit
            && limit.over(req)
        {
            self.counters.rate_limited.fetch_add(1, Ordering::SeqCst);
            return Reply::too_many();
        }
        if req.is("esearch.fcgi") {
            self.counters.esearch.fetch_add(1, Ordering::SeqCst);
            return self.esearch(req);
        }
        if req.is("esummary.fcgi") {
            self.counters.esummary.fetch_add(1, Ordering::SeqCst);
            let docs: Vec<Doc> = req
                .param("id")
                .unwrap_or_default()
                .split(',')
                .filter(|s| !s.is_empty())
                .map(Doc::new)
                .collect();
            return Reply::xml(ncbi::esummary(&docs, &[]));
        }
        Reply::status(404, "text/plain", "unknown endpoint")
    }

    fn esearch(&self, req: &Request) -> Reply {
        let term = req.param("term").unwrap_or_default();
        if self
            .failing_terms
            .lock()
            .unwrap()
            .iter()
            .any(|t| term.contains(t.as_str()))
        {
            return Reply::status(500, "text/plain", "Internal Server Error");
        }
        let retstart: usize = req
            .param("retstart")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let retmax: usize = req
            .param("retmax")
            .and_then(|v| v.parse().ok())
            .unwrap_or(20);
        if retstart > WINDOW - 1 {
            return Reply::xml(ncbi::eutils_error(
                "eSearchResult",
                "Search Backend failed: Exception: 'retstart' cannot be larger than 9998. For PubMed, ESearch can only retrieve the first 9,999 records matching the query.",
            ));
        }
        let mut hits = self.corpus.hits(term);
        hits.reverse(); // most recent first, as PubMed's default sort
        let end = (retstart + retmax).min(WINDOW).min(hits.len());
        let ids: Vec<String> = hits
            .get(retstart..end.max(retstart))
            .unwrap_or_default()
            .iter()
            .map(u64::to_string)
            .collect();
        let translation = format!("{term}[All Fields]");
        Reply::xml(ncbi::esearch(
            hits.len() as u64,
            retstart as u64,
            &ids,
            &translation,
            &[],
            &[],
        ))
    }
}
