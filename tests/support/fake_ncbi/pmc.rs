//! A fake PMC for `fulltext`: EFetch `db=pmc` answers built from the OA
//! packages' `.nxml` fixtures inside PMC's `<pmc-articleset>` frame (the
//! frame byte for byte as PMC sends it, tests/fixtures/PROVENANCE.md), PMC's
//! `<Reply … error="The following PMCID is not available: …"/>` for an
//! unknown PMCID, and ID Converter answers for the fixtures' PMIDs and DOIs.

#![allow(dead_code)]

use super::server::{Reply, Request, fixture};

/// The fixtures: (PMCID digits, PMID, DOI, file).
pub const ARTICLES: [(&str, &str, &str, &str); 3] = [
    (
        "3460867",
        "23029536",
        "10.1371/journal.pone.0046493",
        "pmc_oa_pone_0046493.nxml",
    ),
    (
        "3166277",
        "21810267",
        "10.1186/1471-2180-11-174",
        "pmc_oa_1471_2180_11_174.nxml",
    ),
    (
        "3574550",
        "23149571",
        "10.1093/annonc/mds526",
        "pmc_oa_mds526.nxml",
    ),
];

/// Articles PMC answers `not available` for and only the fake Europe PMC
/// serves (`{base}PMC…/fullTextXML`, the file as the body): the OA
/// package's `.nxml`, and three answers Europe PMC itself sent
/// (tests/fixtures/PROVENANCE.md): (PMCID digits, file).
pub const EUROPE_ONLY: [(&str, &str); 4] = [
    ("2329613", "pmc_oa_1472_6831_8_11.nxml"),
    ("13249512", "europepmc_review_pmc13249512.xml"),
    ("13133655", "europepmc_mathml_tables_pmc13133655.xml"),
    ("6095483", "europepmc_supplementary_pmc6095483.xml"),
];

/// The fake Europe PMC: the file of an [`EUROPE_ONLY`] article, HTTP 404
/// (Europe PMC's answer when it has no full text) for any other PMCID;
/// `None` for a path that is not Europe PMC's.
pub fn europepmc(req: &Request) -> Option<Reply> {
    let rest = req.path.split("/europepmc/webservices/rest/").nth(1)?;
    let pmcid = rest.strip_suffix("/fullTextXML")?;
    let digits = pmcid.trim_start_matches("PMC");
    Some(match EUROPE_ONLY.iter().find(|a| a.0 == digits) {
        Some(a) => Reply::xml(String::from_utf8(fixture(a.1)).unwrap()),
        None => Reply::status(404, "text/plain", ""),
    })
}

/// The head of an EFetch `db=pmc` answer, as PMC sends it.
pub const HEAD: &str = "<?xml version=\"1.0\"  ?><!DOCTYPE pmc-articleset PUBLIC \"-//NLM//DTD ARTICLE SET 2.0//EN\" \"https://dtd.nlm.nih.gov/ncbi/pmc/articleset/nlm-articleset-2.0.dtd\"><pmc-articleset>";

/// The `<article>` element of a fixture (its DOCTYPE line left out).
pub fn article_element(file: &str) -> String {
    let text = String::from_utf8(fixture(file)).unwrap();
    let at = text.find("<article").unwrap();
    text[at..].trim_end().to_string()
}

/// EFetch `db=pmc` for `ids` (digits): each known article, in order, and
/// PMC's `<Reply>` for each unknown one.
pub fn efetch_pmc(ids: &[&str]) -> String {
    let mut s = HEAD.to_string();
    for id in ids {
        match ARTICLES.iter().find(|a| a.0 == *id) {
            Some(a) => s.push_str(&article_element(a.3)),
            None => s.push_str(&format!(
                "<Reply Id=\"{id}\" error=\"The following PMCID is not available: {id}\"/>"
            )),
        }
    }
    s.push_str("</pmc-articleset>\n");
    s
}

/// The handler: EFetch `db=pmc` and the ID Converter.
pub fn handler(req: &Request) -> Reply {
    if let Some(r) = europepmc(req) {
        return r;
    }
    if req.path.contains("/idconv/") {
        let idtype = req.param("idtype").unwrap_or("pmid");
        let records: Vec<String> = req
            .param("ids")
            .unwrap_or_default()
            .split(',')
            .map(|id| {
                let hit = ARTICLES.iter().find(|a| match idtype {
                    "doi" => a.2.eq_ignore_ascii_case(id),
                    _ => a.1 == id,
                });
                match hit {
                    Some(a) => format!(
                        "{{\"requested-id\":\"{id}\",\"pmcid\":\"PMC{}\",\"pmid\":{},\"doi\":\"{}\"}}",
                        a.0, a.1, a.2
                    ),
                    None => format!(
                        "{{\"requested-id\":\"{id}\",\"status\":\"error\",\"errmsg\":\"Identifier not found in PMC\"}}"
                    ),
                }
            })
            .collect();
        return Reply::json(
            200,
            format!("{{\"status\":\"ok\",\"records\":[{}]}}", records.join(",")),
        );
    }
    if req.is("efetch.fcgi") && req.param("db") == Some("pmc") {
        let ids: Vec<&str> = req.param("id").unwrap_or_default().split(',').collect();
        return Reply::xml(efetch_pmc(&ids));
    }
    Reply::status(404, "text/plain", "unknown endpoint")
}

/// EFetch `db=pmc` for any `ids`: each a copy of the PLoS ONE fixture
/// with its PMC `article-id` set to the ID asked for (the benchmark's
/// 1,000 distinct articles of real size and shape).
pub fn efetch_pmc_copies(ids: &[&str]) -> String {
    let article = article_element(ARTICLES[0].3);
    let own = "<article-id pub-id-type=\"pmc\">3460867</article-id>";
    assert!(article.contains(own));
    let mut s = HEAD.to_string();
    for id in ids {
        s.push_str(&article.replace(
            own,
            &format!("<article-id pub-id-type=\"pmc\">{id}</article-id>"),
        ));
    }
    s.push_str("</pmc-articleset>\n");
    s
}
