//! Newline-delimited JSON-RPC over stdin/stdout for rmcp. rmcp's own stdio
//! transport drops a line that is not JSON silently; cli.md asks for a
//! parse error (-32700) and the server to keep serving, which this does,
//! also for lines that are not UTF-8 or too long. At end of input it waits
//! for the answers still in flight before closing. Messages are rmcp's
//! types; this only frames lines.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::JsonRpcMessage;
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

/// Requests answered-to-be: counted up on each request received, down on
/// each response sent.
#[derive(Default)]
struct InFlight {
    count: AtomicUsize,
    done: Notify,
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
                if matches!(msg, JsonRpcMessage::Request(_)) {
                    self.in_flight.count.fetch_add(1, Ordering::SeqCst);
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
/// (rmcp alone would give up after a few seconds).
async fn drained(in_flight: Arc<InFlight>) {
    let wait = async {
        loop {
            let notified = in_flight.done.notified();
            if in_flight.count.load(Ordering::SeqCst) == 0 {
                return;
            }
            notified.await;
        }
    };
    let _ = tokio::time::timeout(DRAIN, wait).await;
}

/// The `id` of a request whose line did not parse, when it can be read
/// (e.g. a number too large for JSON parsers elsewhere in the line), so the
/// client's waiting call still gets its error.
fn request_id(text: &str) -> Value {
    let Some(at) = text.find("\"id\"") else {
        return Value::Null;
    };
    let rest = text[at + 4..].trim_start();
    let Some(rest) = rest.strip_prefix(':') else {
        return Value::Null;
    };
    let rest = rest.trim_start();
    if let Some(s) = rest.strip_prefix('"') {
        return s
            .find('"')
            .map_or(Value::Null, |end| Value::String(s[..end].to_string()));
    }
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    digits.parse::<i64>().map_or(Value::Null, Value::from)
}

impl<R: AsyncRead + Unpin + Send> Transport<RoleServer> for LineTransport<R> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        if matches!(item, JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_)) {
            let left = self
                .in_flight
                .count
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                    Some(n.saturating_sub(1))
                });
            if left.is_ok_and(|before| before <= 1) {
                self.in_flight.done.notify_waiters();
            }
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
}
