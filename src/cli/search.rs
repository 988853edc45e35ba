//! The `search` adapter: arguments → [`SearchRequest`], then one page
//! (`ops::search`) or every PMID (`ops::search_all`), rendered.

use std::io::{self, Write};

use super::args::SearchArgs;
use super::{Context, Failure, read_query};
use crate::core::dates::DateRequest;
use crate::core::query::Filters;
use crate::core::text::count;
use crate::error::{Error, Reason};
use crate::ops::search::{self, Detail, SearchRequest};
use crate::ops::search_all;
use crate::output::{self, Format};

/// Turns `search` arguments into a plain request (no clap types).
fn search_request(a: &SearchArgs, query: String, format: Format) -> SearchRequest {
    let count_only = a.count || a.retmax == Some(0);
    let detail = match a.detail {
        _ if count_only => Detail::Ids,
        Some(d) => d,
        None if format == Format::Ids => Detail::Ids,
        None => Detail::Full,
    };
    SearchRequest {
        query,
        field: a.field.clone(),
        filters: Filters {
            publication_types: a.pubtype.clone(),
            author: a.author.clone(),
            journal: a.journal.clone(),
            mesh_terms: a.mesh.clone(),
            language: a.language.clone(),
            has_abstract: a.has_abstract,
            free_full_text: a.free_full_text,
            species: a.species,
        },
        dates: DateRequest {
            min: a.mindate.clone(),
            max: a.maxdate.clone(),
            datetype: a.datetype,
            reldate: a.reldate,
        },
        retmax: if count_only {
            0
        } else {
            a.retmax.unwrap_or(search::DEFAULT_RETMAX)
        },
        retstart: a.retstart,
        sort: a.sort,
        detail,
        summary_limit: None,
        spell: a.spell.unwrap_or_default(),
    }
}

pub(super) async fn run(a: SearchArgs, ctx: &Context) -> Result<u8, Failure> {
    if a.all {
        return run_all(&a, ctx).await;
    }
    let format = ctx.format_for("search", &Format::RECORDS, Format::Ids)?;
    let query = read_query(&a.query)?;
    let req = search_request(&a, query, format);
    let today = search::today_utc();
    search::prepare(&req, today)?;
    let client = ctx.client()?;
    let outcome = search::search(&client, &req, today).await?;
    if format != Format::Json {
        ctx.note(&output::search::header_line(&outcome));
        if let Some(t) = &outcome.query_translation
            && (format == Format::Table || ctx.flags.verbose)
        {
            ctx.note(&format!("searched as: {t}"));
        }
        for w in &outcome.warnings {
            ctx.note(&format!("warning: {}", w.message));
        }
        for m in &outcome.missing {
            ctx.note(&format!(
                "warning: no summary for PMID {}: {}",
                m.pmid, m.message
            ));
        }
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    output::search::render(&mut out, &outcome, format, req.detail, &ctx.style)?;
    out.flush()?;
    Ok(0)
}

/// `search --all`: streams every PMID (or summary) as ranges complete.
async fn run_all(a: &SearchArgs, ctx: &Context) -> Result<u8, Failure> {
    let streamable = [Format::Ids, Format::Ndjson, Format::Csv, Format::Tsv];
    let format = match ctx.format {
        None => Format::Ids,
        Some(f) if streamable.contains(&f) => f,
        Some(f) => {
            return Err(Error::new(
                Reason::InvalidArgument,
                format!(
                    "--all streams its output; --format {} is not available with it (use ids, ndjson, csv or tsv)",
                    f.as_str()
                ),
            )
            .into());
        }
    };
    let query = read_query(&a.query)?;
    let mut req = search_request(a, query, format);
    // PMIDs alone need no summaries (and none can then be missing).
    if a.detail.is_none() || format == Format::Ids {
        req.detail = Detail::Ids;
    }
    let today = search::today_utc();
    let mut check = req.clone();
    check.retmax = search_all::WINDOW as u32;
    check.detail = Detail::Ids;
    search::prepare(&check, today)?;
    let client = ctx.client()?;

    let bar = (ctx.progress && !ctx.quiet).then(|| {
        let pb = indicatif::ProgressBar::new(0);
        pb.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} ranges {msg}  PMIDs {pos}/{len}  {per_sec}  ETA {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        pb
    });
    let mut out = io::BufWriter::new(io::stdout().lock());
    let detail = req.detail;
    // The CSV/TSV header goes out with the first rows, so a run that fails
    // before any data leaves stdout empty.
    let mut header_due = matches!(format, Format::Csv | Format::Tsv);
    let mut sink = |event: search_all::Event<'_>| -> io::Result<()> {
        use search_all::Event;
        if header_due && matches!(event, Event::Pmids(_) | Event::Summaries(..)) {
            header_due = false;
            output::search::write_delimited(
                &mut out,
                format,
                &output::search::header(detail),
                &[],
            )?;
        }
        match event {
            Event::Pmids(ids) => {
                match format {
                    Format::Ndjson => {
                        for p in ids {
                            output::write_json_line(&mut out, &serde_json::json!({ "pmid": p }))?;
                        }
                    }
                    Format::Csv | Format::Tsv => {
                        let rows: Vec<Vec<String>> = ids.iter().map(|p| vec![p.clone()]).collect();
                        output::search::write_rows(&mut out, format, &rows)?;
                    }
                    _ => output::search::write_ids(&mut out, ids)?,
                }
                out.flush()
            }
            Event::Summaries(summaries, missing) => {
                match format {
                    Format::Csv | Format::Tsv => {
                        let rows: Vec<Vec<String>> = summaries
                            .iter()
                            .map(|s| output::search::row(s, detail))
                            .collect();
                        output::search::write_rows(&mut out, format, &rows)?;
                    }
                    _ => output::search::write_ndjson(&mut out, summaries, detail)?,
                }
                for m in missing {
                    match format {
                        Format::Ndjson => {
                            output::write_json_line(&mut out, &output::search::missing_json(m))?
                        }
                        Format::Csv | Format::Tsv => output::search::write_rows(
                            &mut out,
                            format,
                            &[output::search::missing_row(m, detail)],
                        )?,
                        _ => {}
                    }
                    ctx.note(&format!(
                        "warning: no summary for PMID {}: {}",
                        m.pmid, m.message
                    ));
                }
                out.flush()
            }
            Event::SummariesFailed(ids, e) => {
                for p in ids {
                    match format {
                        Format::Ndjson => output::write_json_line(
                            &mut out,
                            &serde_json::json!({"pmid": p, "error": {"reason": e.reason.as_str(), "message": e.message}}),
                        )?,
                        Format::Csv | Format::Tsv => {
                            let m = crate::ops::search::Missing {
                                pmid: p.clone(),
                                message: format!("{} [{}]", e.message, e.reason),
                            };
                            output::search::write_rows(
                                &mut out,
                                format,
                                &[output::search::missing_row(&m, detail)],
                            )?
                        }
                        _ => {}
                    }
                }
                crate::diag!(
                    "pubmed: error: summaries of {} PMIDs failed: {} [{}]",
                    ids.len(),
                    e.message,
                    e.reason
                );
                out.flush()
            }
            Event::RangeFailed(r, e) => {
                crate::diag!(
                    "pubmed: error: PMID range {r} failed: {} [{}]",
                    e.message,
                    e.reason
                );
                Ok(())
            }
            Event::Progress {
                done,
                planned,
                pmids,
                total,
            } => {
                if let Some(pb) = &bar {
                    pb.set_length(total);
                    pb.set_position(pmids);
                    pb.set_message(format!("{done}/{planned}"));
                }
                Ok(())
            }
        }
    };
    let result = search_all::search_all(&client, &req, today, &mut sink).await;
    if let Some(pb) = &bar {
        pb.finish_and_clear();
    }
    let outcome = match result {
        Ok(o) => o,
        Err(search_all::Stop::Failed(e)) => return Err(e.into()),
        Err(search_all::Stop::Output(e)) => return Err(e.into()),
    };
    if header_due && outcome.first_failure.is_none() {
        output::search::write_delimited(&mut out, format, &output::search::header(detail), &[])?;
    }
    out.flush()?;
    for w in &outcome.warnings {
        ctx.note(&format!("warning: {}", w.message));
    }
    ctx.note(&format!(
        "{} written; the query has {} ({})",
        count(outcome.written, "PMID"),
        count(outcome.total, "hit"),
        count(outcome.requests, "request")
    ));
    Ok(outcome.first_failure.map_or(0, |e| e.reason.exit_code()))
}
