//! Durable mode against the real binary: restarts, crashes (SIGKILL), the lock,
//! damaged files, and dry-run.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::stdio::{BIN, StdioServer as Server};

/// A server on `dir` in durable mode, handshake done.
fn start(dir: &Path, extra: &[&str]) -> Server {
    let mut args: Vec<&OsStr> = vec![OsStr::new("--data-dir"), dir.as_os_str()];
    args.extend(extra.iter().map(OsStr::new));
    Server::start(&args, Stdio::null())
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("networks-mcp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn node_ids(server: &mut Server, network: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut args = json!({"network_name": network, "limit": 1000});
        if let Some(c) = &cursor {
            args["cursor"] = json!(c);
        }
        let page = server.call("network_list_nodes", args).unwrap();
        ids.extend(
            page["nodes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n["node_id"].as_str().unwrap().to_string()),
        );
        match page.get("next_cursor").and_then(Value::as_str) {
            Some(c) => cursor = Some(c.to_string()),
            None => return ids,
        }
    }
}

fn described_version(s: &mut Server) -> Value {
    s.call("network_describe", json!({"network_name": "plan"}))
        .unwrap()["version"]
        .clone()
}

#[test]
fn state_survives_a_clean_restart_and_a_crash() {
    let dir = temp_dir("restart");
    let mut s = start(&dir, &["--snapshot-every", "3"]);
    s.call(
        "network_create",
        json!({"network_name": "plan", "description": "kept"}),
    )
    .unwrap();
    s.call("network_add_edges", json!({"network_name": "plan", "create_missing_nodes": true, "edges": [{"source": "a", "target": "b", "weight": 2.5, "attributes": {"k": "v"}}, {"source": "b", "target": "c"}]})).unwrap();
    s.call(
        "network_update_node",
        json!({"network_name": "plan", "node_id": "a", "data": {"x": [1, 2]}}),
    )
    .unwrap();
    s.call(
        "network_remove_edge",
        json!({"network_name": "plan", "edge_id": 1}),
    )
    .unwrap();
    let edge = s
        .call(
            "network_add_edge",
            json!({"network_name": "plan", "source": "c", "target": "a"}),
        )
        .unwrap();
    assert_eq!(edge["edge_id"], 2);
    assert!(s.stop().success());
    assert!(dir.join("snapshot.bin").exists());

    let mut s = start(&dir, &[]);
    let node = s
        .call(
            "network_get_node",
            json!({"network_name": "plan", "node_id": "a"}),
        )
        .unwrap();
    assert_eq!(node["data"], json!({"x": [1, 2]}));
    let edges = s
        .call("network_list_edges", json!({"network_name": "plan"}))
        .unwrap();
    let ids: Vec<u64> = edges["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["edge_id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [0, 2]);
    assert_eq!(edges["edges"][0]["attributes"], json!({"k": "v"}));
    // A crash after more writes: they come back from the journal.
    let next = s
        .call(
            "network_add_edge",
            json!({"network_name": "plan", "source": "a", "target": "c"}),
        )
        .unwrap();
    assert_eq!(next["edge_id"], 3, "edge ids continue, never reused");
    s.call(
        "network_add_node",
        json!({"network_name": "plan", "node_id": "d"}),
    )
    .unwrap();
    let at = described_version(&mut s);
    let marked = s
        .call(
            "network_update_nodes",
            json!({"network_name": "plan", "updates": [
                {"node_id": "b", "attributes": {"status": "done"}},
                {"node_id": "d", "attributes": {"status": "done"}}
            ], "if_version": at}),
        )
        .unwrap();
    s.kill();

    let mut s = start(&dir, &[]);
    assert_eq!(node_ids(&mut s, "plan"), ["a", "b", "c", "d"]);
    let done = s
        .call(
            "network_list_nodes",
            json!({"network_name": "plan", "attributes": {"status": "done"}}),
        )
        .unwrap();
    assert_eq!(
        done["total"], 2,
        "a batch update survives the crash: {done}"
    );
    assert_eq!(
        described_version(&mut s),
        marked["version"],
        "the version never falls: snapshot and journal bring it back"
    );
    let described = s
        .call("network_describe", json!({"network_name": "plan"}))
        .unwrap();
    assert_eq!(described["edge_count"], 3);
    assert_eq!(described["description"], "kept");
    s.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Kill -9 at random moments during writes, 50 times; every acknowledged write
/// must survive, and no unacknowledged write may appear half-applied.
#[test]
fn fifty_sigkills_lose_no_acknowledged_write() {
    let dir = temp_dir("crash");
    let mut acknowledged: Vec<String> = Vec::new();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut s = start(&dir, &["--snapshot-every", "40"]);
    s.call("network_create", json!({"network_name": "crash"}))
        .unwrap();
    s.stop();
    let mut counter = 0u64;
    for round in 0..50 {
        let mut s = start(&dir, &["--snapshot-every", "40"]);
        // Everything acknowledged so far is there, and every batch is whole.
        let ids = node_ids(&mut s, "crash");
        for id in &acknowledged {
            assert!(ids.contains(id), "round {round}: acknowledged {id} lost");
        }
        for id in &ids {
            if let Some(base) = id.strip_suffix("-a") {
                assert!(
                    ids.contains(&format!("{base}-b")),
                    "round {round}: half a batch {id}"
                );
            }
        }
        let pid = s.child.id();
        let delay = Duration::from_micros(next() % 30_000);
        let killer = std::thread::spawn(move || {
            std::thread::sleep(delay);
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        });
        let started = Instant::now();
        while started.elapsed() < Duration::from_millis(200) {
            counter += 1;
            let base = format!("w{counter}");
            let batch = json!({"network_name": "crash", "create_missing_nodes": true, "edges": [{"source": format!("{base}-a"), "target": format!("{base}-b")}]});
            match s.call("network_add_edges", batch) {
                Some(reply) if reply["status"] == "success" => {
                    acknowledged.push(format!("{base}-a"));
                    acknowledged.push(format!("{base}-b"));
                }
                _ => break,
            }
        }
        killer.join().unwrap();
        s.kill();
    }
    assert!(
        acknowledged.len() > 50,
        "the test made writes: {}",
        acknowledged.len()
    );
    let mut s = start(&dir, &[]);
    let ids = node_ids(&mut s, "crash");
    assert!(acknowledged.iter().all(|id| ids.contains(id)));
    eprintln!(
        "crash test: 50 kills, {} acknowledged node writes, all present",
        acknowledged.len()
    );
    s.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_process_on_the_same_directory_exits_at_once() {
    let dir = temp_dir("lock");
    let first = start(&dir, &[]);
    let started = Instant::now();
    let second = Command::new(BIN)
        .arg("--data-dir")
        .arg(&dir)
        .stdin(Stdio::piped())
        .output()
        .unwrap();
    assert!(!second.status.success());
    assert!(started.elapsed() < Duration::from_secs(5));
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(
        stderr.contains(&*dir.to_string_lossy()) && stderr.contains("another networks-mcp process"),
        "{stderr}"
    );
    first.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lock is held on the directory itself: removing or replacing a file in it
/// cannot let a second server in.
#[test]
fn deleting_files_in_the_directory_does_not_admit_a_second_server() {
    let dir = temp_dir("lock-deleted");
    let mut first = start(&dir, &[]);
    first
        .call("network_create", json!({"network_name": "g"}))
        .unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let _ = std::fs::remove_file(entry.unwrap().path());
    }
    let second = Command::new(BIN)
        .arg("--data-dir")
        .arg(&dir)
        .stdin(Stdio::piped())
        .output()
        .unwrap();
    assert!(!second.status.success(), "a second server started");
    assert!(String::from_utf8_lossy(&second.stderr).contains("another networks-mcp process"));
    first.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

fn add_nodes(server: &mut Server, network: &str, count: usize) {
    server
        .call("network_create", json!({"network_name": network}))
        .unwrap();
    for i in 0..count {
        let reply = server
            .call(
                "network_add_node",
                json!({"network_name": network, "node_id": format!("n{i}")}),
            )
            .unwrap();
        assert_eq!(reply["status"], "success", "{reply}");
    }
}

/// Caps apply to new writes: a restart with a lower `--max-nodes` keeps every
/// journaled node (a crash, then a clean shutdown that compacts), and only refuses
/// growth beyond the cap.
#[test]
fn a_restart_with_lower_caps_keeps_every_acknowledged_write() {
    let dir = temp_dir("lower-caps");
    let mut s = start(&dir, &[]);
    add_nodes(&mut s, "big", 150);
    s.kill();

    let mut s = start(&dir, &["--max-nodes", "100"]);
    assert_eq!(node_ids(&mut s, "big").len(), 150);
    let refused = s
        .call(
            "network_add_node",
            json!({"network_name": "big", "node_id": "more"}),
        )
        .unwrap();
    assert_eq!(refused["code"], "limit_exceeded", "{refused}");
    assert!(s.stop().success());

    let mut s = start(&dir, &["--max-nodes", "100"]);
    assert_eq!(
        node_ids(&mut s, "big").len(),
        150,
        "compaction kept everything"
    );
    s.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A journaled write that cannot be replayed stops the start, names the record,
/// and changes no file: the server never starts with less than it acknowledged.
#[test]
fn a_record_that_fails_on_replay_refuses_the_start_and_changes_nothing() {
    let dir = temp_dir("replay-fails");
    std::fs::create_dir_all(&dir).unwrap();
    let records: Vec<u8> = [
        json!({"seq": 1, "tool": "network_create", "arguments": {"network_name": "g"}}),
        json!({"seq": 2, "tool": "network_add_edge", "arguments": {"network_name": "missing", "source": "a", "target": "b"}}),
    ]
    .iter()
    .flat_map(|record| networks_mcp::storage::journal::encode(record.to_string().as_bytes()))
    .collect();
    std::fs::write(dir.join("journal.bin"), &records).unwrap();
    let (started, stderr) = damaged_start(&dir);
    assert!(!started, "started although record 1 cannot be replayed");
    assert!(
        stderr.contains("journal record 1") && stderr.contains("network_add_edge"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(dir.join("journal.bin")).unwrap(), records);
    assert!(!dir.join("snapshot.bin").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

fn file_state(dir: &Path) -> Vec<(String, Vec<u8>, std::time::SystemTime)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let meta = std::fs::metadata(&path).unwrap();
            (
                path.file_name().unwrap().to_string_lossy().to_string(),
                std::fs::read(&path).unwrap_or_default(),
                meta.modified().unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// `--read-only` reads the directory and rewrites nothing: no torn tail is cut, no
/// snapshot is written at shutdown.
#[test]
fn read_only_mode_changes_no_file() {
    let dir = temp_dir("read-only");
    let mut s = start(&dir, &[]);
    add_nodes(&mut s, "g", 3);
    s.kill();
    // A torn tail: half a record.
    let mut journal = std::fs::read(dir.join("journal.bin")).unwrap();
    journal.extend_from_slice(&networks_mcp::storage::journal::encode(b"{\"seq\": 99")[..20]);
    std::fs::write(dir.join("journal.bin"), &journal).unwrap();
    let before = file_state(&dir);
    std::thread::sleep(Duration::from_millis(20));

    let mut s = start(&dir, &["--read-only"]);
    assert_eq!(node_ids(&mut s, "g"), ["n0", "n1", "n2"]);
    assert!(s.stop().success());
    assert_eq!(file_state(&dir), before, "read-only mode changed a file");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Files are the owner's alone, and a symlink planted where a file goes is never
/// followed: the server refuses to start (or to compact) instead of writing
/// through it.
#[test]
fn files_are_private_and_symlinks_are_never_followed() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("perms");
    let mut s = start(&dir, &["--snapshot-every", "2"]);
    add_nodes(&mut s, "g", 3);
    assert!(s.stop().success());
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&dir.join("journal.bin")), 0o600);
    assert_eq!(mode(&dir.join("snapshot.bin")), 0o600);

    let victim = temp_dir("perms-victim");
    std::fs::write(&victim, b"precious").unwrap();
    for name in ["journal.bin", "snapshot.bin"] {
        let saved = std::fs::read(dir.join(name)).unwrap();
        std::fs::remove_file(dir.join(name)).unwrap();
        std::os::unix::fs::symlink(&victim, dir.join(name)).unwrap();
        let (started, stderr) = damaged_start(&dir);
        assert!(!started, "started through a symlinked {name}");
        assert!(stderr.contains(name), "{stderr}");
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        std::fs::remove_file(dir.join(name)).unwrap();
        std::fs::write(dir.join(name), saved).unwrap();
    }
    // A planted temp file link: compaction removes the link, never writes through it.
    std::os::unix::fs::symlink(&victim, dir.join("snapshot.bin.tmp")).unwrap();
    let mut s = start(&dir, &[]);
    assert_eq!(node_ids(&mut s, "g").len(), 3);
    assert!(s.stop().success());
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    let _ = std::fs::remove_file(&victim);
    let _ = std::fs::remove_dir_all(&dir);
}

fn damaged_start(dir: &Path) -> (bool, String) {
    let out = Command::new(BIN)
        .arg("--data-dir")
        .arg(dir)
        .stdin(Stdio::piped())
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn damaged_files_are_reported_and_never_overwritten() {
    let dir = temp_dir("corrupt");
    let mut s = start(&dir, &[]);
    s.call("network_create", json!({"network_name": "x"}))
        .unwrap();
    for i in 0..3 {
        s.call(
            "network_add_node",
            json!({"network_name": "x", "node_id": format!("n{i}")}),
        )
        .unwrap();
    }
    s.kill(); // no snapshot: the journal holds four records

    // A damaged length prefix in the middle of the journal is corruption.
    let journal = dir.join("journal.bin");
    let mut bytes = std::fs::read(&journal).unwrap();
    let second = 16 + u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
    bytes[second + 5] ^= 0x01;
    std::fs::write(&journal, &bytes).unwrap();
    let (ok, stderr) = damaged_start(&dir);
    assert!(!ok);
    assert!(
        stderr.contains("journal.bin") && stderr.contains(&format!("offset {second}")),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&journal).unwrap(), bytes, "left untouched");

    // A torn tail (a crash mid-write) is dropped and the server starts.
    bytes[second + 5] ^= 0x01;
    let whole = bytes.len();
    std::fs::write(&journal, &bytes[..whole - 3]).unwrap();
    let mut s = start(&dir, &[]);
    assert_eq!(node_ids(&mut s, "x"), ["n0", "n1"]);
    assert!(s.stop().success());

    // A corrupt snapshot refuses the start and is left as it was.
    let snapshot = dir.join("snapshot.bin");
    let mut snap = std::fs::read(&snapshot).unwrap();
    let last = snap.len() - 2;
    snap[last] ^= 0xFF;
    std::fs::write(&snapshot, &snap).unwrap();
    let (ok, stderr) = damaged_start(&dir);
    assert!(!ok);
    assert!(
        stderr.contains("snapshot.bin") && stderr.contains("offset"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&snapshot).unwrap(), snap);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dry_run_reports_and_changes_nothing() {
    let dir = temp_dir("dry");
    let mut s = start(&dir, &[]);
    s.call("network_create", json!({"network_name": "p"}))
        .unwrap();
    s.call(
        "network_add_node",
        json!({"network_name": "p", "node_id": "a"}),
    )
    .unwrap();
    assert!(s.stop().success());

    let mut s = start(&dir, &["--dry-run"]);
    let would = s.call("network_add_edges", json!({"network_name": "p", "create_missing_nodes": true, "edges": [{"source": "a", "target": "b"}]})).unwrap();
    assert_eq!(
        (
            would["dry_run"].as_bool(),
            would["created_count"].as_u64(),
            would["created_node_count"].as_u64()
        ),
        (Some(true), Some(1), Some(1))
    );
    let would = s
        .call(
            "network_delete",
            json!({"network_name": "p", "confirm": true}),
        )
        .unwrap();
    assert_eq!(
        (would["dry_run"].as_bool(), would["deleted"].as_bool()),
        (Some(true), Some(true))
    );
    let bad = s
        .call(
            "network_add_node",
            json!({"network_name": "p", "node_id": ""}),
        )
        .unwrap();
    assert_eq!(bad["code"], "invalid_id", "dry-run still validates");
    assert_eq!(node_ids(&mut s, "p"), ["a"]);
    assert_eq!(
        s.call("network_describe", json!({"network_name": "p"}))
            .unwrap()["edge_count"],
        0
    );
    s.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A crash between a compaction's rename and its journal truncation leaves records
/// the snapshot already holds; they must not be applied twice.
#[test]
fn records_already_in_the_snapshot_are_not_replayed_twice() {
    let dir = temp_dir("window");
    let mut s = start(&dir, &[]);
    s.call("network_create", json!({"network_name": "w"}))
        .unwrap();
    s.call("network_add_edges", json!({"network_name": "w", "create_missing_nodes": true, "edges": [{"source": "a", "target": "b"}]})).unwrap();
    s.kill();
    let old_journal = std::fs::read(dir.join("journal.bin")).unwrap();
    assert!(!old_journal.is_empty());
    let s = start(&dir, &[]);
    assert!(s.stop().success()); // snapshot written, journal emptied
    std::fs::write(dir.join("journal.bin"), &old_journal).unwrap();
    let mut s = start(&dir, &[]);
    let edges = s
        .call("network_list_edges", json!({"network_name": "w"}))
        .unwrap();
    assert_eq!(edges["total"], 1, "the edge was not added twice");
    let next = s
        .call(
            "network_add_edge",
            json!({"network_name": "w", "source": "b", "target": "a"}),
        )
        .unwrap();
    assert_eq!(next["edge_id"], 1);
    s.kill();
    let mut s = start(&dir, &[]);
    assert_eq!(
        s.call("network_list_edges", json!({"network_name": "w"}))
            .unwrap()["total"],
        2
    );
    s.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_copy_survives_a_crash_and_a_snapshot_with_its_edge_ids() {
    let dir = temp_dir("copy");
    let toolsets = ["--toolsets", "core,edit,analysis,interchange,algorithms"];
    let mut s = start(&dir, &toolsets);
    s.call("network_create", json!({"network_name": "plan"}))
        .unwrap();
    s.call("network_add_edges", json!({"network_name": "plan", "create_missing_nodes": true, "edges": [
        {"source": "a", "target": "b"}, {"source": "b", "target": "c"}, {"source": "a", "target": "c"}]}))
        .unwrap();
    let removed = s
        .call(
            "network_remove_edge",
            json!({"network_name": "plan", "edge_id": 0}),
        )
        .unwrap();
    assert_eq!(removed["removed_count"], 1, "{removed}");
    let copy = s
        .call(
            "network_copy",
            json!({"network_name": "plan", "into": "what_if", "method": "whole"}),
        )
        .unwrap();
    assert_eq!(copy["edge_count"], 2, "{copy}");
    let added = s
        .call(
            "network_add_edge",
            json!({"network_name": "what_if", "source": "c", "target": "a"}),
        )
        .unwrap();
    assert_eq!(
        added["edge_id"], 3,
        "a copy's ids continue after its source's"
    );
    let before = s
        .call("network_list_edges", json!({"network_name": "what_if"}))
        .unwrap();
    s.kill();
    // Replayed from the journal, then again from a snapshot.
    for extra in [&[][..], &["--snapshot-every", "1"][..]] {
        let args: Vec<&str> = toolsets.iter().chain(extra).copied().collect();
        let mut s = start(&dir, &args);
        let after = s
            .call("network_list_edges", json!({"network_name": "what_if"}))
            .unwrap();
        assert_eq!(after["edges"], before["edges"]);
        assert!(s.stop().success());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every change since version 0, page by page, with the reply's version and
/// oldest_version.
fn changes(s: &mut Server) -> (Vec<Value>, Value, Value) {
    let mut list = Vec::new();
    let mut args = json!({"network_name": "plan", "since_version": 0, "limit": 4});
    loop {
        let page = s.call("network_changes", args.clone()).unwrap();
        list.extend(page["changes"].as_array().unwrap().iter().cloned());
        match page.get("next_cursor") {
            Some(cursor) => args["cursor"] = cursor.clone(),
            None => {
                return (
                    list,
                    page["version"].clone(),
                    page["oldest_version"].clone(),
                );
            }
        }
    }
}

#[test]
fn the_window_of_recent_changes_survives_a_restart_and_a_crash() {
    let dir = temp_dir("changes");
    let work = ["--toolsets", "core,edit,analysis,interchange,work"];
    // A snapshot every 4 writes: each restart reads a snapshot and replays a
    // journal tail after it.
    let flags = [
        &work[..],
        &["--snapshot-every", "4", "--change-window", "12"],
    ]
    .concat();
    let mut s = start(&dir, &flags);
    s.call("network_create", json!({"network_name": "plan"}))
        .unwrap();
    s.call(
        "network_add_edges",
        json!({"network_name": "plan", "create_missing_nodes": true, "edges": [
        {"source": "ship", "target": "test"}, {"source": "test", "target": "build"}]}),
    )
    .unwrap();
    s.call(
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w1"}),
    )
    .unwrap();
    s.call(
        "network_complete_claim",
        json!({"network_name": "plan", "worker": "w1", "node_ids": ["build"]}),
    )
    .unwrap();
    s.call(
        "network_remove_node",
        json!({"network_name": "plan", "node_id": "ship", "confirm": true}),
    )
    .unwrap();
    let before = changes(&mut s);
    assert!(before.0.len() > 4, "{before:?}");
    assert!(s.stop().success());

    let mut s = start(&dir, &flags);
    assert_eq!(changes(&mut s), before, "after a clean restart");
    // More writes than the window holds, then a crash: replay regenerates the
    // records with their versions, and the window's start with them.
    for id in ["d1", "d2", "d3", "d4", "d5", "d6", "d7"] {
        s.call(
            "network_add_node",
            json!({"network_name": "plan", "node_id": id}),
        )
        .unwrap();
    }
    s.call(
        "network_update_node",
        json!({"network_name": "plan", "node_id": "d1", "attributes": {"status": "done"}}),
    )
    .unwrap();
    let crashed = changes(&mut s);
    assert_ne!(crashed.2, json!(0), "the window moved on: {crashed:?}");
    assert_eq!(crashed.0.len(), 12);
    s.kill();

    let mut s = start(&dir, &flags);
    assert_eq!(changes(&mut s), crashed, "after a crash");
    s.kill();
    let _ = std::fs::remove_dir_all(&dir);
}
