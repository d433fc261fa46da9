//! What the examples that drive the built binary over HTTP share: starting it,
//! and a blocking MCP session that survives its restarts.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The protocol version the sessions speak.
pub const PROTOCOL: &str = "2025-06-18";

/// Starts the binary on `port` (0: a free one) and waits until it accepts
/// connections. Its stderr (warnings and errors only) is passed through.
pub fn spawn(bin: &PathBuf, args: &[String], port: u16) -> (Child, u16) {
    let port = match port {
        0 => std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port(),
        port => port,
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut child = Command::new(bin)
            .args(["--http", &format!("127.0.0.1:{port}")])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .env_remove("NETWORKS_MCP_TOOLSETS")
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                // It exited: the port may still be held by the killed process.
                break;
            }
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return (child, port);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = child.kill();
        let _ = child.wait();
        assert!(
            Instant::now() < deadline,
            "the server did not start listening on {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Why a call has no answer: the server went away (killed, restarting) or
/// forgot the session. Whether a write was applied is then unknown.
#[derive(Debug)]
pub struct Lost;

/// One MCP session over HTTP that opens a new session when the server restarts.
pub struct Mcp {
    http: reqwest::blocking::Client,
    base: Arc<RwLock<String>>,
    session: Option<String>,
    next_id: u64,
}

impl Mcp {
    pub fn new(base: Arc<RwLock<String>>) -> Mcp {
        Mcp {
            http: reqwest::blocking::Client::builder()
                .timeout(Duration::from_secs(30))
                .tcp_nodelay(true)
                .build()
                .unwrap(),
            base,
            session: None,
            next_id: 0,
        }
    }

    pub fn post(&self, body: &Value) -> reqwest::Result<reqwest::blocking::Response> {
        let url = format!("{}/mcp", self.base.read().unwrap());
        let mut request = self
            .http
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .json(body);
        if let Some(session) = &self.session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", PROTOCOL);
        }
        request.send()
    }

    /// Opens a session, waiting (up to a minute) for a server that restarts.
    pub fn connect(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        self.session = None;
        loop {
            let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": PROTOCOL, "capabilities": {},
                "clientInfo": {"name": "team", "version": "1"}}});
            if let Ok(response) = self.post(&init)
                && response.status().is_success()
                && let Some(id) = response.headers().get("mcp-session-id")
            {
                self.session = Some(id.to_str().unwrap().to_string());
                let _ = response.text();
                let notified = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
                if self.post(&notified).is_ok_and(|r| r.status().is_success()) {
                    return;
                }
            }
            assert!(Instant::now() < deadline, "the server did not come back");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A tool call's structured result (success or error object).
    pub fn tool(&mut self, name: &str, arguments: Value) -> Result<Value, Lost> {
        if self.session.is_none() {
            self.connect();
        }
        self.next_id += 1;
        let body = json!({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
                          "params": {"name": name, "arguments": arguments}});
        let response = self.post(&body).map_err(|_| {
            self.session = None;
            Lost
        })?;
        if !response.status().is_success() {
            // 404: the server restarted and forgot the session.
            self.session = None;
            return Err(Lost);
        }
        let text = response.text().map_err(|_| {
            self.session = None;
            Lost
        })?;
        let reply = serde_json::from_str::<Value>(&text).ok().or_else(|| {
            text.lines()
                .rev()
                .filter_map(|l| l.strip_prefix("data:"))
                .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
                .find(|v| v.get("id").is_some())
        });
        match reply {
            Some(reply) if reply["result"]["structuredContent"].is_object() => {
                Ok(reply["result"]["structuredContent"].clone())
            }
            other => panic!("{name}: unexpected reply {other:?}"),
        }
    }

    /// A call that must succeed, retried while the server is away (for calls
    /// that are safe to repeat).
    pub fn ok(&mut self, name: &str, arguments: Value) -> Value {
        loop {
            match self.tool(name, arguments.clone()) {
                Ok(result) if result["status"] == "success" => return result,
                Ok(result) => panic!("{name}: {result}"),
                Err(Lost) => continue,
            }
        }
    }
}

// Not every example uses every call.
#[allow(dead_code)]
impl Mcp {
    /// A second handle on the same session (for a call made from another thread),
    /// numbering its requests from `first_id`.
    pub fn same_session(&self, first_id: u64) -> Mcp {
        Mcp {
            http: self.http.clone(),
            base: Arc::clone(&self.base),
            session: self.session.clone(),
            next_id: first_id,
        }
    }

    /// The id the next tool call will carry.
    pub fn next_request_id(&self) -> u64 {
        self.next_id + 1
    }

    /// Sends a notification in this session; whether the server took it.
    pub fn notify(&self, method: &str, params: Value) -> bool {
        let body = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.post(&body).is_ok_and(|r| r.status().is_success())
    }
}
