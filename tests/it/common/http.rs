//! The built binary serving HTTP (`--http 127.0.0.1:0`), and a raw JSON-RPC MCP
//! session over it.

use std::process::{Child, Command, ExitStatus};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::blocking::{Client, RequestBuilder, Response};
use reqwest::redirect::Policy;
use serde_json::{Value, json};

use super::spawn_http as spawn;

pub const PROTOCOL: &str = "2025-06-18";

/// A running `networks-mcp --http 127.0.0.1:0 ...`.
pub struct Server {
    pub child: Child,
    pub base: String,
    pub port: u16,
    pub stderr: Arc<Mutex<Vec<String>>>,
}

impl Server {
    pub fn start(args: &[&str], envs: &[(&str, &str)]) -> Server {
        let (child, lines, rx) = spawn(args, envs);
        let base = match rx.recv_timeout(Duration::from_secs(20)) {
            Ok(base) => base,
            Err(_) => panic!(
                "server did not report its address; stderr:\n{}",
                lines.lock().unwrap().join("\n")
            ),
        };
        let port = base.rsplit(':').next().unwrap().parse().unwrap();
        Server {
            child,
            base,
            port,
            stderr: lines,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().join("\n")
    }

    /// Sends SIGTERM and waits for the exit status.
    #[cfg(unix)]
    pub fn terminate(mut self) -> ExitStatus {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        wait_exit(&mut self.child, Duration::from_secs(20))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn wait_exit(child: &mut Child, limit: Duration) -> ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(
            started.elapsed() < limit,
            "server did not exit in {limit:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A blocking client that does not follow redirects (the web view's redirects are
/// under test).
pub fn client() -> Client {
    Client::builder()
        .timeout(Duration::from_secs(20))
        .redirect(Policy::none())
        .build()
        .unwrap()
}

/// The JSON-RPC message of a response body: plain JSON or the last `data:` event of an SSE stream.
pub fn jsonrpc_body(response: Response) -> Value {
    let text = response.text().unwrap();
    if let Ok(value) = serde_json::from_str::<Value>(&text) {
        return value;
    }
    text.lines()
        .rev()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .find(|v| v.get("id").is_some())
        .unwrap_or_else(|| panic!("no JSON-RPC reply in: {text}"))
}

/// One MCP session over HTTP, speaking raw JSON-RPC.
pub struct Session {
    http: Client,
    url: String,
    token: Option<String>,
    pub session_id: String,
    next_id: u64,
}

impl Session {
    pub fn post(http: &Client, url: &str, token: Option<&str>, body: &Value) -> RequestBuilder {
        let mut request = http
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .json(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request
    }

    pub fn open(server: &Server, token: Option<&str>) -> Session {
        let http = client();
        let url = server.url("/mcp");
        let init = json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {},
                       "clientInfo": {"name": "http-test", "version": "1"}}
        });
        let response = Self::post(&http, &url, token, &init).send().unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let session_id = response
            .headers()
            .get("mcp-session-id")
            .expect("a session id")
            .to_str()
            .unwrap()
            .to_string();
        let reply = jsonrpc_body(response);
        assert_eq!(
            reply["result"]["serverInfo"]["name"], "networks-mcp",
            "{reply}"
        );
        let session = Session {
            http,
            url,
            token: token.map(str::to_string),
            session_id,
            next_id: 1,
        };
        let notified = session
            .request(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .send()
            .unwrap();
        assert_eq!(notified.status(), StatusCode::ACCEPTED);
        session
    }

    pub fn request(&self, body: &Value) -> RequestBuilder {
        Self::post(&self.http, &self.url, self.token.as_deref(), body)
            .header("mcp-session-id", &self.session_id)
            .header("mcp-protocol-version", PROTOCOL)
    }

    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let body =
            json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        let response = self.request(&body).send().unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let reply = jsonrpc_body(response);
        assert_eq!(reply["id"], self.next_id, "{reply}");
        reply
    }

    pub fn tool(&mut self, name: &str, arguments: Value) -> Value {
        let reply = self.call("tools/call", json!({"name": name, "arguments": arguments}));
        reply["result"]["structuredContent"].clone()
    }

    pub fn tool_names(&mut self) -> Vec<String> {
        let reply = self.call("tools/list", json!({}));
        reply["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    }
}

impl Session {
    /// A tool call that must succeed; its structured result.
    pub fn ok(&mut self, name: &str, arguments: Value) -> Value {
        let result = self.tool(name, arguments);
        assert_eq!(result["status"], "success", "{name}: {result}");
        result
    }
}
