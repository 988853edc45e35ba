//! Newline-delimited JSON-RPC over stdin/stdout for rmcp. rmcp's own stdio
//! transport drops a line that is not JSON silently; we answer it with a
//! parse error (-32700) and keep serving, also for lines that are not UTF-8
//! or too long (docs/mcp.md "Transport"). At end of input it waits for the
//! answers still owed before closing: a request is owed an answer from its
//! arrival until it is answered or cancelled, so a cancelled call never
//! delays the exit, and a second request with an id still in flight is
//! refused at once (-32600) rather than left unanswered. Messages are
//! rmcp's types; this only frames lines.

use std::collections::HashSet;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{ClientNotification, JsonRpcMessage, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{Notify, mpsc};
use tokio::task::JoinHandle;

/// The longest line read (as rmcp's own transport).
pub const MAX_LINE: usize = 16 * 1024 * 1024;
/// How long answers in flight may take after stdin closes.
const DRAIN: Duration = Duration::from_secs(180);

/// The ids of requests still owed an answer: added on arrival, removed when
/// the answer is sent or the client cancels the request.
#[derive(Default)]
struct InFlight {
    ids: Mutex<HashSet<RequestId>>,
    done: Notify,
}

impl InFlight {
    fn ids(&self) -> std::sync::MutexGuard<'_, HashSet<RequestId>> {
        self.ids.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records a new request; false when its id is already in flight.
    fn start(&self, id: &RequestId) -> bool {
        self.ids().insert(id.clone())
    }

    /// The request `id` is answered or cancelled.
    fn end(&self, id: &RequestId) {
        let mut ids = self.ids();
        if ids.remove(id) && ids.is_empty() {
            self.done.notify_waiters();
        }
    }

    fn is_empty(&self) -> bool {
        self.ids().is_empty()
    }
}

/// A line transport: one writer task owns stdout, so replies to bad lines
/// and rmcp's messages never interleave.
pub struct LineTransport<R> {
    reader: BufReader<R>,
    /// The line being read (kept across cancelled `receive` calls).
    buf: Vec<u8>,
    /// Skipping the rest of an over-long line.
    discarding: bool,
    eof: bool,
    in_flight: Arc<InFlight>,
    out: Option<mpsc::UnboundedSender<Vec<u8>>>,
    writer: Option<JoinHandle<()>>,
}

impl<R: AsyncRead + Unpin + Send> LineTransport<R> {
    /// Reads requests from `read`, writes answers to `write`.
    pub fn new<W: AsyncWrite + Unpin + Send + 'static>(read: R, mut write: W) -> Self {
        let (tx, mut rx) = mpsc::unbounded_channel::<Vec<u8>>();
        let writer = tokio::spawn(async move {
            while let Some(buf) = rx.recv().await {
                if write.write_all(&buf).await.is_err() || write.flush().await.is_err() {
                    break;
                }
            }
        });
        LineTransport {
            reader: BufReader::new(read),
            buf: Vec::new(),
            discarding: false,
            eof: false,
            in_flight: Arc::new(InFlight::default()),
            out: Some(tx),
            writer: Some(writer),
        }
    }

    fn reply_raw(&self, v: Value) {
        if let Some(tx) = &self.out {
            let mut buf = v.to_string().into_bytes();
            buf.push(b'\n');
            let _ = tx.send(buf);
        }
    }

    fn parse_error(&self, id: Value, why: &str) {
        crate::diag!("pubmed mcp: {why}");
        self.reply_raw(json!({"jsonrpc": "2.0", "id": id,
            "error": {"code": -32700, "message": format!("Parse error: {why}")}}));
    }

    /// Handles one complete line; returns a message for rmcp, if any.
    fn line(&self, bytes: &[u8]) -> Option<RxJsonRpcMessage<RoleServer>> {
        let Ok(text) = std::str::from_utf8(bytes) else {
            self.parse_error(Value::Null, "the line is not UTF-8");
            return None;
        };
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                self.parse_error(request_id(text), &format!("the line is not JSON ({e})"));
                return None;
            }
        };
        match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value.clone()) {
            Ok(msg) => {
                match &msg {
                    JsonRpcMessage::Request(r) if !self.in_flight.start(&r.id) => {
                        crate::diag!(
                            "pubmed mcp: refused a request whose id {} is already in flight",
                            r.id
                        );
                        self.reply_raw(json!({"jsonrpc": "2.0", "id": r.id.clone().into_json_value(),
                            "error": {"code": -32600, "message": format!(
                                "Invalid Request: id {} is already in use by a request in flight; give each request its own id",
                                r.id
                            )}}));
                        return None;
                    }
                    JsonRpcMessage::Notification(n) => {
                        if let ClientNotification::CancelledNotification(c) = &n.notification
                            && let Some(id) = &c.params.request_id
                        {
                            self.in_flight.end(id);
                        }
                    }
                    _ => {}
                }
                Some(msg)
            }
            Err(e) => {
                crate::diag!("pubmed mcp: ignored a message that is not JSON-RPC ({e})");
                let is_notification = value.get("method").is_some() && value.get("id").is_none();
                if !is_notification {
                    let id = value.get("id").cloned().unwrap_or(Value::Null);
                    self.reply_raw(json!({"jsonrpc": "2.0", "id": id,
                        "error": {"code": -32600, "message": "Invalid Request"}}));
                }
                None
            }
        }
    }
}

/// At end of input: wait until every request received has been answered
/// or cancelled (rmcp alone would give up after a few seconds).
async fn drained(in_flight: Arc<InFlight>) {
    let wait = async {
        loop {
            let notified = in_flight.done.notified();
            if in_flight.is_empty() {
                return;
            }
            notified.await;
        }
    };
    let _ = tokio::time::timeout(DRAIN, wait).await;
}

/// The end of the JSON string that starts at `b[at]` (a `"`): the index
/// after its closing quote.
fn string_end(b: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The `id` member of the top-level object of a line that did not parse
/// (e.g. a number too large for JSON parsers elsewhere in the line), so the
/// client's waiting call still gets its error. Only a member of the root
/// object counts, never an `"id"` nested in the params; when the id cannot
/// be read for sure (none, two, or not a whole number or string), `null`,
/// as JSON-RPC asks.
fn request_id(text: &str) -> Value {
    let b = text.trim_start().as_bytes();
    if b.first() != Some(&b'{') {
        return Value::Null;
    }
    let mut found: Option<Value> = None;
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let Some(end) = string_end(b, i) else {
                    return Value::Null;
                };
                let rest = &b[end..];
                let colon = rest.iter().position(|c| !c.is_ascii_whitespace());
                let is_key = depth == 1 && colon.is_some_and(|p| rest[p] == b':');
                if is_key && &b[i..end] == b"\"id\"" {
                    if found.is_some() {
                        return Value::Null;
                    }
                    let start = end + colon.unwrap_or(0) + 1;
                    found = Some(id_value(&b[start..]));
                }
                i = end;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    found.unwrap_or(Value::Null)
}

/// A JSON-RPC id (a string or a whole number) at the start of `b`, else
/// `null`.
fn id_value(b: &[u8]) -> Value {
    let skip = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    let b = &b[skip..];
    if b.first() == Some(&b'"') {
        return string_end(b, 0)
            .and_then(|end| std::str::from_utf8(&b[..end]).ok())
            .and_then(|s| serde_json::from_str::<String>(s).ok())
            .map_or(Value::Null, Value::String);
    }
    let len = b
        .iter()
        .take_while(|c| c.is_ascii_digit() || **c == b'-')
        .count();
    let next = b.get(len).copied();
    let ends = next.is_none_or(|c| c == b',' || c == b'}' || c.is_ascii_whitespace());
    if !ends {
        return Value::Null;
    }
    std::str::from_utf8(&b[..len])
        .ok()
        .and_then(|s| s.parse::<i64>().ok())
        .map_or(Value::Null, Value::from)
}

impl<R: AsyncRead + Unpin + Send> Transport<RoleServer> for LineTransport<R> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        match &item {
            JsonRpcMessage::Response(r) => self.in_flight.end(&r.id),
            JsonRpcMessage::Error(e) => {
                if let Some(id) = &e.id {
                    self.in_flight.end(id);
                }
            }
            _ => {}
        }
        let sent = match (&self.out, serde_json::to_vec(&item)) {
            (Some(tx), Ok(mut buf)) => {
                buf.push(b'\n');
                tx.send(buf).map_err(|_| {
                    std::io::Error::new(std::io::ErrorKind::BrokenPipe, "stdout closed")
                })
            }
            (None, _) => Err(std::io::Error::new(
                std::io::ErrorKind::NotConnected,
                "transport closed",
            )),
            (_, Err(e)) => Err(e.into()),
        };
        std::future::ready(sent)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if self.eof {
                drained(self.in_flight.clone()).await;
                return None;
            }
            if self.discarding {
                // Skip the rest of an over-long line without keeping it.
                let mut skipped = Vec::new();
                match (&mut self.reader)
                    .take(64 * 1024)
                    .read_until(b'\n', &mut skipped)
                    .await
                {
                    Ok(0) | Err(_) => self.eof = true,
                    Ok(_) if skipped.ends_with(b"\n") => self.discarding = false,
                    Ok(_) => {}
                }
                continue;
            }
            let room = (MAX_LINE + 1).saturating_sub(self.buf.len()) as u64;
            let read = (&mut self.reader)
                .take(room)
                .read_until(b'\n', &mut self.buf)
                .await;
            match read {
                Ok(0) | Err(_) => {
                    self.eof = true;
                    let last = std::mem::take(&mut self.buf);
                    if let Some(msg) = self.line(&last) {
                        return Some(msg);
                    }
                }
                Ok(_) if self.buf.ends_with(b"\n") => {
                    let line = std::mem::take(&mut self.buf);
                    if let Some(msg) = self.line(&line) {
                        return Some(msg);
                    }
                }
                Ok(_) if self.buf.len() > MAX_LINE => {
                    self.buf = Vec::new();
                    self.discarding = true;
                    self.parse_error(Value::Null, "the line is longer than 16 MiB");
                }
                Ok(_) => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        drop(self.out.take());
        if let Some(h) = self.writer.take() {
            let _ = h.await;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_ids_are_recovered_from_lines_that_do_not_parse() {
        assert_eq!(
            request_id(r#"{"jsonrpc":"2.0","id":7,"params":{"x":1e400}}"#),
            json!(7)
        );
        assert_eq!(request_id(r#"{"id": "abc", "x": 1e400}"#), json!("abc"));
        assert_eq!(request_id("garbage"), Value::Null);
        assert_eq!(request_id(r#"{"id": {"#), Value::Null);
    }

    /// D6: an `"id"` inside the params is not the request's id.
    #[test]
    fn only_the_top_level_id_counts() {
        let line = r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x","arguments":{"id":5}},"id":7,"x":1e400}"#;
        assert_eq!(request_id(line), json!(7));
        assert_eq!(
            request_id(r#"{"params":{"id":5},"x":1e400}"#),
            Value::Null,
            "no top-level id: null, never the nested one"
        );
        assert_eq!(request_id(r#"{"id":1,"id":2,"x":1e400}"#), Value::Null);
        assert_eq!(request_id(r#"{"id":7.5,"x":1e400}"#), Value::Null);
        assert_eq!(request_id(r#"{"id":1e400}"#), Value::Null);
        assert_eq!(
            request_id(r#"{"a":"\"id\":3","id":"q\"r","x":1e400}"#),
            json!("q\"r")
        );
        assert_eq!(request_id(r#"["id", 4]"#), Value::Null);
    }
}
