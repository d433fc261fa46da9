//! The harnesses of the fuzz targets (`fuzz/`), shared with the corpus replay test
//! (`tests/it/fuzz_corpus.rs`) so that CI runs every committed input through exactly
//! what the fuzzer checks. Each takes arbitrary bytes and panics only on a bug.
//! Not part of the library's API.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::json;

use crate::NetworkRegistry;
use crate::budget::Budget;
use crate::limits::Limits;
use crate::mcp::{Call, NetworksServer, ServerOptions};
use crate::storage::{Storage, StorageConfig};

/// Runs `f` with this thread's server, built once (building the tool table is the
/// costly part), with small caps so that an expanding document cannot exhaust the
/// fuzzer's memory. Every harness leaves it empty again.
fn with_server<T>(f: impl FnOnce(&NetworksServer) -> T) -> T {
    thread_local! {
        static SERVER: NetworksServer = NetworksServer::new(
            Arc::new(NetworkRegistry::new()),
            ServerOptions {
                limits: Limits {
                    max_nodes: 20_000,
                    max_edges: 50_000,
                    max_import_edges: 50_000,
                    ..Limits::default()
                },
                // Every tool, the opt-in work toolset too, on a clock that stands
                // still so that an input replays the same.
                toolsets: crate::mcp::Toolset::ALL.into_iter().collect(),
                clock: Arc::new(crate::clock::ManualClock::new(1_800_000_000_000)),
                ..ServerOptions::default()
            },
        );
    }
    SERVER.with(|server| {
        let result = f(server);
        clear(server);
        result
    })
}

fn clear(server: &NetworksServer) {
    for name in server.registry().names() {
        let _ = server.registry().delete(&name);
    }
}

/// Imports `data` (as text) in `format` (`dot`, `graphml`, `edge_list_csv`,
/// `node_link_json`). Invariants: no panic and no `internal` error; a refused
/// document creates nothing; an accepted one exports, and the export imports
/// again without an `internal` error. Then merges the same document into a
/// small network: a refused merge leaves it exactly as it was, an accepted one
/// only adds.
pub fn import(format: &str, data: &[u8]) {
    with_server(|server| import_into(server, format, data));
    with_server(|server| merge_into(server, format, data));
}

fn call(
    server: &NetworksServer,
    tool: &str,
    arguments: serde_json::Value,
) -> crate::Result<serde_json::Value> {
    server
        .dispatch(Call::new(tool, arguments))
        .expect("the tool is listed")
}

/// The whole of network `m` as node-link JSON, to compare before and after.
fn snapshot(server: &NetworksServer) -> (String, u64, u64) {
    let exported = call(
        server,
        "network_export",
        json!({"network_name": "m", "format": "node_link_json", "limit": 10_000}),
    )
    .expect("the merge target exports");
    let summary = call(server, "network_list", json!({})).expect("networks list");
    let count = |key: &str| {
        summary["networks"]
            .as_array()
            .and_then(|all| all.iter().find(|n| n["name"] == "m"))
            .and_then(|n| n[key].as_u64())
            .expect("network m is listed with its counts")
    };
    (
        exported["content"].as_str().unwrap_or_default().to_string(),
        count("node_count"),
        count("edge_count"),
    )
}

fn merge_into(server: &NetworksServer, format: &str, data: &[u8]) {
    let content = String::from_utf8_lossy(data).into_owned();
    call(
        server,
        "network_import",
        json!({"network_name": "m", "format": "node_link_json", "content":
            r#"{"directed": true, "multigraph": true, "nodes": [{"id": "a", "w": 1}, {"id": "b"}], "edges": [{"source": "a", "target": "b"}]}"#}),
    )
    .expect("the merge target imports");
    let before = snapshot(server);
    let merged = call(
        server,
        "network_import",
        json!({"network_name": "m", "format": format, "content": content, "mode": "merge"}),
    );
    let after = snapshot(server);
    match merged {
        Err(error) => {
            assert_ne!(error.code(), "internal", "{error}");
            assert_eq!(before, after, "a refused merge changed the network");
        }
        Ok(reply) => {
            assert!(
                after.1 >= before.1 && after.2 >= before.2,
                "a merge removed nodes or edges"
            );
            assert_eq!(reply["node_count"].as_u64(), Some(after.1), "{reply}");
            assert_eq!(reply["edge_count"].as_u64(), Some(after.2), "{reply}");
        }
    }
}

fn import_into(server: &NetworksServer, format: &str, data: &[u8]) {
    let content = String::from_utf8_lossy(data).into_owned();
    let result = server
        .dispatch(Call::new(
            "network_import",
            json!({"network_name": "f", "format": format, "content": content}),
        ))
        .expect("network_import is listed");
    match result {
        Err(error) => {
            assert_ne!(error.code(), "internal", "{error}");
            assert!(
                server.registry().names().is_empty(),
                "a refused import created a network"
            );
        }
        Ok(_) => {
            // Formats that are only read (other tools' plans) go back out as
            // node-link JSON.
            let format = match crate::interchange::Format::parse(format) {
                Some(f) if f.can_export() => format,
                _ => "node_link_json",
            };
            let exported = server
                .dispatch(Call::new(
                    "network_export",
                    json!({"network_name": "f", "format": format, "limit": 10_000}),
                ))
                .expect("network_export is listed")
                .expect("an imported network exports");
            let again = server
                .dispatch(Call::new(
                    "network_import",
                    json!({"network_name": "f2", "format": format, "content": exported["content"]}),
                ))
                .expect("network_import is listed");
            if let Err(error) = again {
                assert_ne!(error.code(), "internal", "{error}");
            }
        }
    }
}

/// The network the query harness runs on: labels, relation types, a self-loop,
/// parallel edges, `data` and a missing attribute around `a`–`d`, and 24 more
/// nodes (`n0`…`n23`) with labels, properties and typed relationships, enough
/// that a query walks petgraph's lists for a while before the compact rows pay
/// off (see [`query`]). Built afresh for each input, so an input replays the same.
fn query_network() -> crate::Network {
    use crate::network::{EdgeSpec, NodeSpec};
    let mut net = crate::Network::new();
    let nodes = [
        NodeSpec::new("a")
            .with_attribute("labels", "task, urgent")
            .with_attribute("x", 1),
        NodeSpec::new("b")
            .with_attribute("labels", "task")
            .with_attribute("s", "foo"),
        NodeSpec::new("c")
            .with_attribute("x", 2.5)
            .with_data(json!({"k": [1, {"m": null}]})),
        NodeSpec::new("d"),
    ];
    for node in nodes {
        net.add_node_with(node).expect("a valid node");
    }
    const MORE: usize = 24;
    for i in 0..MORE {
        let mut node = NodeSpec::new(format!("n{i}")).with_attribute("x", i as i64);
        match i % 4 {
            0 => node = node.with_attribute("labels", "task"),
            1 => node = node.with_attribute("labels", "person"),
            2 => node = node.with_attribute("labels", "task, person"),
            _ => {}
        }
        if i % 3 == 0 {
            node = node.with_attribute("name", format!("n{}", i / 3));
        }
        net.add_node_with(node).expect("a valid node");
    }
    let mut edges: Vec<(String, String, &str)> = [
        ("a", "b", "T"),
        ("a", "b", "U"),
        ("b", "c", "T"),
        ("c", "a", ""),
        ("d", "d", "T"),
    ]
    .into_iter()
    .map(|(s, t, r)| (s.to_string(), t.to_string(), r))
    .collect();
    for i in 0..MORE {
        let relation = ["T", "U", "KNOWS", ""][i % 4];
        edges.push((
            format!("n{i}"),
            format!("n{}", (i * 7 + 3) % MORE),
            relation,
        ));
        edges.push((format!("n{i}"), format!("n{}", (i + 1) % MORE), "KNOWS"));
        if i % 5 == 0 {
            edges.push((
                format!("n{i}"),
                ["a", "b", "c", "d"][i % 4].to_string(),
                "T",
            ));
            edges.push((format!("n{i}"), format!("n{i}"), "U"));
        }
    }
    for (i, (s, t, relation)) in edges.into_iter().enumerate() {
        let mut edge = EdgeSpec::new(&s, &t).with_weight(2.0);
        if !relation.is_empty() {
            edge = edge.with_attribute("relation", relation);
        }
        if i % 3 == 1 {
            edge = edge.with_attribute("since", 2000 + i as i64);
        }
        net.add_edge_with(edge).expect("a valid edge");
    }
    net
}

/// One query's outcome: `Err` when the budget stopped it, else its columns and
/// rows as JSON, or its error message.
type QueryOutcome = Result<Result<(Vec<String>, Vec<Vec<serde_json::Value>>), String>, ()>;

/// Runs `data` (as text) as a `network_query` query, with `{"p": 1, "s": "a",
/// "l": [1, 2]}` as parameters, under a budget of 2 million steps, on two
/// copies of [`query_network`]: one fresh (the query walks petgraph's lists,
/// switching to the compact rows if its walks pay for them) and one whose rows
/// are built beforehand ([`crate::Network::adjacency`]). Invariants: no panic
/// (a budget stop is an answer); an answer converts to JSON row by row; an
/// error's message is bounded; the same query gives the same answer or the
/// same error again; and, unless the query read `rand()` or the clock, the
/// answer does not depend on whether the rows were built: the same columns
/// and the same rows (as a multiset; in the same order too when the query has
/// no ORDER BY), or the same error.
pub fn query(data: &[u8]) {
    let text = String::from_utf8_lossy(data).into_owned();
    let parameters = json!({"p": 1, "s": "a", "l": [1, 2]});
    let parameters = parameters.as_object().expect("an object");
    let run = |net: &crate::Network| -> (QueryOutcome, bool) {
        let budget = Budget::unlimited().with_max_steps(2_000_000);
        let outcome = budget
            .run(|| match crate::query::run(net, &text, parameters) {
                Ok(answer) => {
                    // PROFILE's `ms` column is a time, different at each run.
                    let profile = ["plan", "estimated_rows", "rows"]
                        .iter()
                        .all(|c| answer.columns.iter().any(|name| name == c));
                    let timed = answer
                        .columns
                        .iter()
                        .map(|name| profile && name == "ms")
                        .collect::<Vec<_>>();
                    let rows = (0..answer.len())
                        .map(|i| {
                            let mut row = answer.row_json(net, i);
                            for (value, timed) in row.iter_mut().zip(&timed) {
                                if *timed {
                                    *value = serde_json::Value::Null;
                                }
                            }
                            row
                        })
                        .collect::<Vec<_>>();
                    Ok((answer.columns.clone(), rows))
                }
                Err(error) => Err(error.to_string()),
            })
            .map_err(|_| ());
        (outcome, crate::query::read_nondeterministic())
    };
    let lists = query_network();
    let rows = query_network();
    let _ = rows.adjacency();
    let (first, varies) = run(&lists);
    if let Ok(Err(message)) = &first {
        assert!(
            message.len() < 64 * 1024,
            "an unbounded error: {} bytes",
            message.len()
        );
    }
    let (built, _) = run(&rows);
    if varies {
        return;
    }
    let Ok(built) = built else { return };
    assert_eq!(
        run(&rows).0.ok(),
        Some(built.clone()),
        "the same query answered differently"
    );
    // A query near the budget may stop on one and not the other: the lists
    // and the rows charge their steps differently.
    let Ok(first) = first else { return };
    match (first, built) {
        (Ok((columns, mut walked)), Ok((built_columns, mut read))) => {
            assert_eq!(
                columns, built_columns,
                "the columns changed with the rows built"
            );
            if !text.to_ascii_lowercase().contains("order") {
                assert_eq!(walked, read, "the rows changed with the rows built");
            }
            let key = |row: &Vec<serde_json::Value>| serde_json::to_string(row).unwrap_or_default();
            walked.sort_by_cached_key(key);
            read.sort_by_cached_key(key);
            assert_eq!(walked, read, "the rows changed with the rows built");
        }
        (Err(walked), Err(read)) => {
            assert_eq!(walked, read, "the error changed with the rows built")
        }
        (walked, read) => panic!(
            "the outcome changed with the rows built: {:?} / {:?}",
            walked.map(|(_, rows)| rows.len()),
            read.map(|(_, rows)| rows.len())
        ),
    }
}

/// Fuzzes argument decoding and every tool through the dispatch chokepoint: the
/// input is split into lines, each `<tool selector> <JSON arguments>` (or bytes
/// that are not JSON), against a small network. Invariants: no panic escapes (a
/// caught one is an `internal` error, which is a bug), every failure is an error
/// object with a known code, and a failed call changes nothing: no network's
/// node count, edge count or version moves. Half the calls run under a step
/// count the input chooses, so a call stopped at any step is checked too.
pub fn dispatch(data: &[u8]) {
    with_server(|server| {
        let tools: Vec<String> = server
            .listed_tools()
            .iter()
            .map(|t| t.name.to_string())
            .collect();
        // A little state so that calls have something to hit.
        let _ = server.dispatch(Call::new("network_create", json!({"network_name": "g"})));
        let _ = server.dispatch(Call::new(
            "network_add_edges",
            json!({"network_name": "g", "create_missing_nodes": true, "edges": [{"source": "a", "target": "b"}, {"source": "b", "target": "a", "weight": -1}]}),
        ));
        for line in data.split(|b| *b == b'\n').take(64) {
            // A line that starts like a resource URI is read as one.
            if line.starts_with(b"network://") {
                read_resource(server, &String::from_utf8_lossy(line));
                continue;
            }
            let (head, rest) = match line.iter().position(|b| *b == b' ') {
                Some(i) => (&line[..i], &line[i + 1..]),
                None => (line, &[][..]),
            };
            let selector = head.iter().fold(0usize, |a, b| {
                a.wrapping_mul(31).wrapping_add(usize::from(*b))
            });
            let tool = &tools[selector % tools.len()];
            let arguments = match serde_json::from_slice(rest) {
                Ok(value) => value,
                Err(_) => serde_json::Value::String(String::from_utf8_lossy(rest).into_owned()),
            };
            // Every other call runs under a step count the input chooses, so that
            // calls are stopped at every step they can be stopped at.
            let budget = (selector & 0x100 != 0)
                .then(|| Budget::unlimited().with_max_steps((selector >> 9) as u64 % 4_096));
            let mut call = Call::new(tool, arguments);
            if let Some(budget) = &budget {
                call = call.with_budget(budget);
            }
            let before = fingerprint(server);
            match server.dispatch(call) {
                None => panic!("listed tool {tool} not dispatched"),
                Some(Ok(_)) => {}
                Some(Err(error)) => {
                    assert_ne!(error.code(), "internal", "{tool}: {error}");
                    let object = error.to_object();
                    assert_eq!(object["status"], "error");
                    assert_eq!(
                        fingerprint(server),
                        before,
                        "{tool} failed but changed state"
                    );
                }
            }
        }
    })
}

/// Reads `uri` as `resources/read` would: never a panic, never a change; a URI
/// of ours is written back the same way it was read (views and export parts).
fn read_resource(server: &NetworksServer, uri: &str) {
    use crate::mcp::resources::{ResourceRef, parse_uri, view_uri};
    if let Some(ResourceRef::View(name, request)) = parse_uri(uri) {
        let again = view_uri(&name, &request);
        assert_eq!(
            parse_uri(&again),
            Some(ResourceRef::View(name, request)),
            "{uri} → {again}"
        );
    }
    let before = fingerprint(server);
    let _ = server.resource_read(uri);
    assert_eq!(fingerprint(server), before, "reading {uri} changed state");
}

/// What a failed call must not move: each network's size and version.
fn fingerprint(server: &NetworksServer) -> Vec<(String, usize, usize, u64)> {
    server
        .registry()
        .list()
        .into_iter()
        .map(|s| (s.name, s.nodes, s.edges, s.version))
        .collect()
}

/// Feeds `data` to the stdio transport (line cap 256 bytes, so the over-long
/// path is reached by small inputs) until the input ends. Invariants: no panic,
/// the end is reached, and no line yields more than one message.
pub fn stdio_frames(data: &[u8]) {
    use rmcp::RoleServer;
    use rmcp::transport::Transport;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let input = std::io::Cursor::new(data.to_vec());
        let (transport, writer) =
            crate::mcp::stdio::JsonLinesTransport::new(input, tokio::io::sink());
        let mut transport = transport.with_max_line_bytes(256);
        let lines = data.iter().filter(|b| **b == b'\n').count() + 1;
        let mut received = 0;
        while Transport::<RoleServer>::receive(&mut transport)
            .await
            .is_some()
        {
            received += 1;
            assert!(received <= lines, "more messages than lines");
        }
        drop(transport);
        writer.await.expect("writer task");
    });
}

/// Splits `data` into a journal and a snapshot (the first two bytes give the
/// journal's length), writes them into a fresh data directory, opens it
/// read-only and replays it. Invariants: it starts or refuses with an error, and
/// never panics or hangs.
pub fn recovery(data: &[u8]) {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let (journal, snapshot) = match data {
        [a, b, rest @ ..] => {
            rest.split_at((usize::from(*a) << 8 | usize::from(*b)).min(rest.len()))
        }
        _ => (data, &[][..]),
    };
    let dir = std::env::temp_dir().join(format!(
        "networks-mcp-fuzz-recovery-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("journal.bin"), journal).expect("journal");
    if !snapshot.is_empty() {
        std::fs::write(dir.join("snapshot.bin"), snapshot).expect("snapshot");
    }
    let opened = Storage::open(StorageConfig {
        dir: dir.clone(),
        snapshot_every: 1_000_000,
        read_only: true,
    });
    if let Ok((_storage, recovered)) = opened {
        with_server(|server| {
            let _ = server.recover(recovered);
        });
    }
    let _ = std::fs::remove_dir_all(&dir);
}
