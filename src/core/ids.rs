//! ID rules (docs/convert.md "Validation" and "Requests"): PMID, PMCID and DOI
//! validation, type detection, and the canonical forms used to send and to
//! match answers back to inputs. Pure.

use super::text::is_visible;
use crate::error::{Error, Reason, Result};

super::choice::choice! {
    /// An article identifier type (ID Converter `idtype`; `--from`/`--to`,
    /// MCP `idType`).
    #[derive(PartialOrd, Ord)]
    pub enum IdType {
        /// PubMed ID: digits.
        Pmid = "pmid",
        /// PubMed Central ID: `PMC` + digits.
        Pmcid = "pmcid",
        /// Digital Object Identifier: `10.` prefix, a `/`.
        Doi = "doi",
    }
}

impl IdType {
    /// What a valid ID of this type looks like, for messages.
    pub fn expected_form(self) -> &'static str {
        match self {
            IdType::Pmid => "digits, never 0 (leading zeros allowed), e.g. 23193287",
            IdType::Pmcid => {
                "PMC followed by digits, never 0 (PMC optional, any case), e.g. PMC3531190"
            }
            IdType::Doi => "10.<registrant>/<suffix> with no spaces or commas, e.g. 10.1038/ng.590",
        }
    }
}

/// A valid ID in its canonical forms.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Canonical {
    /// Its type.
    pub idtype: IdType,
    /// The form sent to the Converter: PMIDs without leading zeros, PMCIDs
    /// as `PMC` + digits, DOIs as given.
    pub sent: String,
    /// The form answers are matched by: like `sent`, DOIs lower-cased.
    pub key: String,
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn strip_zeros(s: &str) -> String {
    let t = s.trim_start_matches('0');
    if t.is_empty() { "0".into() } else { t.into() }
}

/// The digits of a PMCID (`PMC123`, `pmc123`, `123`), if it is one.
fn pmcid_digits(s: &str) -> Option<&str> {
    let d = match s.get(..3) {
        Some(p) if p.eq_ignore_ascii_case("pmc") => &s[3..],
        _ => s,
    };
    digits(d).then_some(d)
}

/// What is wrong with `raw` as an ID of `idtype`, in a few words (the
/// first rule it breaks, in [`validate`]'s order).
fn problem(raw: &str, idtype: IdType) -> String {
    let written_as = |t: IdType| format!("it is written as a {}", t.as_str().to_uppercase());
    if raw.is_empty() {
        return "it is empty".into();
    }
    if raw.contains(',') {
        return "it holds a comma (one ID at a time)".into();
    }
    if raw.chars().any(char::is_whitespace) {
        return "it holds whitespace".into();
    }
    if raw.chars().any(|c| !is_visible(c)) {
        return "it holds an invisible character".into();
    }
    let rest = match unpaste(raw) {
        (Some(t), _) if t != idtype => return written_as(t),
        (_, rest) => rest,
    };
    let doi_like = rest.starts_with("10.") && rest.contains('/');
    match idtype {
        IdType::Pmid if digits(rest) => "it is 0".into(),
        IdType::Pmid if doi_like => written_as(IdType::Doi),
        IdType::Pmid if pmcid_digits(rest).is_some() => written_as(IdType::Pmcid),
        IdType::Pmid => "it holds characters other than digits".into(),
        IdType::Pmcid if pmcid_digits(rest).is_some() => "it is 0".into(),
        IdType::Pmcid if doi_like => written_as(IdType::Doi),
        IdType::Pmcid => "it is not PMC followed by digits".into(),
        IdType::Doi => "it does not start with 10. or has no /".into(),
    }
}

fn malformed(raw: &str, idtype: Option<IdType>) -> Error {
    let why = match idtype {
        Some(t) => format!(
            "{raw:?} is not a valid {}: {}; a {} is {}",
            t.as_str().to_uppercase(),
            problem(raw, t),
            t.as_str().to_uppercase(),
            t.expected_form()
        ),
        None => format!("{raw:?} is not a PMID (digits), a PMCID (PMC + digits) or a DOI (10.…/…)"),
    };
    Error::new(Reason::MalformedId, why).with_field(crate::error::Field::Ids)
}

/// The hint of a malformed input to a command that takes PMIDs only.
pub const PMID_ONLY_HINT: &str = "this command takes PMIDs (digits); turn a PMCID or DOI into its PMID with `pubmed convert ID --to pmid`";

/// A PMID as given to a command that takes PMIDs only (`fetch`, `cite`,
/// `related`; an argument, an MCP element or an input line): surrounding
/// whitespace trimmed, then [`validate`]d. Returns NCBI's form (no leading
/// zeros). Errors: `malformed_id` naming it, with [`PMID_ONLY_HINT`].
pub fn check_pmid(raw: &str) -> Result<String> {
    validate(IdType::Pmid, raw.trim_matches(super::text::is_white_space))
        .map(|c| c.sent)
        .map_err(|e| e.with_hint(PMID_ONLY_HINT))
}

/// The forms people paste (docs/convert.md "Validation, before any request"), any case:
/// a DOI link (`https://doi.org/`, `http://dx.doi.org/`, …), `doi:`,
/// `PMID:` and `PMCID:`. Each names its type.
const PASTED: [(&str, IdType); 8] = [
    ("https://doi.org/", IdType::Doi),
    ("http://doi.org/", IdType::Doi),
    ("https://dx.doi.org/", IdType::Doi),
    ("http://dx.doi.org/", IdType::Doi),
    ("doi.org/", IdType::Doi),
    ("doi:", IdType::Doi),
    ("pmid:", IdType::Pmid),
    ("pmcid:", IdType::Pmcid),
];

/// `raw` without a pasted prefix ([`PASTED`]), and the type the prefix
/// names; `(None, raw)` when there is none.
fn unpaste(raw: &str) -> (Option<IdType>, &str) {
    for (prefix, idtype) in PASTED {
        if let Some(head) = raw.get(..prefix.len())
            && head.eq_ignore_ascii_case(prefix)
        {
            return (Some(idtype), &raw[prefix.len()..]);
        }
    }
    (None, raw)
}

/// Validates `raw` (already trimmed) as an ID of `idtype`. A pasted form
/// of that type (`https://doi.org/10.…`, `doi:10.…`, `PMID:123`,
/// `PMCID:PMC123`) is the ID after its prefix; a prefix naming another
/// type is malformed.
///
/// Errors: `malformed_id` naming the ID and the expected form. A comma,
/// whitespace or any invisible character (U+FEFF included) inside an ID is
/// malformed; a packed `23193287,37952131` is never split.
pub fn validate(idtype: IdType, raw: &str) -> Result<Canonical> {
    if raw.is_empty() || raw.chars().any(|c| c == ',' || !is_visible(c)) {
        return Err(malformed(raw, Some(idtype)));
    }
    let shown = raw;
    let raw = match unpaste(raw) {
        (Some(t), _) if t != idtype => return Err(malformed(shown, Some(idtype))),
        (_, rest) => rest,
    };
    let malformed = |_: &str, t: Option<IdType>| malformed(shown, t);
    let (sent, key) = match idtype {
        // PMIDs and PMCIDs are never zero (`0`, `000`, `PMC0`).
        IdType::Pmid | IdType::Pmcid if strip_zeros(pmcid_digits(raw).unwrap_or(raw)) == "0" => {
            return Err(malformed(raw, Some(idtype)));
        }
        IdType::Pmid if digits(raw) => {
            let s = strip_zeros(raw);
            (s.clone(), s)
        }
        IdType::Pmcid => match pmcid_digits(raw) {
            Some(d) => {
                let s = format!("PMC{}", strip_zeros(d));
                (s.clone(), s)
            }
            None => return Err(malformed(raw, Some(idtype))),
        },
        IdType::Doi if raw.starts_with("10.") && raw.contains('/') => {
            (raw.to_string(), raw.to_lowercase())
        }
        _ => return Err(malformed(raw, Some(idtype))),
    };
    Ok(Canonical { idtype, sent, key })
}

/// Detects the type of `raw` (CLI without `--from`): `PMC` + digits (any
/// case) → PMCID, `10.…/…` → DOI, digits → PMID; validates it.
///
/// Errors: `malformed_id` when it is none of these.
pub fn detect(raw: &str) -> Result<Canonical> {
    if let (Some(idtype), _) = unpaste(raw) {
        return validate(idtype, raw);
    }
    let lower = raw.get(..3).map(str::to_ascii_lowercase);
    let idtype = if lower.as_deref() == Some("pmc") {
        IdType::Pmcid
    } else if raw.starts_with("10.") {
        IdType::Doi
    } else if digits(raw) {
        IdType::Pmid
    } else {
        return Err(malformed(raw, None));
    };
    validate(idtype, raw)
}

/// The matching key of an ID as the Converter reports it for `idtype`
/// (`requested-id`, or the record's `pmid`/`pmcid`/`doi` field).
pub fn answer_key(idtype: IdType, reported: &str) -> String {
    let r = reported.trim();
    match idtype {
        IdType::Pmid => strip_zeros(r),
        IdType::Pmcid => {
            pmcid_digits(r).map_or_else(|| r.to_uppercase(), |d| format!("PMC{}", strip_zeros(d)))
        }
        IdType::Doi => r.to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(t: IdType, raw: &str) -> (String, String) {
        let c = validate(t, raw).unwrap();
        (c.sent, c.key)
    }

    /// Issue 25: `convert` rejected the forms people paste.
    #[test]
    fn pasted_forms_are_the_id_after_the_prefix() {
        let d = |raw: &str| {
            let c = detect(raw).unwrap();
            (c.idtype, c.sent, c.key)
        };
        let doi = (
            IdType::Doi,
            "10.1038/ng.590".to_string(),
            "10.1038/ng.590".to_string(),
        );
        assert_eq!(d("https://doi.org/10.1038/ng.590"), doi);
        assert_eq!(d("HTTPS://DOI.ORG/10.1038/ng.590"), doi);
        assert_eq!(d("http://dx.doi.org/10.1038/ng.590"), doi);
        assert_eq!(d("doi.org/10.1038/ng.590"), doi);
        assert_eq!(d("doi:10.1038/ng.590"), doi);
        assert_eq!(d("DOI:10.1038/NG.590").2, "10.1038/ng.590");
        assert_eq!(
            d("PMID:023193287"),
            (IdType::Pmid, "23193287".into(), "23193287".into())
        );
        assert_eq!(
            d("pmcid:PMC3531190"),
            (IdType::Pmcid, "PMC3531190".into(), "PMC3531190".into())
        );
        assert_eq!(d("PMCID:3531190").1, "PMC3531190");
        assert_eq!(
            ok(IdType::Doi, "https://doi.org/10.1038/ng.590").0,
            "10.1038/ng.590"
        );
        assert_eq!(check_pmid("PMID:23193287").unwrap(), "23193287");
        for bad in [
            "PMID: 23193287",
            "PMID:PMC1",
            "pmid:",
            "doi:23193287",
            "https://doi.org/",
            "PMCID:0",
            "https://doi.org/10.1/a b",
        ] {
            let e = detect(bad).unwrap_err();
            assert_eq!(e.reason, Reason::MalformedId, "{bad}");
            assert!(
                e.message.starts_with(&format!("{bad:?} is not")),
                "{}",
                e.message
            );
        }
        // a prefix naming another type than --from
        let e = validate(IdType::Pmid, "doi:10.1038/ng.590").unwrap_err();
        assert_eq!(
            e.message,
            "\"doi:10.1038/ng.590\" is not a valid PMID: it is written as a DOI; a PMID is digits, never 0 (leading zeros allowed), e.g. 23193287"
        );
        // each message says what is wrong, then what the ID must be
        for (bad, t, why) in [
            ("abc", IdType::Pmid, "it holds characters other than digits"),
            ("000", IdType::Pmid, "it is 0"),
            ("12,34", IdType::Pmid, "it holds a comma (one ID at a time)"),
            ("12 34", IdType::Pmid, "it holds whitespace"),
            (
                "\u{FEFF}123",
                IdType::Pmid,
                "it holds an invisible character",
            ),
            ("PMC3531190", IdType::Pmid, "it is written as a PMCID"),
            ("10.1038/ng.590", IdType::Pmcid, "it is written as a DOI"),
            ("PMC0", IdType::Pmcid, "it is 0"),
            ("PMCX1", IdType::Pmcid, "it is not PMC followed by digits"),
            (
                "11.1/x",
                IdType::Doi,
                "it does not start with 10. or has no /",
            ),
        ] {
            let e = validate(t, bad).unwrap_err();
            let form = t.expected_form();
            let name = t.as_str().to_uppercase();
            assert_eq!(
                e.message,
                format!("{bad:?} is not a valid {name}: {why}; a {name} is {form}"),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn pmids() {
        assert_eq!(ok(IdType::Pmid, "23193287").0, "23193287");
        assert_eq!(ok(IdType::Pmid, "0023193287").0, "23193287");
        assert_eq!(ok(IdType::Pmid, "123456789012345").0, "123456789012345");
        for bad in [
            "PMC6063279",
            "23193287,37952131",
            "2319 3287",
            "",
            "12a",
            "-1",
            "1.0",
            "\u{FEFF}123",
            "١٢٣",
            "0",
            "000",
        ] {
            let e = validate(IdType::Pmid, bad).unwrap_err();
            assert_eq!(e.reason, Reason::MalformedId, "{bad:?}");
        }
    }

    #[test]
    fn pmcids() {
        assert_eq!(ok(IdType::Pmcid, "PMC3531190").0, "PMC3531190");
        assert_eq!(ok(IdType::Pmcid, "pmc3531190").0, "PMC3531190");
        assert_eq!(ok(IdType::Pmcid, "3531190").0, "PMC3531190");
        assert_eq!(ok(IdType::Pmcid, "Pmc003531190").0, "PMC3531190");
        for bad in [
            "PMC",
            "PMCX1",
            "PMC 1",
            "PMC1,PMC2",
            "PMID1",
            "éé1",
            "🫧R.",
            "p\u{301}mc1",
            "PMC0",
            "pmc000",
            "0",
        ] {
            assert!(validate(IdType::Pmcid, bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn dois() {
        let sici = "10.1002/(SICI)1097-0258(19980815/30)17:15/16<1661::AID-SIM968>3.0.CO;2-2";
        assert_eq!(ok(IdType::Doi, sici).0, sici);
        assert_eq!(
            ok(IdType::Doi, "10.1038/NG.590"),
            ("10.1038/NG.590".into(), "10.1038/ng.590".into())
        );
        for bad in [
            "10.1093",
            "11.1093/x",
            "10.1/a b",
            "10.1/a,b",
            "10.1/a\u{FEFF}",
            "10.1/a\u{A0}",
        ] {
            assert!(validate(IdType::Doi, bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn detection() {
        assert_eq!(detect("PMC6063279").unwrap().idtype, IdType::Pmcid);
        assert_eq!(detect("pmc6063279").unwrap().idtype, IdType::Pmcid);
        assert_eq!(detect("6063279").unwrap().idtype, IdType::Pmid);
        assert_eq!(detect("10.1038/ng.590").unwrap().idtype, IdType::Doi);
        // a pasted `doi:` is a DOI (issue 25; it was malformed before)
        assert_eq!(detect("doi:10.1/x").unwrap().sent, "10.1/x");
        for bad in ["PMCX", "abc", "10.1038", "23193287,37952131", "doi:10.1"] {
            let e = detect(bad).unwrap_err();
            assert_eq!(e.reason, Reason::MalformedId, "{bad:?}");
            assert!(e.message.contains(bad), "{}", e.message);
        }
    }

    #[test]
    fn answer_keys_match_canonical_keys() {
        assert_eq!(answer_key(IdType::Pmid, "020495566"), "20495566");
        assert_eq!(answer_key(IdType::Pmcid, "pmc2883744"), "PMC2883744");
        assert_eq!(answer_key(IdType::Doi, "10.1038/NG.590"), "10.1038/ng.590");
        assert_eq!(
            validate(IdType::Doi, "10.1038/Ng.590").unwrap().key,
            answer_key(IdType::Doi, "10.1038/ng.590")
        );
    }
}
