//! End to end: spawn the built binary and talk to it over stdio as a client would.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_networks-mcp");

/// Where the child's logs go: a file, so a chatty `--log-level trace` can never fill
/// an unread pipe and stall the server.
fn stderr_sink() -> Stdio {
    let path = std::env::temp_dir().join(format!("networks-mcp-e2e-{}.log", std::process::id()));
    std::fs::File::create(path)
        .map(Stdio::from)
        .unwrap_or_else(|_| Stdio::null())
}

fn frames() -> Vec<Value> {
    let call = |id: u64, name: &str, arguments: Value| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}});
    vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "e2e", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        call(3, "network_create", json!({"network_name": "module_deps"})),
        call(
            4,
            "network_add_node",
            json!({"network_name": "module_deps", "node_id": "agents"}),
        ),
        call(
            5,
            "network_add_node",
            json!({"network_name": "module_deps", "node_id": "logging"}),
        ),
        call(
            6,
            "network_add_edge",
            json!({"network_name": "module_deps", "source": "agents", "target": "logging"}),
        ),
        call(
            7,
            "network_get_neighbors",
            json!({"network_name": "module_deps", "node_id": "logging"}),
        ),
        call(
            8,
            "network_add_node",
            json!({"network_name": "module_deps", "node_id": ""}),
        ),
    ]
}

/// Runs the binary on `input` lines (stdin closed afterwards) and returns stdout lines and the exit status.
fn run(args: &[&str], input: &str) -> (Vec<String>, std::process::ExitStatus) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr_sink())
        .spawn()
        .expect("spawn networks-mcp");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let lines: Vec<String> = stdout.lines().map(|l| l.unwrap()).collect();
    let status = child.wait().unwrap();
    (lines, status)
}

/// Runs the binary, sending each frame only after the previous request's reply (as a
/// client that awaits replies does; rmcp runs concurrent requests concurrently).
fn converse(args: &[&str], frames: &[Value]) -> (Vec<String>, std::process::ExitStatus) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr_sink())
        .spawn()
        .expect("spawn networks-mcp");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    for frame in frames {
        writeln!(stdin, "{frame}").unwrap();
        if let Some(id) = frame.get("id") {
            // Up to and including this request's reply (notifications may come first).
            loop {
                let mut line = String::new();
                if stdout.read_line(&mut line).unwrap() == 0 {
                    break;
                }
                let line = line.trim_end().to_string();
                let is_reply = serde_json::from_str::<Value>(&line)
                    .map(|v| v.get("id") == Some(id))
                    .unwrap_or(true);
                lines.push(line);
                if is_reply {
                    break;
                }
            }
        }
    }
    drop(stdin);
    lines.extend(stdout.lines().map(|l| l.unwrap()));
    let status = child.wait().unwrap();
    (lines, status)
}

#[test]
fn stdout_carries_only_json_rpc_frames_even_at_trace() {
    let (lines, status) = converse(&["--log-level", "trace"], &frames());
    assert!(status.success(), "clean exit on stdin EOF");
    let mut by_id = std::collections::HashMap::new();
    for line in &lines {
        let frame: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert_eq!(frame["jsonrpc"], "2.0", "{line}");
        match frame["id"].as_u64() {
            Some(id) => assert!(by_id.insert(id, frame).is_none(), "one reply per id"),
            // The only notification here: network_create announced a new resource.
            None => assert_eq!(
                frame["method"], "notifications/resources/list_changed",
                "{line}"
            ),
        }
    }
    assert_eq!(by_id.len(), 8, "one reply per request: {lines:#?}");
    assert_eq!(by_id[&1]["result"]["serverInfo"]["name"], "networks-mcp");
    assert!(
        by_id[&1]["result"]["instructions"]
            .as_str()
            .unwrap()
            .contains("network_list")
    );
    assert!(by_id[&2]["result"]["tools"].as_array().unwrap().len() >= 6);
    assert_eq!(
        by_id[&7]["result"]["structuredContent"]["neighbors"],
        json!(["agents"])
    );
    assert_eq!(by_id[&8]["result"]["isError"], true);
    assert_eq!(
        by_id[&8]["result"]["structuredContent"]["code"],
        "invalid_id"
    );
}

#[test]
fn unrepresentable_numbers_and_garbage_get_answers_not_silence() {
    let input = [
        frames()[0].to_string(),
        frames()[1].to_string(),
        r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"network_add_edge","arguments":{"network_name":"x","source":"a","target":"b","weight":1e400}}}"#.to_string(),
        "this is not json".to_string(),
        json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "network_list", "arguments": {}}}).to_string(),
    ]
    .join("\n")
        + "\n";
    let (lines, status) = run(&[], &input);
    assert!(status.success());
    let frames: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let weight = frames
        .iter()
        .find(|f| f["id"] == 9)
        .expect("reply to the 1e400 call");
    assert_eq!(weight["result"]["isError"], true);
    assert_eq!(
        weight["result"]["structuredContent"]["code"],
        "invalid_arguments"
    );
    let garbage = frames
        .iter()
        .find(|f| f["id"].is_null())
        .expect("parse error reply");
    assert_eq!(garbage["error"]["code"], -32700);
    let list = frames
        .iter()
        .find(|f| f["id"] == 10)
        .expect("server still serves");
    assert_eq!(list["result"]["structuredContent"]["total"], 0);
}

/// The server started with `args`, once it has answered `initialize`; its
/// pipes are kept open with it (the server exits when stdin closes).
fn initialized_server(
    args: &[&str],
) -> (
    std::process::Child,
    (
        std::process::ChildStdin,
        BufReader<std::process::ChildStdout>,
    ),
) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{}", frames()[0]).unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.contains("\"id\":1"), "{first}");
    (child, (stdin, stdout))
}

#[test]
fn sigterm_exits_cleanly() {
    let (mut child, _pipes) = initialized_server(&[]);
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    for _ in 0..50 {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "exit status {status:?}");
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    panic!("server did not exit within 5 s of SIGTERM");
}

/// The server keeps the kernel from backing it with transparent huge pages
/// unless `--huge-pages` asks for them: the process's flag, as
/// `/proc/PID/status` shows it once the server answers.
#[test]
fn huge_pages_are_off_unless_asked_for() {
    for (flags, enabled) in [(&[][..], "0"), (&["--huge-pages"][..], "1")] {
        let (mut child, _pipes) = initialized_server(flags);
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
        let _ = child.kill();
        let _ = child.wait();
        let line = status
            .lines()
            .find(|l| l.starts_with("THP_enabled:"))
            .expect("the kernel shows THP_enabled (Linux 5.0 and later)");
        assert_eq!(
            line.split_whitespace().nth(1),
            Some(enabled),
            "{flags:?}: {line}"
        );
    }
}

#[test]
fn help_and_version() {
    let out = Command::new(BIN).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("--log-level") && help.contains("--toolsets") && help.contains("--read-only")
    );
    let out = Command::new(BIN).arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains(env!("CARGO_PKG_VERSION")));
}

#[tokio::test]
async fn official_rust_client_over_a_child_process() {
    use rmcp::ServiceExt;
    use rmcp::transport::TokioChildProcess;
    let mut command = tokio::process::Command::new(BIN);
    command.arg("--log-level").arg("debug");
    let transport = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
        .0;
    let client = ().serve(transport).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "network_get_neighbors"));
    client.cancel().await.unwrap();
}

#[test]
fn audit_log_gets_one_json_line_per_applied_write_whatever_the_log_level() {
    let path =
        std::env::temp_dir().join(format!("networks-mcp-audit-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let frames = frames();
    let audit = path.to_string_lossy().to_string();
    let (_, status) = converse(&["--log-level", "error", "--audit-log", &audit], &frames);
    assert!(status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    let events: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // create, add_node x2, add_edge were applied; the invalid add_node and the reads were not.
    let tools: Vec<&str> = events
        .iter()
        .map(|e| e["fields"]["tool"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        [
            "network_create",
            "network_add_node",
            "network_add_node",
            "network_add_edge"
        ]
    );
    assert!(
        events
            .iter()
            .all(|e| e["target"] == "audit" && e["fields"]["network"] == "module_deps")
    );
    assert!(
        events.iter().all(|e| e["fields"]["client"] == "e2e 1"),
        "{text}"
    );
    let _ = std::fs::remove_file(&path);
}

/// A failed call is logged as a bounded summary, and input that holds newlines or
/// escape sequences cannot forge a log line: the text log has one line per event.
#[test]
fn failed_calls_log_bounded_escaped_lines() {
    let log = std::env::temp_dir().join(format!("networks-mcp-e2e-log-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let big = "b".repeat(4 << 20);
    let forged = "a\nINFO networks_mcp: forged\r\u{1b}[2J";
    let input = [
        frames()[0].to_string(),
        frames()[1].to_string(),
        json!({"jsonrpc": "2.0", "id": 20, "method": "tools/call", "params": {"name": "network_add_node", "arguments": {"network_name": "missing", "node_id": "n", "data": big}}}).to_string(),
        // A CSV cell that the import's error message quotes.
        json!({"jsonrpc": "2.0", "id": 21, "method": "tools/call", "params": {"name": "network_import", "arguments": {"network_name": "c", "format": "edge_list_csv", "content": format!("source,target,weight\na,b,\"{forged}\"\n")}}}).to_string(),
    ]
    .join("\n")
        + "\n";
    let (lines, status) = run(&["--log-file", log.to_str().unwrap()], &input);
    assert!(status.success());
    assert_eq!(lines.len(), 3, "three replies");
    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    let failed: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("tool call failed"))
        .collect();
    assert_eq!(failed.len(), 2, "{text:.2000}");
    for line in &failed {
        assert!(line.len() < 4096, "a log line of {} bytes", line.len());
    }
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("INFO networks_mcp: forged")),
        "{text:.2000}"
    );
    assert!(
        !text.contains('\u{1b}'),
        "an escape sequence reached the log"
    );
    let import = failed
        .iter()
        .find(|l| l.contains("network_import"))
        .expect("import logged");
    assert!(
        import.contains("a\\nINFO") && import.contains("\\u{1b}"),
        "{import}"
    );
}

/// Stdin closed before any client spoke: the log says in plain words that no
/// client connected, nothing reaches stdout, and the exit is clean.
#[test]
fn stdin_closed_before_a_client_says_no_client_connected() {
    let output = Command::new(BIN)
        .stdin(Stdio::null())
        .output()
        .expect("run networks-mcp");
    assert!(output.status.success(), "{:?}", output.status);
    assert!(output.stdout.is_empty());
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(log.contains("no MCP client connected"), "{log}");
    assert!(!log.contains("ERROR"), "{log}");
}
