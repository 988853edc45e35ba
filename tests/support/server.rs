//! A loopback HTTP/1.1 server for tests: replays NCBI bodies and can
//! misbehave on purpose (bodies cut short of Content-Length, resets, hangs),
//! which a well-behaved HTTP library would not let us do. Every request is
//! logged with its arrival time.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request as the server saw it; query-string and form parameters merged.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub params: Vec<(String, String)>,
    /// Header names in lower case, with their values.
    pub headers: Vec<(String, String)>,
    pub at: Instant,
}

impl Request {
    /// The first value of parameter `k`.
    pub fn param(&self, k: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    }

    /// The value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The rate-limit lane NCBI counts this request in: the ID Converter,
    /// or E-utilities per API key (or keyless).
    pub fn lane(&self) -> String {
        if self.path.contains("/idconv/") {
            "idconv".into()
        } else {
            match self.param("api_key") {
                Some(k) => format!("eutils key {k}"),
                None => "eutils".into(),
            }
        }
    }

    /// True when the path ends with `suffix` (`esearch.fcgi`).
    pub fn is(&self, suffix: &str) -> bool {
        self.path.ends_with(suffix)
    }
}

/// What the server does with a request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A complete answer.
    Full {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// Declares `declared` bytes of body, sends `body` (fewer), closes.
    CutShort { body: Vec<u8>, declared: usize },
    /// Closes the connection without answering.
    Reset,
    /// Never answers.
    Hang,
    /// Answers after a delay.
    Slow(Duration, Box<Reply>),
}

impl Reply {
    pub fn status(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Reply {
        Reply::Full {
            status,
            headers: vec![("Content-Type".into(), content_type.into())],
            body: body.into(),
        }
    }
    /// HTTP 200 with an XML body.
    pub fn xml(body: impl Into<Vec<u8>>) -> Reply {
        Reply::status(200, "text/xml; charset=UTF-8", body)
    }
    /// A JSON body with `status`.
    pub fn json(status: u16, body: impl Into<Vec<u8>>) -> Reply {
        Reply::status(status, "application/json", body)
    }
    /// NCBI's HTTP 429 body (`http429_rate_limit_exceeded.json`).
    pub fn too_many() -> Reply {
        Reply::json(429, fixture("http429_rate_limit_exceeded.json"))
    }
    /// Adds a header to a full reply.
    pub fn with_header(mut self, name: &str, value: &str) -> Reply {
        if let Reply::Full { headers, .. } = &mut self {
            headers.push((name.into(), value.into()));
        }
        self
    }
}

/// A fixture body from `tests/fixtures/`.
pub fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("fixture {path}: {e}"))
}

/// Decides the reply for a request.
pub type Handler = Arc<dyn Fn(&Request) -> Reply + Send + Sync>;

/// A running server. Dropping it stops accepting connections.
pub struct TestServer {
    pub addr: SocketAddr,
    log: Arc<Mutex<Vec<Request>>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    /// Starts a server on 127.0.0.1 in its own thread and runtime, so both
    /// sync tests (running the binary) and async tests can use it.
    pub fn start(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> TestServer {
        let handler: Handler = Arc::new(handler);
        let log = Arc::new(Mutex::new(Vec::new()));
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let log2 = log.clone();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
                addr_tx.send(listener.local_addr().unwrap()).unwrap();
                let accept = async {
                    loop {
                        let Ok((sock, _)) = listener.accept().await else {
                            continue;
                        };
                        let handler = handler.clone();
                        let log = log2.clone();
                        tokio::spawn(serve(sock, handler, log));
                    }
                };
                tokio::select! {
                    _ = accept => {}
                    _ = stop_rx => {}
                }
            });
            rt.shutdown_timeout(Duration::from_millis(10));
        });
        let addr = addr_rx.recv().unwrap();
        TestServer {
            addr,
            log,
            stop: Some(stop_tx),
            thread: Some(thread),
        }
    }

    /// The E-utilities base URL of this server.
    pub fn eutils_url(&self) -> String {
        format!("http://{}/entrez/eutils/", self.addr)
    }

    /// The ID Converter URL of this server.
    pub fn idconv_url(&self) -> String {
        format!("http://{}/tools/idconv/api/v1/articles/", self.addr)
    }

    /// The Europe PMC REST base URL of this server.
    pub fn europepmc_url(&self) -> String {
        format!("http://{}/europepmc/webservices/rest/", self.addr)
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<Request> {
        self.log.lock().unwrap().clone()
    }

    /// How many requests arrived so far.
    pub fn count(&self) -> usize {
        self.log.lock().unwrap().len()
    }

    /// The most requests that arrived within any 1-second window.
    pub fn max_per_second(&self) -> usize {
        self.max_per_second_where(|_| true)
    }

    /// The most requests matching `pred` within any 1-second window.
    pub fn max_per_second_where(&self, pred: impl Fn(&Request) -> bool) -> usize {
        max_in_window(
            &self
                .requests()
                .iter()
                .filter(|r| pred(r))
                .map(|r| r.at)
                .collect::<Vec<_>>(),
            Duration::from_secs(1),
        )
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The largest number of instants inside any window of length `w`.
pub fn max_in_window(times: &[Instant], w: Duration) -> usize {
    let mut sorted = times.to_vec();
    sorted.sort();
    let mut best = 0;
    let mut start = 0;
    for end in 0..sorted.len() {
        while sorted[end].duration_since(sorted[start]) >= w {
            start += 1;
        }
        best = best.max(end - start + 1);
    }
    best
}

/// A sliding-window rate limiter like NCBI's, per lane ([`Request::lane`]:
/// the ID Converter, E-utilities keyless, E-utilities per key): more than
/// `limit` arrivals in the last second (10 when the request carries
/// `api_key`, else 3) get 429. Rejected requests count as arrivals too.
#[derive(Debug, Default)]
pub struct RateLimit {
    arrivals: Mutex<std::collections::HashMap<String, VecDeque<Instant>>>,
}

impl RateLimit {
    /// True when this arrival is over the limit (it still counts as an arrival).
    pub fn over(&self, req: &Request) -> bool {
        let limit = if req.param("api_key").is_some() {
            10
        } else {
            3
        };
        let mut lanes = self.arrivals.lock().unwrap();
        let a = lanes.entry(req.lane()).or_default();
        while a
            .front()
            .is_some_and(|t| req.at.duration_since(*t) >= Duration::from_secs(1))
        {
            a.pop_front();
        }
        a.push_back(req.at);
        a.len() > limit
    }
}

type Head = (String, String, Vec<(String, String)>, Vec<u8>);

async fn read_request(sock: &mut TcpStream) -> Option<Head> {
    let mut buf = Vec::with_capacity(4096);
    let mut chunk = [0u8; 8192];
    loop {
        let n = sock.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut req = httparse::Request::new(&mut headers);
        if let httparse::Status::Complete(head_len) = req.parse(&buf).ok()? {
            let method = req.method?.to_string();
            let target = req.path?.to_string();
            let headers: Vec<(String, String)> = req
                .headers
                .iter()
                .map(|h| {
                    (
                        h.name.to_ascii_lowercase(),
                        String::from_utf8_lossy(h.value).into_owned(),
                    )
                })
                .collect();
            let len: usize = req
                .headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case("content-length"))
                .and_then(|h| std::str::from_utf8(h.value).ok()?.trim().parse().ok())
                .unwrap_or(0);
            while buf.len() < head_len + len {
                let n = sock.read(&mut chunk).await.ok()?;
                if n == 0 {
                    return None;
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            return Some((
                method,
                target,
                headers,
                buf[head_len..head_len + len].to_vec(),
            ));
        }
    }
}

async fn write_reply(sock: &mut TcpStream, reply: Reply) {
    match reply {
        Reply::Full {
            status,
            headers,
            body,
        } => {
            let mut head = format!(
                "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n",
                body.len()
            );
            for (k, v) in headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str("\r\n");
            let _ = sock.write_all(head.as_bytes()).await;
            let _ = sock.write_all(&body).await;
        }
        Reply::CutShort { body, declared } => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: {declared}\r\nConnection: close\r\n\r\n"
            );
            let _ = sock.write_all(head.as_bytes()).await;
            let _ = sock.write_all(&body).await;
        }
        Reply::Reset => {
            // RST instead of FIN: the client sees a reset, not an empty answer.
            let _ = sock.set_zero_linger();
            return;
        }
        Reply::Hang => tokio::time::sleep(Duration::from_secs(3600)).await,
        Reply::Slow(d, inner) => {
            tokio::time::sleep(d).await;
            Box::pin(write_reply(sock, *inner)).await;
        }
    }
    let _ = sock.flush().await;
    let _ = sock.shutdown().await;
}

async fn serve(mut sock: TcpStream, handler: Handler, log: Arc<Mutex<Vec<Request>>>) {
    let Some((method, target, headers, body)) = read_request(&mut sock).await else {
        return;
    };
    let at = Instant::now();
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    let mut params: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    params.extend(url::form_urlencoded::parse(&body).into_owned());
    let req = Request {
        method,
        path: path.to_string(),
        params,
        headers,
        at,
    };
    log.lock().unwrap().push(req.clone());
    let reply = handler(&req);
    write_reply(&mut sock, reply).await;
}

/// A loopback EFetch answering from NCBI's own captures (`captures`, file
/// names in tests/fixtures): the `PubmedArticle`/`PubmedBookArticle`
/// elements asked for, byte for byte in request order under the first
/// capture's prolog; PMIDs they do not hold are left out, as EFetch does.
/// With `fail`, every EFetch request gets HTTP 500. Returns the server and
/// the captures' PMIDs in capture order (each once).
pub fn efetch_capture_server(captures: &[String], fail: bool) -> (TestServer, Vec<String>) {
    let mut prolog = String::new();
    let mut pmids = Vec::new();
    let mut by_pmid = std::collections::HashMap::new();
    for name in captures {
        let body = String::from_utf8(fixture(name)).unwrap();
        if prolog.is_empty() {
            prolog = body[..body.find("<PubmedArticleSet>").unwrap()].to_string();
        }
        let set = pubmed::ncbi::efetch::parse_set(&body, true).unwrap();
        for (pmid, _, raw) in set.articles {
            if by_pmid.insert(pmid.clone(), raw.unwrap()).is_none() {
                pmids.push(pmid);
            }
        }
    }
    let server = TestServer::start(move |req| {
        if !req.is("efetch.fcgi") {
            return Reply::status(404, "text/plain", "unknown endpoint");
        }
        if fail {
            return Reply::status(500, "text/plain", "Internal Server Error");
        }
        let mut out = format!("{prolog}<PubmedArticleSet>\n");
        for id in req.param("id").unwrap_or_default().split(',') {
            if let Some(a) = by_pmid.get(id) {
                out.push_str(a);
            }
        }
        out.push_str("</PubmedArticleSet>");
        Reply::xml(out)
    });
    (server, pmids)
}
