//! Durable storage under faults, in process: a write that cannot reach the disk is
//! never visible, a malformed journal record is corruption (never skipped), and
//! whatever the server accepted comes back after a restart, from the journal and
//! from the snapshot.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::limits::MAX_VALUE_DEPTH;
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions};
use networks_mcp::storage::{Storage, StorageConfig, StorageError, journal};
use proptest::prelude::*;
use serde_json::{Value, json};

fn temp_dir(name: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "networks-mcp-faults-{name}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn open(dir: &Path, snapshot_every: u64) -> Result<(NetworksServer, Arc<Storage>), StorageError> {
    let (storage, recovered) = Storage::open(StorageConfig {
        dir: dir.to_path_buf(),
        snapshot_every,
        read_only: false,
    })?;
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), ServerOptions::default());
    server.recover(recovered).expect("replay");
    let storage = Arc::new(storage);
    Ok((server.with_storage(Arc::clone(&storage)), storage))
}

fn call(server: &NetworksServer, tool: &str, arguments: Value) -> Result<Value, String> {
    server
        .dispatch(Call::new(tool, arguments))
        .expect("known tool")
        .map_err(|e| e.code().to_string())
}

/// Every network, as plain data: what a restart must give back exactly.
fn state(server: &NetworksServer) -> Value {
    let registry = server.registry();
    let mut names = registry.names();
    names.sort();
    Value::Array(
        names
            .iter()
            .map(|name| {
                let data = registry.get(name).unwrap().read().to_data();
                json!([name, serde_json::to_value(&data).unwrap()])
            })
            .collect(),
    )
}

#[test]
fn a_write_that_fails_to_reach_the_disk_is_never_visible() {
    let dir = temp_dir("enospc");
    let (server, storage) = open(&dir, 1000).unwrap();
    call(&server, "network_create", json!({"network_name": "g"})).unwrap();
    call(
        &server,
        "network_add_node",
        json!({"network_name": "g", "node_id": "kept"}),
    )
    .unwrap();
    let durable = state(&server);

    storage.set_disk_full(true);
    let failed = call(
        &server,
        "network_add_node",
        json!({"network_name": "g", "node_id": "lost"}),
    );
    assert_eq!(failed.unwrap_err(), "storage_failed");
    let lookup = call(
        &server,
        "network_get_node",
        json!({"network_name": "g", "node_id": "lost"}),
    );
    assert_eq!(
        lookup.unwrap_err(),
        "node_not_found",
        "the failed write is visible"
    );
    assert_eq!(state(&server), durable);
    // While the disk stays full, storage refuses every later write rather than
    // acknowledge an unsaved one.
    let later = call(
        &server,
        "network_add_node",
        json!({"network_name": "g", "node_id": "later"}),
    );
    assert_eq!(later.unwrap_err(), "storage_failed");
    assert_eq!(state(&server), durable);

    drop((server, storage));
    let (server, _storage) = open(&dir, 1000).unwrap();
    assert_eq!(
        state(&server),
        durable,
        "a restart gives back exactly the durable writes"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn add_node(server: &NetworksServer, id: &str) -> Result<Value, String> {
    call(
        server,
        "network_add_node",
        json!({"network_name": "g", "node_id": id}),
    )
}

fn node_ids(server: &NetworksServer) -> Vec<String> {
    let registry = server.registry();
    let net = registry.get("g").unwrap();
    let net = net.read();
    net.graph()
        .node_indices()
        .map(|ix| net.id_at(ix).to_string())
        .collect()
}

#[test]
fn writes_resume_by_themselves_once_the_disk_takes_them_again() {
    let dir = temp_dir("resume");
    let (server, storage) = open(&dir, 1000).unwrap();
    call(&server, "network_create", json!({"network_name": "g"})).unwrap();
    add_node(&server, "kept").unwrap();
    storage.set_disk_full(true);
    assert_eq!(add_node(&server, "lost").unwrap_err(), "storage_failed");
    assert_eq!(add_node(&server, "refused").unwrap_err(), "storage_failed");
    // Space is free again: the next write resumes, with no restart and no
    // operator.
    storage.set_disk_full(false);
    add_node(&server, "after").unwrap();
    add_node(&server, "more").unwrap();
    assert_eq!(node_ids(&server), ["kept", "after", "more"]);
    let live = state(&server);
    drop((server, storage));
    let (server, _storage) = open(&dir, 1000).unwrap();
    assert_eq!(
        state(&server),
        live,
        "a restart gives back what was acknowledged"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failed_snapshot_removes_its_temp_file_and_the_journal_goes_on() {
    let dir = temp_dir("snapshot-enospc");
    let tmp = dir.join(networks_mcp::storage::SNAPSHOT_TMP_FILE);
    // A snapshot is due every 3 records.
    let (server, storage) = open(&dir, 3).unwrap();
    call(&server, "network_create", json!({"network_name": "g"})).unwrap();
    add_node(&server, "a").unwrap();
    storage.fail_next_snapshot();
    // The third record makes a snapshot due, which fails half-written; the
    // write itself was journaled and stands.
    add_node(&server, "b").unwrap();
    assert!(!tmp.exists(), "the failed snapshot left {}", tmp.display());
    add_node(&server, "c").unwrap();
    add_node(&server, "d").unwrap();
    assert_eq!(node_ids(&server), ["a", "b", "c", "d"]);
    let live = state(&server);
    drop((server, storage));
    let (server, _storage) = open(&dir, 3).unwrap();
    assert_eq!(state(&server), live);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn startup_removes_a_stale_snapshot_temp_file() {
    let dir = temp_dir("stale-tmp");
    let tmp = dir.join(networks_mcp::storage::SNAPSHOT_TMP_FILE);
    let (server, storage) = open(&dir, 1000).unwrap();
    call(&server, "network_create", json!({"network_name": "g"})).unwrap();
    add_node(&server, "a").unwrap();
    let live = state(&server);
    drop((server, storage));
    // What a snapshot cut short by a full disk (or a crash) leaves.
    std::fs::write(&tmp, vec![0u8; 1 << 20]).unwrap();
    let (server, _storage) = open(&dir, 1000).unwrap();
    assert!(!tmp.exists(), "the stale temp file is still there");
    assert_eq!(state(&server), live);
    add_node(&server, "b").unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failed_network_create_is_rolled_back_too() {
    let dir = temp_dir("enospc-create");
    let (server, storage) = open(&dir, 1000).unwrap();
    storage.fail_next_append();
    assert!(call(&server, "network_create", json!({"network_name": "g"})).is_err());
    assert!(server.registry().names().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

fn journal_of(records: &[Value]) -> Vec<u8> {
    records
        .iter()
        .flat_map(|r| journal::encode(r.to_string().as_bytes()))
        .collect()
}

/// A checksummed record that is not exactly `{seq, tool, arguments}` with seq one
/// above the last is corruption: it is reported with its offset, never skipped.
#[test]
fn malformed_records_are_corruption_never_skipped() {
    let create = json!({"seq": 1, "tool": "network_create", "arguments": {"network_name": "g"}});
    let cases = [
        (
            "no seq",
            json!({"tool": "network_create", "arguments": {"network_name": "h"}}),
        ),
        (
            "seq not a number",
            json!({"seq": "2", "tool": "network_create", "arguments": {}}),
        ),
        (
            "seq repeated",
            json!({"seq": 1, "tool": "network_create", "arguments": {"network_name": "h"}}),
        ),
        (
            "seq gap",
            json!({"seq": 3, "tool": "network_create", "arguments": {"network_name": "h"}}),
        ),
        (
            "unknown field",
            json!({"seq": 2, "tool": "network_create", "arguments": {}, "x": 1}),
        ),
        ("not an object", json!([2, "network_create"])),
    ];
    let first_len = journal_of(std::slice::from_ref(&create)).len() as u64;
    for (label, bad) in cases {
        let dir = temp_dir("malformed");
        std::fs::create_dir_all(&dir).unwrap();
        let bytes = journal_of(&[create.clone(), bad]);
        std::fs::write(dir.join("journal.bin"), &bytes).unwrap();
        match open(&dir, 1000) {
            Err(StorageError::Corrupt { offset, .. }) => assert_eq!(offset, first_len, "{label}"),
            Err(other) => panic!("{label}: {other}"),
            Ok(_) => panic!("{label}: opened a journal with a malformed record"),
        }
        assert_eq!(
            std::fs::read(dir.join("journal.bin")).unwrap(),
            bytes,
            "{label}: file changed"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

fn nested(levels: usize, leaf: Value) -> Value {
    (0..levels).fold(leaf, |inner, i| {
        if i % 2 == 0 {
            json!([inner])
        } else {
            json!({ "k": inner })
        }
    })
}

/// One accepted write of the property test below.
#[derive(Debug, Clone)]
enum Write {
    Node {
        id: String,
        depth: usize,
        text: String,
    },
    Edge {
        source: usize,
        target: usize,
        weight: f64,
        key: String,
    },
    Update {
        node: usize,
        depth: usize,
    },
    RemoveNode {
        node: usize,
    },
}

fn id_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,8}",
        "[\\p{L}\\p{N}]{1,6}",
        Just("e\u{301}".to_string()),
        Just("🦀 crab".to_string()),
        Just("x".repeat(256)),
    ]
}

fn write_strategy() -> impl Strategy<Value = Write> {
    let weight = prop_oneof![
        Just(1.7e308),
        Just(-1.7e308),
        Just(f64::MIN_POSITIVE / 4.0),
        Just(5e-324),
        Just(0.1),
        -1e6..1e6f64,
    ];
    prop_oneof![
        (id_strategy(), 0..=MAX_VALUE_DEPTH, "\\PC{0,12}")
            .prop_map(|(id, depth, text)| Write::Node { id, depth, text }),
        (0..16usize, 0..16usize, weight, "[a-zA-Z_\\p{L}]{1,12}").prop_map(
            |(source, target, weight, key)| Write::Edge {
                source,
                target,
                weight,
                key
            }
        ),
        (0..16usize, 0..=MAX_VALUE_DEPTH).prop_map(|(node, depth)| Write::Update { node, depth }),
        (0..16usize).prop_map(|node| Write::RemoveNode { node }),
    ]
}

fn apply(server: &NetworksServer, ids: &mut Vec<String>, write: &Write) {
    let pick = |ids: &[String], i: usize| ids.get(i % ids.len().max(1)).cloned();
    let result = match write {
        Write::Node { id, depth, text } => {
            let attributes = json!({"label": text, "big": "v".repeat(60_000), "n": 1.7e308});
            let result = call(
                server,
                "network_add_node",
                json!({"network_name": "g", "node_id": id, "data": nested(*depth, json!(text)), "attributes": attributes}),
            );
            if !ids.contains(id) {
                ids.push(id.clone());
            }
            result
        }
        Write::Edge {
            source,
            target,
            weight,
            key,
        } => {
            let (Some(source), Some(target)) = (pick(ids, *source), pick(ids, *target)) else {
                return;
            };
            call(
                server,
                "network_add_edge",
                json!({"network_name": "g", "source": source, "target": target, "weight": weight, "attributes": {key: weight}}),
            )
        }
        Write::Update { node, depth } => {
            let Some(id) = pick(ids, *node) else { return };
            call(
                server,
                "network_update_node",
                json!({"network_name": "g", "node_id": id, "data": nested(*depth, json!(null))}),
            )
        }
        Write::RemoveNode { node } => {
            let Some(id) = pick(ids, *node) else { return };
            ids.retain(|other| *other != id);
            call(
                server,
                "network_remove_node",
                json!({"network_name": "g", "node_id": id, "confirm": true}),
            )
        }
    };
    assert!(result.is_ok(), "{write:?} was refused: {result:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Anything the server acknowledges, it can read back: arbitrary accepted
    /// writes, with data nested to the limit, attributes near their byte limit and
    /// extreme weights, survive journal replay (a crash) and snapshot load (a clean
    /// shutdown), and come back exactly.
    #[test]
    fn every_accepted_write_survives_replay_and_snapshot(writes in prop::collection::vec(write_strategy(), 1..24)) {
        let dir = temp_dir("prop");
        let (server, storage) = open(&dir, 1_000_000).unwrap();
        call(&server, "network_create", json!({"network_name": "g", "description": "d"})).unwrap();
        let mut ids = Vec::new();
        for write in &writes {
            apply(&server, &mut ids, write);
        }
        let expected = state(&server);
        drop((server, storage));

        // (a) a crash: everything comes back from the journal.
        let (server, storage) = open(&dir, 1_000_000).unwrap();
        prop_assert_eq!(&state(&server), &expected);
        // (b) a clean shutdown: the snapshot alone holds it.
        server.shutdown();
        drop((server, storage));
        prop_assert_eq!(std::fs::metadata(dir.join("journal.bin")).unwrap().len(), 0);
        let (server, _storage) = open(&dir, 1_000_000).unwrap();
        prop_assert_eq!(&state(&server), &expected);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

// --- Lock order: a write never waits for a network while holding the journal --

/// Adds node `id` to `network` under a budget of `budget`, on a thread of its own.
fn add_node_on_thread(
    server: &Arc<NetworksServer>,
    network: &str,
    id: &str,
    budget: networks_mcp::budget::Budget,
) -> std::thread::JoinHandle<Result<Value, String>> {
    let (server, network, id) = (Arc::clone(server), network.to_string(), id.to_string());
    std::thread::spawn(move || {
        server
            .dispatch(
                Call::new(
                    "network_add_node",
                    json!({"network_name": network, "node_id": id}),
                )
                .with_budget(&budget),
            )
            .expect("known tool")
            .map_err(|e| e.code().to_string())
    })
}

fn generous() -> networks_mcp::budget::Budget {
    networks_mcp::budget::Budget::unlimited().with_timeout(std::time::Duration::from_secs(120))
}

#[test]
fn a_write_waiting_for_a_held_network_holds_up_no_other_network() {
    let dir = temp_dir("order");
    // A snapshot after every write: compaction reads every network too.
    let (server, storage) = open(&dir, 1).unwrap();
    let server = Arc::new(server);
    for name in ["a", "b"] {
        call(&server, "network_create", json!({"network_name": name})).unwrap();
    }
    // A long read of `a`, as a sampled betweenness would hold it.
    let a = server.registry().get("a").unwrap();
    let long_read = a.read();
    let waiting: Vec<_> = (0..4)
        .map(|i| add_node_on_thread(&server, "a", &format!("w{i}"), generous()))
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(200));
    // Writes to `b` answer while `a` is held and four writes wait for it. Before
    // the lock order, the first waiting write held the journal and these never
    // answered until `a` was free.
    let (sent, answered) = std::sync::mpsc::channel();
    let other = Arc::clone(&server);
    std::thread::spawn(move || {
        for i in 0..5 {
            let reply = add_node_on_thread(&other, "b", &format!("b{i}"), generous()).join();
            let _ = sent.send(reply.expect("a writer"));
        }
    });
    for _ in 0..5 {
        let reply = answered
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("a write to b answered while a was held");
        assert!(reply.is_ok(), "{reply:?}");
    }
    assert!(waiting.iter().all(|w| !w.is_finished()), "a is still held");
    drop(long_read);
    for writer in waiting {
        assert!(writer.join().unwrap().is_ok());
    }
    // Everything acknowledged is on disk, in an order that replays.
    let before = state(&server);
    drop((server, storage));
    let (reopened, _) = open(&dir, 1).unwrap();
    assert_eq!(state(&reopened), before);
    assert_eq!(reopened.registry().get("a").unwrap().read().node_count(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn calls_past_a_networks_cap_of_waiters_are_refused_busy_and_change_nothing() {
    let dir = temp_dir("waiters");
    let (server, _storage) = open(&dir, 1_000).unwrap();
    let server = Arc::new(server);
    call(&server, "network_create", json!({"network_name": "a"})).unwrap();
    let a = server.registry().get("a").unwrap();
    let long_read = a.read();
    let capped = || generous().with_max_waiters(2);
    let waiting: Vec<_> = (0..2)
        .map(|i| add_node_on_thread(&server, "a", &format!("w{i}"), capped()))
        .collect();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while a.waiting() < 2 {
        assert!(
            std::time::Instant::now() < until,
            "the writers never waited"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // The third finds two waiting: refused at once, naming what to do.
    let refused = server
        .dispatch(
            Call::new(
                "network_add_node",
                json!({"network_name": "a", "node_id": "late"}),
            )
            .with_budget(&capped()),
        )
        .expect("known tool")
        .unwrap_err();
    assert_eq!(refused.code(), "server_busy");
    let object = refused.to_object();
    assert!(object["retry_after_ms"].as_u64().unwrap() > 0, "{object}");
    assert_eq!(object["waiting"], 2, "{object}");
    drop(long_read);
    for writer in waiting {
        assert!(writer.join().unwrap().is_ok());
    }
    let ids = server.registry().get("a").unwrap().read().node_count();
    assert_eq!(ids, 2, "the refused write changed nothing");
    let _ = std::fs::remove_dir_all(&dir);
}
