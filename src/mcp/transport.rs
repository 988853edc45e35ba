//! Newline-delimited JSON-RPC over stdin/stdout for rmcp, answering a line
//! that is not JSON with a parse error (-32700, `id: null`) as cli.md asks;
//! rmcp's own stdio transport drops such lines silently. Messages are
//! rmcp's types; this only frames lines.

use std::future::Future;

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, Lines};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// A line transport: one writer task owns stdout, so replies to bad lines
/// and rmcp's messages never interleave.
pub struct LineTransport<R> {
    lines: Lines<BufReader<R>>,
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
            lines: BufReader::new(read).lines(),
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
}

impl<R: AsyncRead + Unpin + Send> Transport<RoleServer> for LineTransport<R> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
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
            let line = match self.lines.next_line().await {
                Ok(Some(l)) => l,
                Ok(None) | Err(_) => return None,
            };
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let value: Value = match serde_json::from_str(line) {
                Ok(v) => v,
                Err(e) => {
                    eprintln!("pubmed mcp: ignored a line that is not JSON ({e})");
                    self.reply_raw(json!({"jsonrpc": "2.0", "id": null,
                        "error": {"code": -32700, "message": "Parse error: the line is not JSON"}}));
                    continue;
                }
            };
            match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value.clone()) {
                Ok(msg) => return Some(msg),
                Err(e) => {
                    eprintln!("pubmed mcp: ignored a message that is not JSON-RPC ({e})");
                    let is_notification =
                        value.get("method").is_some() && value.get("id").is_none();
                    if !is_notification {
                        let id = value.get("id").cloned().unwrap_or(Value::Null);
                        self.reply_raw(json!({"jsonrpc": "2.0", "id": id,
                            "error": {"code": -32600, "message": "Invalid Request"}}));
                    }
                }
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
