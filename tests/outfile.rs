//! `--output FILE` is the user's data (issue 25, "Output files are the
//! user's data", items 1–5; docs/fetch.md "Output files"): never the
//! input, one run at a time, untouched by a refusal, an unfinished run of
//! any format never overwritten, and a failed write (full disk, `ulimit
//! -f`) exit 74 naming FILE.

use crate::support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use support::cli::{Run, pubmed};
use support::fake_ncbi::{Corpus, FakeNcbi};
use support::server::TestServer;

fn start(fake: &Arc<FakeNcbi>) -> TestServer {
    let f = fake.clone();
    TestServer::start(move |r| f.reply(r))
}

fn run(server: &TestServer, args: &[&str]) -> Run {
    pubmed(args)
        .server(server)
        .env("PUBMED_DEADLINE_S", "120")
        .run()
}

fn sidecar_path(file: &Path) -> std::path::PathBuf {
    let mut p = file.as_os_str().to_owned();
    p.push(".pubmed-resume");
    p.into()
}

/// Marks FILE's run unfinished, as a killed run leaves it.
fn mark_unfinished(file: &Path) {
    let path = sidecar_path(file);
    let mut s: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    s["complete"] = serde_json::Value::Bool(false);
    std::fs::write(path, serde_json::to_vec(&s).unwrap()).unwrap();
}

/// The PMIDs 20000001…20000000+n, one per line.
fn pmid_lines(n: u64) -> String {
    (1..=n).map(|i| format!("{}\n", 20_000_000 + i)).collect()
}

/// Item 1: `fetch --input X --output X` emptied X before reading it. Now
/// refused (exit 2, `invalid_argument`) before anything is sent, X byte
/// for byte as it was; a hard link (another name, the same inode) too.
#[test]
fn the_input_is_never_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let x = dir.path().join("pmids.txt");
    let body = pmid_lines(3);
    std::fs::write(&x, &body).unwrap();
    let link = dir.path().join("link.txt");
    std::fs::hard_link(&x, &link).unwrap();
    let server = start(&FakeNcbi::new(Corpus::synthetic()));
    let xs = x.to_str().unwrap();
    for out in [xs, link.to_str().unwrap()] {
        let r = run(
            &server,
            &["fetch", "--input", xs, "-f", "ndjson", "--output", out],
        );
        r.failed_with(
            2,
            "invalid_argument",
            &format!("--output {out} is the input ({xs})"),
        );
        assert_eq!(std::fs::read_to_string(&x).unwrap(), body);
        assert!(!sidecar_path(Path::new(out)).exists());
    }
    assert_eq!(server.count(), 0);
}

/// Item 1 with stdin: `fetch --output X < X` is refused as well.
#[test]
fn stdin_from_the_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let x = dir.path().join("pmids.txt");
    let body = pmid_lines(3);
    std::fs::write(&x, &body).unwrap();
    let server = start(&FakeNcbi::new(Corpus::synthetic()));
    let xs = x.to_str().unwrap();
    let mut p = pubmed(&["fetch", "-f", "ndjson", "--output", xs]).server(&server);
    p.cmd.stdin(std::fs::File::open(&x).unwrap());
    let out = p.cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("--output {xs} is the input (stdin)")),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&x).unwrap(), body);
    assert_eq!(server.count(), 0);
}

/// Item 2: two runs on one `--output` both wrote it. Now the second fails
/// at once with `output_locked` (exit 75) naming FILE and the first run's
/// pid, and sends nothing; the first finishes with FILE as a lone run
/// writes it.
#[test]
fn a_second_run_on_the_same_file_fails_at_once() {
    let fake = FakeNcbi::new(Corpus::synthetic());
    let release = Arc::new(AtomicBool::new(false));
    let (f, r) = (fake.clone(), release.clone());
    // the first run's EFetch is answered only once the second has ended
    let server = TestServer::start(move |req| {
        if req.is("efetch.fcgi") {
            let t0 = Instant::now();
            while !r.load(Ordering::SeqCst) && t0.elapsed() < Duration::from_secs(60) {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        f.reply(req)
    });
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.ndjson");
    let fs_ = file.to_str().unwrap();
    let args = [
        "fetch", "20000001", "20000002", "-f", "ndjson", "--output", fs_,
    ];
    let mut first = pubmed(&args)
        .server(&server)
        .env("PUBMED_DEADLINE_S", "120");
    first.cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let mut child = first.cmd.spawn().unwrap();
    let t0 = Instant::now();
    while server.count() == 0 {
        assert!(child.try_wait().unwrap().is_none(), "the first run ended");
        assert!(t0.elapsed() < Duration::from_secs(120), "no request");
        std::thread::sleep(Duration::from_millis(5));
    }
    for second in [
        args.to_vec(),
        [&args[..], &["--resume"]].concat(),
        vec!["fetch", "20000003", "-f", "ndjson", "--output", fs_],
    ] {
        let r = run(&server, &second);
        r.failed_with(
            75,
            "output_locked",
            &format!(
                "{fs_} is being written by another pubmed run (pid {})",
                child.id()
            ),
        );
    }
    assert_eq!(server.count(), 1, "the second runs sent nothing");
    release.store(true, Ordering::SeqCst);
    assert!(child.wait().unwrap().success());
    let lone = run(&server, &["fetch", "20000001", "20000002", "-f", "ndjson"]);
    assert_eq!(lone.code, 0, "{}", lone.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), lone.stdout);
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(sidecar_path(&file)).unwrap()).unwrap();
    assert_eq!(s["complete"], true);
    assert!(
        s.get("pid").is_none(),
        "a finished run names no process: {s}"
    );
}

/// Item 2 for `search --all`: a run holding FILE refuses another.
#[test]
fn search_all_holds_its_file_too() {
    let fake = FakeNcbi::new(Corpus::synthetic());
    let release = Arc::new(AtomicBool::new(false));
    let (f, r) = (fake.clone(), release.clone());
    let server = TestServer::start(move |req| {
        let t0 = Instant::now();
        while !r.load(Ordering::SeqCst) && t0.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(5));
        }
        f.reply(req)
    });
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.txt");
    let fs_ = file.to_str().unwrap();
    let args = ["search", "hits1", "--all", "--output", fs_];
    let mut first = pubmed(&args)
        .server(&server)
        .env("PUBMED_DEADLINE_S", "120");
    first.cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let mut child = first.cmd.spawn().unwrap();
    let t0 = Instant::now();
    while server.count() == 0 {
        assert!(child.try_wait().unwrap().is_none(), "the first run ended");
        assert!(t0.elapsed() < Duration::from_secs(120), "no request");
        std::thread::sleep(Duration::from_millis(5));
    }
    let r = run(
        &server,
        &["search", "hits1", "--all", "-f", "ndjson", "--output", fs_],
    );
    r.failed_with(
        75,
        "output_locked",
        &format!(
            "{fs_} is being written by another pubmed run (pid {})",
            child.id()
        ),
    );
    release.store(true, Ordering::SeqCst);
    assert!(child.wait().unwrap().success());
    let lone = run(&server, &["search", "hits1", "--all", "-f", "ids"]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), lone.stdout);
}

/// Item 3: a `fetch --resume` refused because the input changed had
/// already cut FILE. Now FILE (a cut last line included) is byte for byte
/// what it was, and nothing is sent.
#[test]
fn a_refused_resume_leaves_the_file_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let file = dir.path().join("out.ndjson");
    std::fs::write(&input, pmid_lines(3)).unwrap();
    let server = start(&FakeNcbi::new(Corpus::synthetic()));
    let (i, f) = (input.to_str().unwrap(), file.to_str().unwrap());
    let r = run(
        &server,
        &["fetch", "--input", i, "-f", "ndjson", "--output", f],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // as if killed in the middle of the third record
    let text = std::fs::read_to_string(&file).unwrap();
    let cut = text.len() - 10;
    std::fs::write(&file, &text[..cut]).unwrap();
    mark_unfinished(&file);
    let before = std::fs::read(&file).unwrap();
    let sidecar_before = std::fs::read(sidecar_path(&file)).unwrap();
    std::fs::write(&input, "20000001\n20000009\n20000003\n").unwrap();
    let sent = server.count();
    let r = run(
        &server,
        &[
            "fetch", "--input", i, "-f", "ndjson", "--output", f, "--resume",
        ],
    );
    r.failed_with(
        2,
        "invalid_argument",
        &format!("the input is not the one {f} was written from (record 2 is PMID 20000009, in {f} it is 20000002)"),
    );
    assert_eq!(std::fs::read(&file).unwrap(), before);
    assert_eq!(std::fs::read(sidecar_path(&file)).unwrap(), sidecar_before);
    assert_eq!(server.count(), sent);
    // the same input then continues it: the cut third record fetched again
    std::fs::write(&input, pmid_lines(3)).unwrap();
    let r = run(
        &server,
        &[
            "fetch", "--input", i, "-f", "ndjson", "--output", f, "--resume",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
}

/// Item 4: the unfinished-run guard covered only `-f ndjson`; `-f csv`
/// overwrote an unfinished resumable run. Now every format refuses (exit
/// 2), FILE untouched; and a run of any format leaves a sidecar, so its
/// own unfinished file is guarded too.
#[test]
fn an_unfinished_run_is_guarded_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out");
    let f = file.to_str().unwrap();
    let server = start(&FakeNcbi::new(Corpus::synthetic()));
    let r = run(
        &server,
        &[
            "fetch", "20000001", "20000002", "-f", "ndjson", "--output", f,
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    mark_unfinished(&file);
    let before = std::fs::read(&file).unwrap();
    let sent = server.count();
    let formats = [
        "abstract", "medline", "xml", "json", "ndjson", "csv", "tsv", "table", "ris", "bibtex",
        "csl-json",
    ];
    for format in formats {
        let r = run(&server, &["fetch", "20000003", "-f", format, "--output", f]);
        assert_eq!(r.code, 2, "-f {format}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!(
                "{f} holds an unfinished run of `pubmed fetch`: add --resume to continue it"
            )),
            "-f {format}: {}",
            r.stderr
        );
        assert_eq!(std::fs::read(&file).unwrap(), before, "-f {format}");
    }
    assert_eq!(server.count(), sent);
    // a CSV run is guarded against in turn
    let csv = dir.path().join("out.csv");
    let c = csv.to_str().unwrap();
    let r = run(&server, &["fetch", "20000001", "-f", "csv", "--output", c]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    mark_unfinished(&csv);
    let before = std::fs::read(&csv).unwrap();
    let r = run(&server, &["fetch", "20000002", "-f", "csv", "--output", c]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("holds an unfinished run"), "{}", r.stderr);
    assert_eq!(std::fs::read(&csv).unwrap(), before);
}

/// `pubmed ARGS…` under `ulimit -f BLOCKS` (512-byte blocks in POSIX sh).
fn under_ulimit(server: &TestServer, blocks: u32, args: &[&str]) -> (Option<i32>, String) {
    let p = pubmed(args).server(server).env("PUBMED_DEADLINE_S", "120");
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg(format!("ulimit -f {blocks} && exec \"$0\" \"$@\""))
        .arg(p.cmd.get_program())
        .args(p.cmd.get_args())
        .env_clear()
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in p.cmd.get_envs() {
        if let Some(v) = v {
            sh.env(k, v);
        }
    }
    let out = sh.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Item 5: under `ulimit -f` the process died of SIGXFSZ (exit 153, no
/// message). Now exit 74 naming FILE; `search --all` as `fetch`.
#[test]
fn a_file_size_limit_is_exit_74_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&FakeNcbi::new(Corpus::synthetic()));
    let file = dir.path().join("out.ndjson");
    let f = file.to_str().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, pmid_lines(40)).unwrap();
    let i = input.to_str().unwrap();
    let (code, stderr) = under_ulimit(
        &server,
        2,
        &["fetch", "--input", i, "-f", "ndjson", "--output", f],
    );
    assert_eq!(code, Some(74), "{stderr}");
    // -f ndjson: the JSON error object, as for every other error
    let e = last_json_error(&stderr);
    assert_eq!(e["reason"], "output_failed", "{stderr}");
    assert_eq!(
        e["message"],
        format!("cannot write {f}: File too large (os error 27)")
    );
    assert_eq!(
        e["hint"],
        format!("check the free space and the file size limit (ulimit -f) for {f}")
    );
    assert_eq!(e["retryable"], false);
    assert_eq!(std::fs::metadata(&file).unwrap().len(), 1024);
    let ids = dir.path().join("ids.txt");
    let d = ids.to_str().unwrap();
    let (code, stderr) = under_ulimit(&server, 1, &["search", "hits30000", "--all", "--output", d]);
    assert_eq!(code, Some(74), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "pubmed: error: cannot write {d}: File too large (os error 27)"
        )),
        "{stderr}"
    );
}

/// Item 5: on a full disk with `--output` the message talked about stdout.
/// Now it names FILE (here a link to /dev/full).
#[test]
fn a_full_disk_names_the_output_file() {
    if !Path::new("/dev/full").exists() {
        return; // no /dev/full on this system
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.ndjson");
    std::os::unix::fs::symlink("/dev/full", &file).unwrap();
    let f = file.to_str().unwrap();
    let server = start(&FakeNcbi::new(Corpus::synthetic()));
    let r = run(&server, &["fetch", "20000001", "-f", "csv", "--output", f]);
    assert_eq!(r.code, 74, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "pubmed: error: cannot write {f}: No space left on device (os error 28)\npubmed: hint: check the free space and the file size limit (ulimit -f) for {f}\n"
        )),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("stdout"), "{}", r.stderr);
    // -f ndjson and -f json: the same failure as the JSON error object
    for format in ["ndjson", "json"] {
        let file = dir.path().join(format!("full.{format}"));
        std::os::unix::fs::symlink("/dev/full", &file).unwrap();
        let f = file.to_str().unwrap();
        let r = run(&server, &["fetch", "20000001", "-f", format, "--output", f]);
        assert_eq!(r.code, 74, "{}", r.stderr);
        let e = last_json_error(&r.stderr);
        assert_eq!(e["reason"], "output_failed", "{}", r.stderr);
        assert_eq!(
            e["message"],
            format!("cannot write {f}: No space left on device (os error 28)")
        );
    }
}

/// The `error` object of the last stderr line, which must be JSON.
fn last_json_error(stderr: &str) -> serde_json::Value {
    let last = stderr.lines().last().unwrap_or_default();
    let v: serde_json::Value =
        serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    v["error"].clone()
}

/// Issue 25 "first hour": exit 74 with `-f json`/`-f ndjson` printed text
/// lines, though every other error is the JSON object there. stdout to
/// /dev/full: `output_failed`, the stdout hint, exit 74.
#[test]
fn stdout_to_a_full_disk_is_the_json_error_with_f_json() {
    let server = start(&FakeNcbi::new(Corpus::synthetic()));
    for args in [
        &["search", "hits30000", "--retmax", "50", "-f", "json"][..],
        &["fetch", "20000001", "20000002", "-f", "ndjson"],
    ] {
        let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
            return; // no /dev/full on this system
        };
        let r = pubmed(args).server(&server).stdout_to(full).run();
        assert_eq!(r.code, 74, "{args:?}: {}", r.stderr);
        let e = last_json_error(&r.stderr);
        assert_eq!(e["reason"], "output_failed", "{}", r.stderr);
        assert_eq!(
            e["message"],
            "cannot write the output: No space left on device (os error 28)"
        );
        assert_eq!(e["hint"], "check the disk or the file that stdout goes to");
        assert_eq!(e["retryable"], false);
    }
}
