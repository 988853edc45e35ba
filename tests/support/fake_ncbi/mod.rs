//! A fake NCBI over a synthetic corpus: ESearch with `(Q) AND LO:HI[uid]`
//! ranges and PubMed's 9,999-record window, ESummary, ESpell, ELink and
//! EFetch (XML and MEDLINE, with retraction links and unknown PMIDs) in
//! NCBI's formats, an optional NCBI-like rate limit, and request counters.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rand::{Rng, SeedableRng};

use super::ncbi::{self, Article, Doc};
use super::server::{self, RateLimit, Reply, Request};

// What the fake answers for other databases and services, one module per
// file of this directory (a new one is hooked into `FakeNcbi::reply`).
automod::dir!(pub "tests/support/fake_ncbi");

/// PubMed serves records 0–9,998 of a query.
pub const WINDOW: usize = 9999;

/// Queries and the PMIDs they hit (ascending).
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    pub queries: HashMap<String, Arc<Vec<u64>>>,
}

impl Corpus {
    /// `hits0`, `hits1`, `hits9999`, `hits10000`, `hits30000`,
    /// `hits250000`, `hits200000`: uniform over PMIDs 1,000,000–41,000,000;
    /// and `skewed60000`: density growing towards recent PMIDs, as in PubMed.
    pub fn synthetic() -> Corpus {
        let mut c = Corpus::default();
        for (i, n) in [0usize, 1, 9999, 10_000, 30_000, 250_000, 200_000]
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

/// NCBI's limits on one ESummary request, as the fake enforces them.
/// JSON output (`retmode=json`) takes at most 500 UIDs, NCBI's documented
/// limit. XML takes up to 10,000 UIDs, the most ESummary returns for one
/// request (its documented `retmax` cap); NCBI states no lower limit for
/// XML, so the fake lets a client use what the service allows and catches
/// one that sends more. A GET carries at most 200 IDs (NCBI asks for POST
/// above that; longer URLs fail), answered HTTP 414.
pub const ESUMMARY_JSON_MAX: usize = 500;
/// See [`ESUMMARY_JSON_MAX`].
pub const ESUMMARY_XML_MAX: usize = 10_000;
/// See [`ESUMMARY_JSON_MAX`].
pub const GET_MAX_IDS: usize = 200;

/// One ESummary request as the fake saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryCall {
    /// `GET` or `POST`.
    pub method: String,
    /// `retmode=json` was asked.
    pub json: bool,
    /// `version` sent.
    pub version: Option<String>,
    /// The IDs sent.
    pub ids: usize,
}

/// Counts of what the fake saw and answered.
#[derive(Debug, Default)]
pub struct Counters {
    pub esearch: AtomicUsize,
    pub esummary: AtomicUsize,
    pub espell: AtomicUsize,
    pub idconv: AtomicUsize,
    pub elink: AtomicUsize,
    pub efetch: AtomicUsize,
    pub rate_limited: AtomicUsize,
}

/// The fake NCBI service.
#[derive(Default)]
pub struct FakeNcbi {
    pub corpus: Corpus,
    /// Answer 429 above 3 (10 with a key) requests in any second.
    pub limit: Option<RateLimit>,
    pub counters: Counters,
    /// ESpell bodies by `term`.
    pub espell: Mutex<HashMap<String, Vec<u8>>>,
    /// ID Converter answers in the legacy shape (no `requested-id`, string `pmid`).
    pub idconv_legacy: bool,
    /// Every ID Converter request: (`idtype`, IDs as sent).
    pub idconv_batches: Mutex<Vec<(String, Vec<String>)>>,
    /// ID Converter requests holding one of these IDs get HTTP 500.
    pub failing_ids: Mutex<Vec<String>>,
    /// PMIDs whose records have no DOI (most articles before ~2000): no
    /// `doi` in ESummary nor in the ID Converter's record, as NCBI omits it.
    pub no_doi: Mutex<Vec<u64>>,
    /// ESearch terms containing one of these are answered with HTTP 500
    /// (e.g. `AND 1:` fails the lowest PMID range).
    pub failing_terms: Mutex<Vec<String>>,
    /// Injected faults, when set.
    pub faults: Option<Faults>,
    /// Every EFetch request: the `id` list as sent.
    pub efetch_batches: Mutex<Vec<Vec<String>>>,
    /// PMIDs EFetch answers with a `DeleteCitation`.
    pub deleted: Mutex<Vec<u64>>,
    /// EFetch requests for more PMIDs than this get NCBI's backend-timeout
    /// error (`efetch_error_http400_external_viewer_timeout.xml`).
    pub efetch_timeout_above: Mutex<Option<usize>>,
    /// EFetch requests holding one of these PMIDs get HTTP 500.
    pub failing_efetch: Mutex<Vec<String>>,
    /// Every ELink request, as received.
    pub elink_calls: Mutex<Vec<ElinkCall>>,
    /// ELink requests carrying one of these PMIDs get a top-level
    /// `<ERROR>` with the text.
    pub elink_errors: Mutex<HashMap<String, String>>,
    /// ELink similar-article lists carry `<Score>`s (the shape of
    /// `elink_pubmed_neighbor_with_scores_2008.xml`).
    pub elink_scored: bool,
    /// Every ESummary request, in arrival order.
    pub esummary_calls: Mutex<Vec<SummaryCall>>,
    /// ESummary requests carrying more IDs than this are answered with
    /// NCBI's backend timeout (HTTP 400, `Status: Timeout`).
    pub esummary_timeout_above: Mutex<Option<usize>>,
    /// PMIDs added to a corpus query while the server runs (PubMed
    /// indexing new articles; sorted in with the corpus's).
    pub grown: Mutex<HashMap<String, Vec<u64>>>,
    /// ESearch `QueryTranslation` by term, in place of `TERM[All Fields]`
    /// (PubMed's mapping changing, e.g. a new MeSH entry term).
    pub translations: Mutex<HashMap<String, String>>,
}

/// One ELink request as the fake received it.
#[derive(Debug, Clone)]
pub struct ElinkCall {
    /// `GET` or `POST`.
    pub method: String,
    /// Every `id` parameter, in order (one per PMID when repeated).
    pub ids: Vec<String>,
    pub linkname: Option<String>,
    pub cmd: Option<String>,
    pub dbfrom: Option<String>,
    pub db: Option<String>,
}

/// PMIDs from here up are unknown to the fake PubMed (ESummary errors;
/// EFetch leaves them out).
pub const UNKNOWN_FROM: u64 = 99_000_000;

/// The PMID whose ELink lists are the real capture's
/// (`elink_pubmed_neighbor_all_pubmed_linknames.xml`).
pub const CAPTURED_PMID: u64 = 9298984;

/// The fake's ELink list of `pmid` for `linkname` (PMID, score); `None`
/// for an unknown PMID. Derived from the PMID: PMIDs divisible by 11 have
/// no links; similar articles list the PMID itself first, then the next
/// 2–5 PMIDs; 1–3 citing articles at +1,000,000 steps; 0–1 references
/// 10 below. `scored`: similar articles carry `<Score>`s.
pub fn synthetic_links(
    pmid: u64,
    linkname: &str,
    scored: bool,
) -> Option<Vec<(String, Option<u64>)>> {
    if pmid >= UNKNOWN_FROM || pmid == 0 {
        return None;
    }
    if pmid == CAPTURED_PMID {
        let capture = if scored && linkname == "pubmed_pubmed" {
            "elink_pubmed_neighbor_with_scores_2008.xml"
        } else {
            "elink_pubmed_neighbor_all_pubmed_linknames.xml"
        };
        return Some(ncbi::capture_links(capture, linkname));
    }
    if pmid.is_multiple_of(11) {
        return Some(Vec::new());
    }
    let ids: Vec<u64> = match linkname {
        "pubmed_pubmed" => std::iter::once(pmid)
            .chain((1..=2 + pmid % 4).map(|i| pmid + i))
            .collect(),
        "pubmed_pubmed_citedin" => (1..=1 + pmid % 3).map(|i| pmid + 1_000_000 * i).collect(),
        "pubmed_pubmed_refs" if pmid > 10 => (1..=pmid % 2).map(|i| pmid - 10 * i).collect(),
        _ => Vec::new(),
    };
    let scored = scored && linkname == "pubmed_pubmed";
    Some(
        ids.into_iter()
            .enumerate()
            .map(|(i, p)| {
                let score = scored.then(|| {
                    if i == 0 {
                        2_147_483_647
                    } else {
                        90_000_000 - 1000 * i as u64
                    }
                });
                (p.to_string(), score)
            })
            .collect(),
    )
}

/// Faults injected into a share of answers, reproducibly from a seed:
/// HTTP 500/502/503, connection resets, slow answers and bodies cut short
/// of their Content-Length, in equal parts.
#[derive(Debug)]
pub struct Faults {
    /// Share of requests that get a fault (0.0–1.0).
    pub rate: f64,
    /// How long a slow answer waits.
    pub slow: std::time::Duration,
    rng: Mutex<rand::rngs::StdRng>,
    /// Faults injected so far.
    pub injected: AtomicUsize,
}

impl Faults {
    /// Faults at `rate`, drawn from `seed`.
    pub fn new(rate: f64, seed: u64) -> Faults {
        Faults {
            rate,
            slow: std::time::Duration::from_millis(300),
            rng: Mutex::new(rand::rngs::StdRng::seed_from_u64(seed)),
            injected: AtomicUsize::new(0),
        }
    }

    /// Applies a fault to `reply` (or not).
    fn apply(&self, reply: Reply) -> Reply {
        let (hit, kind) = {
            let mut rng = self.rng.lock().unwrap();
            (rng.random::<f64>() < self.rate, rng.random_range(0..6u8))
        };
        if !hit {
            return reply;
        }
        self.injected.fetch_add(1, Ordering::SeqCst);
        match kind {
            0 => Reply::status(
                500,
                "text/html",
                "<html><body>Internal Server Error</body></html>",
            ),
            1 => Reply::status(502, "text/plain", "Bad Gateway"),
            2 => Reply::status(503, "text/plain", "Service Unavailable"),
            3 => Reply::Reset,
            4 => Reply::Slow(self.slow, Box::new(reply)),
            _ => match reply {
                Reply::Full { body, .. } if body.len() > 2 => Reply::CutShort {
                    declared: body.len(),
                    body: body[..body.len() / 2].to_vec(),
                },
                other => other,
            },
        }
    }
}

/// The synthetic PubMed record of a PMID: dates, publication types, DOI and
/// PMCID all derived from the number, consistent with the ID Converter.
pub fn synthetic_doc(pmid: u64) -> Doc {
    let mut d = Doc::new(&pmid.to_string());
    let year = 1950 + (pmid / 550_000).min(76);
    let month = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ][(pmid % 12) as usize];
    d.pub_date = match pmid % 5 {
        0 => format!("{year}"),
        1 => format!("{year} {month}"),
        2 => format!("{year} Winter"),
        _ => format!("{year} {month} {}", 1 + pmid % 28),
    };
    d.title = format!("Synthetic article {pmid}: <i>in vivo</i> effects &amp; outcomes.");
    d.pub_types = vec!["Journal Article".into()];
    if pmid % 10 == 3 {
        d.pub_types.push("Review".into());
    }
    if pmid.is_multiple_of(97) {
        d.pub_types.push("Retracted Publication".into());
    }
    d.doi = Some(format!("10.5555/pmid.{pmid}"));
    d.pmc = (!pmid.is_multiple_of(7)).then(|| format!("PMC{}", pmid + PMC_OFFSET));
    d
}

/// The synthetic full record of a PMID, consistent with [`synthetic_doc`]
/// (title, date, publication types, DOI, PMCID). Every 97th PMID is a
/// retracted article whose notice is PMID + 1; every third has a
/// structured abstract, others a plain one, every eleventh none.
pub fn synthetic_article(pmid: u64) -> Article {
    let d = synthetic_doc(pmid);
    let mut a = Article::new(&d.uid);
    a.title = format!("Synthetic article {pmid}: <i>in vivo</i> effects &amp; outcomes.");
    let words: Vec<&str> = d.pub_date.split(' ').collect();
    a.pub_date = vec![("Year".into(), words[0].to_string())];
    match words.get(1) {
        Some(&"Winter") => a.pub_date.push(("Season".into(), "Winter".into())),
        Some(m) => a.pub_date.push(("Month".into(), m.to_string())),
        None => {}
    }
    if let Some(day) = words.get(2) {
        a.pub_date.push(("Day".into(), day.to_string()));
    }
    a.pub_types = d.pub_types.clone();
    a.doi = d.doi.clone();
    a.pmc = d.pmc.clone();
    a.abstract_sections = match (pmid % 3, pmid % 11) {
        (_, 0) => vec![],
        (0, _) => vec![
            (
                "BACKGROUND".into(),
                "BACKGROUND".into(),
                format!("Why {pmid} matters."),
            ),
            (
                "METHODS".into(),
                "METHODS".into(),
                "CO<sub>2</sub> was measured.".into(),
            ),
        ],
        _ => vec![(
            String::new(),
            String::new(),
            format!("Plain abstract of {pmid}."),
        )],
    };
    if pmid.is_multiple_of(97) {
        a.comments.push((
            "RetractionIn".into(),
            "J Test. 2021 Feb;2(1):3.".into(),
            (pmid + 1).to_string(),
        ));
    }
    a
}

impl FakeNcbi {
    /// The most requests that arrived in any second is measured by the
    /// server (`TestServer::max_per_second`); this fake counts per endpoint.
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
        let reply = self.answer(req);
        match &self.faults {
            Some(f) if reply_is_data(&reply) => f.apply(reply),
            _ => reply,
        }
    }

    fn answer(&self, req: &Request) -> Reply {
        if let Some(limit) = &self.limit
            && limit.over(req)
        {
            self.counters.rate_limited.fetch_add(1, Ordering::SeqCst);
            return Reply::too_many();
        }
        // MeSH (ESearch/ESummary `db=mesh`): tests/support/fake_ncbi/mesh.rs.
        if req.param("db") == Some("mesh") || req.is("ecitmatch.cgi") {
            return mesh::reply(req, &|b| mesh::ecitmatch_answer(b, &[]));
        }
        if req.is("esearch.fcgi") {
            self.counters.esearch.fetch_add(1, Ordering::SeqCst);
            return self.esearch(req);
        }
        if let Some(r) = pmc::europepmc(req) {
            return r;
        }
        if req.path.contains("/idconv/") {
            self.counters.idconv.fetch_add(1, Ordering::SeqCst);
            return self.idconv(req);
        }
        if req.is("espell.fcgi") {
            self.counters.espell.fetch_add(1, Ordering::SeqCst);
            let term = req.param("term").unwrap_or_default();
            return match self.espell.lock().unwrap().get(term) {
                Some(body) => Reply::xml(body.clone()),
                None => Reply::xml(ncbi::espell(term, &[("O", term)])),
            };
        }
        if req.is("efetch.fcgi") {
            self.counters.efetch.fetch_add(1, Ordering::SeqCst);
            return self.efetch(req);
        }
        if req.is("esummary.fcgi") {
            self.counters.esummary.fetch_add(1, Ordering::SeqCst);
            return self.esummary(req);
        }
        if req.is("elink.fcgi") {
            self.counters.elink.fetch_add(1, Ordering::SeqCst);
            return self.elink(req);
        }
        Reply::status(404, "text/plain", "unknown endpoint")
    }

    /// EFetch `db=pubmed`: the synthetic records of the PMIDs asked for,
    /// in their order, leaving out unknown ones (as NCBI does); XML, or
    /// MEDLINE with `rettype=medline&retmode=text`.
    fn efetch(&self, req: &Request) -> Reply {
        let ids: Vec<String> = req
            .param("id")
            .unwrap_or_default()
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        self.efetch_batches.lock().unwrap().push(ids.clone());
        if req.param("db") == Some("pmc") {
            // PMC's JATS of the fixtures (`fulltext`).
            let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
            return Reply::xml(pmc::efetch_pmc(&ids));
        }
        if req.param("db") != Some("pubmed") {
            return Reply::xml(ncbi::eutils_error(
                "eFetchResult",
                "Invalid db name specified",
            ));
        }
        if self
            .failing_efetch
            .lock()
            .unwrap()
            .iter()
            .any(|f| ids.contains(f))
        {
            return Reply::status(500, "text/plain", "Internal Server Error");
        }
        if let Some(max) = *self.efetch_timeout_above.lock().unwrap()
            && ids.len() > max
        {
            return Reply::status(
                400,
                "text/xml",
                server::fixture("efetch_error_http400_external_viewer_timeout.xml"),
            );
        }
        let deleted = self.deleted.lock().unwrap().clone();
        let mut articles = Vec::new();
        let mut gone = Vec::new();
        for id in &ids {
            let Ok(n) = id.parse::<u64>() else { continue };
            if deleted.contains(&n) {
                gone.push(n.to_string());
            } else if n > 0 && n < UNKNOWN_FROM {
                articles.push(synthetic_article(n));
            }
        }
        if req.param("rettype") == Some("medline") && req.param("retmode") == Some("text") {
            return Reply::status(
                200,
                "text/plain; charset=UTF-8",
                ncbi::medline_set(&articles),
            );
        }
        Reply::xml(ncbi::efetch_set(&articles, &gone))
    }

    /// ESummary under NCBI's limits ([`ESUMMARY_JSON_MAX`]).
    fn esummary(&self, req: &Request) -> Reply {
        let ids: Vec<&str> = req
            .param("id")
            .unwrap_or_default()
            .split(',')
            .filter(|s| !s.is_empty())
            .collect();
        let json = req.param("retmode") == Some("json");
        self.esummary_calls.lock().unwrap().push(SummaryCall {
            method: req.method.clone(),
            json,
            version: req.param("version").map(str::to_string),
            ids: ids.len(),
        });
        if req.method == "GET" && ids.len() > GET_MAX_IDS {
            return Reply::status(
                414,
                "text/html",
                "<html><body>Request-URI Too Long</body></html>",
            );
        }
        if json && ids.len() > ESUMMARY_JSON_MAX {
            return Reply::json(
                200,
                r#"{"header":{"type":"esummary","version":"0.3"},"error":"Too many UIDs in request. Maximum number of UIDs is 500 for JSON format output."}"#,
            );
        }
        if !json && ids.len() > ESUMMARY_XML_MAX {
            return Reply::xml(ncbi::eutils_error(
                "eSummaryResult",
                "Too many UIDs in request. Maximum number of UIDs is 10000 for XML format output.",
            ));
        }
        if self
            .esummary_timeout_above
            .lock()
            .unwrap()
            .is_some_and(|n| ids.len() > n)
        {
            // The text of the real EFetch backend-timeout capture.
            return Reply::status(
                400,
                "text/xml; charset=UTF-8",
                ncbi::eutils_error(
                    "eSummaryResult",
                    " Error: External viewer error: Empty Response. Bytes read: 0 Status: Timeout",
                ),
            );
        }
        let ids: Vec<u64> = ids.iter().filter_map(|s| s.parse::<u64>().ok()).collect();
        let docs: Vec<Doc> = ids
            .iter()
            .filter(|p| **p < UNKNOWN_FROM)
            .map(|p| {
                let mut d = synthetic_doc(*p);
                if self.no_doi.lock().unwrap().contains(p) {
                    d.doi = None;
                }
                d
            })
            .collect();
        if json {
            return Reply::json(200, ncbi::esummary_json(&docs));
        }
        let unknown: Vec<String> = ids
            .iter()
            .filter(|p| **p >= UNKNOWN_FROM)
            .map(u64::to_string)
            .collect();
        let errors: Vec<(&str, &str)> = unknown
            .iter()
            .map(|u| (u.as_str(), "cannot get document summary"))
            .collect();
        Reply::xml(ncbi::esummary(&docs, &errors))
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
        if term.contains("[doi]") {
            return Reply::xml(doi_search(term));
        }
        let mut hits = self.corpus.hits(term);
        if let Some(more) = self.grown.lock().unwrap().get(split_uid_range(term).0) {
            let (_, range) = split_uid_range(term);
            let within = |p: &u64| range.is_none_or(|(lo, hi)| (lo..=hi).contains(p));
            hits.extend(more.iter().copied().filter(within));
            hits.sort_unstable();
        }
        hits.reverse(); // most recent first, as PubMed's default sort
        let end = (retstart + retmax).min(WINDOW).min(hits.len());
        let ids: Vec<String> = hits
            .get(retstart..end.max(retstart))
            .unwrap_or_default()
            .iter()
            .map(u64::to_string)
            .collect();
        let translation = self
            .translations
            .lock()
            .unwrap()
            .get(term)
            .cloned()
            .unwrap_or_else(|| format!("{term}[All Fields]"));
        let mut body = ncbi::esearch(
            hits.len() as u64,
            retstart as u64,
            &ids,
            &translation,
            &[],
            &[],
        );
        if req.param("usehistory") == Some("y") {
            // As ESearch does with usehistory=y (EDirect relies on it).
            let at = body.find("<IdList").unwrap_or(body.len());
            body.insert_str(
                at,
                "<QueryKey>1</QueryKey><WebEnv>MCID_fake0000000000000000000</WebEnv>",
            );
        }
        Reply::xml(body)
    }
}

impl FakeNcbi {
    /// ELink `cmd=neighbor`: one LinkSet per `id` parameter, as ELink does
    /// when `id` is repeated; a comma-joined `id` is answered with one
    /// merged LinkSet, as ELink does. An unknown PMID is answered like one
    /// without links (a LinkSet with only `<IdList>`, or for odd PMIDs no
    /// LinkSet at all), as public reports say ELink answers them.
    fn elink(&self, req: &Request) -> Reply {
        let ids: Vec<String> = req
            .params
            .iter()
            .filter(|(k, _)| k == "id")
            .map(|(_, v)| v.clone())
            .collect();
        self.elink_calls.lock().unwrap().push(ElinkCall {
            method: req.method.clone(),
            ids: ids.clone(),
            linkname: req.param("linkname").map(str::to_string),
            cmd: req.param("cmd").map(str::to_string),
            dbfrom: req.param("dbfrom").map(str::to_string),
            db: req.param("db").map(str::to_string),
        });
        let errors = self.elink_errors.lock().unwrap();
        if let Some(text) = ids
            .iter()
            .flat_map(|v| v.split(','))
            .find_map(|id| errors.get(id))
        {
            return Reply::xml(ncbi::eutils_error("eLinkResult", text));
        }
        let linkname = req.param("linkname").unwrap_or("pubmed_pubmed").to_string();
        let mut sets = Vec::new();
        for value in &ids {
            let members: Vec<u64> = value
                .split(',')
                .filter_map(|p| p.trim().parse().ok())
                .collect();
            let mut links = Vec::new();
            let mut known = false;
            for p in &members {
                if let Some(l) = synthetic_links(*p, &linkname, self.elink_scored) {
                    known = true;
                    links.extend(l);
                }
            }
            if members.len() == 1 && !known && members[0] % 2 == 1 {
                continue;
            }
            sets.push(ncbi::ElinkSet {
                ids: members.iter().map(u64::to_string).collect(),
                linkname: linkname.clone(),
                links,
            });
        }
        Reply::xml(ncbi::elink(&sets))
    }
}

/// ESearch for `"DOI"[doi]` terms OR-ed: every synthetic record has the
/// DOI `10.5555/pmid.N` (see [`synthetic_doc`]); other DOIs find nothing.
fn doi_search(term: &str) -> String {
    let ids: Vec<String> = term
        .split(" OR ")
        .filter_map(|t| {
            let doi = t.trim().strip_prefix('"')?.strip_suffix("\"[doi]")?;
            let pmid: u64 = doi
                .to_lowercase()
                .strip_prefix("10.5555/pmid.")?
                .parse()
                .ok()?;
            (pmid > 0 && pmid < UNKNOWN_FROM).then(|| pmid.to_string())
        })
        .collect();
    ncbi::esearch(ids.len() as u64, 0, &ids, term, &[], &[])
}

/// ID triples (PMID, PMCID, DOI) the fake knows: the last two are from the
/// Converter captures; the first pairs convert.md's example IDs with a
/// synthetic DOI (test data, not a claim about the real article).
pub const KNOWN: &[(u64, &str, &str)] = &[
    (23193287, "PMC3531190", "10.5555/example.23193287"),
    (20495566, "PMC2883744", "10.1038/ng.590"),
    (22676651, "PMC3479421", "10.1186/1750-1172-7-35"),
];

/// Synthetic PMCIDs are PMID + this offset; PMIDs divisible by 7 are not in PMC.
pub const PMC_OFFSET: u64 = 5_000_000;

/// The article an ID points to in the fake: (PMID, PMCID, DOI), or None
/// when it is not in PMC.
pub fn article(idtype: &str, id: &str) -> Option<(u64, String, String)> {
    let known = KNOWN.iter().find(|(p, c, d)| match idtype {
        "pmid" => id.parse::<u64>().ok() == Some(*p),
        "pmcid" => c.eq_ignore_ascii_case(id),
        _ => d.eq_ignore_ascii_case(id),
    });
    if let Some((p, c, d)) = known {
        return Some((*p, c.to_string(), d.to_string()));
    }
    let pmid = match idtype {
        "pmid" => id.parse::<u64>().ok()?,
        "pmcid" => id.get(3..)?.parse::<u64>().ok()?.checked_sub(PMC_OFFSET)?,
        _ => id
            .to_lowercase()
            .strip_prefix("10.5555/pmid.")?
            .parse()
            .ok()?,
    };
    (pmid > 0 && pmid % 7 != 0).then(|| {
        (
            pmid,
            format!("PMC{}", pmid + PMC_OFFSET),
            format!("10.5555/pmid.{pmid}"),
        )
    })
}

impl FakeNcbi {
    fn idconv(&self, req: &Request) -> Reply {
        let idtype = req.param("idtype").unwrap_or("").to_string();
        let ids: Vec<String> = req
            .param("ids")
            .unwrap_or_default()
            .split(',')
            .map(str::to_string)
            .collect();
        self.idconv_batches
            .lock()
            .unwrap()
            .push((idtype.clone(), ids.clone()));
        if req.param("api_key").is_some() || req.param("format") != Some("json") {
            return Reply::json(
                400,
                r#"{"status":"error","errors":[{"message":"unexpected parameters","code":"bad_params"}]}"#,
            );
        }
        if ids.len() > 200 {
            return Reply::json(
                400,
                r#"{"status":"error","errors":[{"message":"Too many IDs: at most 200","code":"too_many_ids"}]}"#,
            );
        }
        if self
            .failing_ids
            .lock()
            .unwrap()
            .iter()
            .any(|f| ids.contains(f))
        {
            return Reply::status(500, "text/plain", "Internal Server Error");
        }
        let mismatch = ids.iter().find(|id| match idtype.as_str() {
            "pmid" => id.parse::<u64>().is_err(),
            "pmcid" => !id.starts_with("PMC"),
            "doi" => !id.starts_with("10."),
            _ => true,
        });
        if let Some(bad) = mismatch {
            let msg = format!("ID type '{idtype}' mismatch for '{bad}'");
            let enc: String = url::form_urlencoded::byte_serialize(msg.as_bytes()).collect();
            return Reply::json(
                404,
                format!(
                    "{{\n \"status\": \"error\",\n \"message\": \"{}\"\n}}\n",
                    enc.replace('+', "%20")
                ),
            );
        }
        let records: Vec<serde_json::Value> = ids
            .iter()
            .map(|id| {
                let found = article(&idtype, id);
                let no_doi = found
                    .as_ref()
                    .is_some_and(|(p, _, _)| self.no_doi.lock().unwrap().contains(p));
                let mut rec = idconv_record(&idtype, id, found, self.idconv_legacy);
                if no_doi && let Some(o) = rec.as_object_mut() {
                    o.remove("doi");
                }
                rec
            })
            .collect();
        let body = serde_json::json!({
            "status": "ok",
            "responseDate": "2026-12-01 00:00:00",
            "request": format!("ids={};idtype={idtype};format=json", ids.join(",")),
            "records": records,
        });
        Reply::json(200, serde_json::to_vec_pretty(&body).unwrap())
    }
}

/// One ID Converter record: current shape, or legacy (no `requested-id`).
fn idconv_record(
    idtype: &str,
    id: &str,
    found: Option<(u64, String, String)>,
    legacy: bool,
) -> serde_json::Value {
    match (found, legacy) {
        (Some((p, c, d)), false) => {
            serde_json::json!({"requested-id": id, "pmcid": c, "pmid": p, "doi": d})
        }
        (Some((p, c, d)), true) => {
            serde_json::json!({"pmcid": c, "pmid": p.to_string(), "doi": d, "live": "true"})
        }
        (None, false) => {
            serde_json::json!({"requested-id": id, "status": "error", "errmsg": "Identifier not found in PMC"})
        }
        (None, true) => {
            serde_json::json!({idtype: id, "live": "false", "status": "error", "errmsg": "invalid article id"})
        }
    }
}

/// Faults go on answers, never on the 429s of the rate limit.
fn reply_is_data(r: &Reply) -> bool {
    !matches!(r, Reply::Full { status: 429, .. })
}
