//! The compute pool and the budget, through a real MCP client: calls past their
//! deadline stop and say what to do instead, a full lane answers `server_busy`
//! while light calls go on, a cancelled call frees its thread, and a call stopped
//! at any step changes nothing.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use networks_mcp::budget::Budget;
use networks_mcp::mcp::compute::ComputeOptions;
use networks_mcp::mcp::{Call, ServerOptions};
use rmcp::model::{CallToolRequestParams, ClientRequest};
use rmcp::service::PeerRequestOptions;
use serde_json::{Value, json};

use crate::common::{self, Client, err, every_toolset, ok};

/// Every toolset, with one heavy thread, `queued` places in each queue and a
/// deadline of `seconds`.
fn pool_options(queued: usize, seconds: u64) -> ServerOptions {
    ServerOptions {
        compute: ComputeOptions {
            threads: 1,
            max_queued: queued,
            max_call: Duration::from_secs(seconds),
            max_task: Duration::from_secs(seconds),
            kernel_threads: 1,
        },
        ..every_toolset()
    }
}

/// `g`: a chain of `nodes` nodes with a chord from each node, imported in one call.
async fn chain(client: &Client, nodes: usize) {
    let mut csv = String::from("source,target\n");
    for i in 0..nodes - 1 {
        writeln!(csv, "n{i},n{}", i + 1).unwrap();
        writeln!(csv, "n{i},n{}", (i * 7 + 3) % nodes).unwrap();
    }
    ok(
        client,
        "network_import",
        json!({"network_name": "g", "format": "edge_list_csv", "content": csv}),
    )
    .await;
}

/// PageRank that cannot converge: it runs until its budget stops it.
fn endless_pagerank() -> Value {
    json!({"network_name": "g", "measure": "pagerank", "damping": 1.0,
           "tolerance": 1e-300, "max_iterations": 100_000})
}

/// Sends [`endless_pagerank`] as a request that can be cancelled.
async fn start_endless_pagerank(client: &Client) -> rmcp::service::RequestHandle<rmcp::RoleClient> {
    client
        .peer()
        .send_cancellable_request(
            ClientRequest::CallToolRequest(rmcp::model::Request::new(call_params(
                "network_centrality",
                endless_pagerank(),
            ))),
            PeerRequestOptions::no_options(),
        )
        .await
        .expect("sent")
}

fn call_params(tool: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(map) = arguments else {
        panic!("arguments are an object")
    };
    CallToolRequestParams::new(tool.to_string()).with_arguments(map)
}

#[tokio::test]
async fn a_call_past_its_deadline_stops_and_says_what_to_do_instead() {
    let (client, _) = common::connect(pool_options(8, 1)).await;
    chain(&client, 2_000).await;
    let started = Instant::now();
    let error = err(
        &client,
        "network_centrality",
        endless_pagerank(),
        "deadline_exceeded",
    )
    .await;
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(error["limit_seconds"], 1.0);
    let message = error["error"].as_str().unwrap();
    assert!(message.contains("network_centrality"), "{message}");
    assert!(message.contains("network_copy"), "{message}");
    // The server goes on serving.
    ok(&client, "network_describe", json!({"network_name": "g"})).await;
}

#[tokio::test]
async fn a_full_lane_answers_server_busy_and_light_calls_go_on() {
    let (client, _) = common::connect(pool_options(0, 4)).await;
    chain(&client, 2_000).await;
    let peer = client.peer().clone();
    let heavy = tokio::spawn(async move {
        peer.call_tool(call_params("network_centrality", endless_pagerank()))
            .await
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let busy = err(
        &client,
        "network_centrality",
        json!({"network_name": "g", "measure": "degree"}),
        "server_busy",
    )
    .await;
    assert!(busy["retry_after_ms"].as_u64().unwrap() > 0, "{busy}");
    let started = Instant::now();
    ok(
        &client,
        "network_get_neighbors",
        json!({"network_name": "g", "node_id": "n5"}),
    )
    .await;
    ok(&client, "network_list", json!({})).await;
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "light calls waited {:?} behind a heavy one",
        started.elapsed()
    );
    let heavy = heavy.await.unwrap().expect("a reply");
    let body = heavy.structured_content.expect("structured");
    assert_eq!(body["code"], "deadline_exceeded", "{body}");
}

#[tokio::test]
async fn a_cancelled_call_frees_its_thread() {
    let (client, _) = common::connect(pool_options(0, 60)).await;
    chain(&client, 2_000).await;
    let handle = start_endless_pagerank(&client).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    // The one heavy thread is taken, and no call may queue.
    err(
        &client,
        "network_centrality",
        json!({"network_name": "g", "measure": "degree"}),
        "server_busy",
    )
    .await;
    handle.cancel(Some("test".into())).await.expect("cancelled");
    // Without the cancellation the thread would be busy for 60 s.
    let started = Instant::now();
    loop {
        let outcome = common::call(
            &client,
            "network_centrality",
            json!({"network_name": "g", "measure": "degree"}),
        )
        .await;
        if !outcome.is_error {
            break;
        }
        assert_eq!(outcome.body["code"], "server_busy", "{}", outcome.body);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the cancelled call still holds its thread"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A light call on a free lane runs on the runtime thread that received it, where
/// no select sees its cancellation: the cancellation still reaches its budget. A
/// write waiting for a network that an endless PageRank holds is cancelled; had
/// it not seen the cancellation, it would be applied once the PageRank stops.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_light_call_stops_while_it_waits_for_its_network() {
    let (client, _) = common::connect(pool_options(4, 60)).await;
    chain(&client, 2_000).await;
    let send = |tool: &str, arguments: Value| {
        client.peer().send_cancellable_request(
            ClientRequest::CallToolRequest(rmcp::model::Request::new(call_params(tool, arguments))),
            PeerRequestOptions::no_options(),
        )
    };
    let pagerank = send("network_centrality", endless_pagerank())
        .await
        .expect("sent");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let write = send(
        "network_add_node",
        json!({"network_name": "g", "node_id": "late"}),
    )
    .await
    .expect("sent");
    tokio::time::sleep(Duration::from_millis(300)).await;
    write.cancel(Some("test".into())).await.expect("cancelled");
    // The write's wait looks at its budget every few milliseconds.
    tokio::time::sleep(Duration::from_millis(500)).await;
    pagerank
        .cancel(Some("test".into()))
        .await
        .expect("cancelled");
    // A write still waiting would take the network within milliseconds.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let outcome = common::call(
        &client,
        "network_get_node",
        json!({"network_name": "g", "node_id": "late"}),
    )
    .await;
    assert!(
        outcome.is_error && outcome.body["code"] == "node_not_found",
        "the cancelled write was applied: {}",
        outcome.body
    );
}

/// A write stopped at any step changes nothing: no network appears, grows or moves
/// its version. Through `dispatch` with step counts, so that every stopping point
/// of small calls is reached.
#[test]
fn a_write_stopped_at_any_step_changes_nothing() {
    let server = common::unlimited_server();
    common::dispatch(&server, "network_create", json!({"network_name": "g"})).unwrap();
    let edges: Vec<Value> = (0..300)
        .map(|i| json!({"source": format!("n{i}"), "target": format!("n{}", (i * 7 + 1) % 300)}))
        .collect();
    common::dispatch(
        &server,
        "network_add_edges",
        json!({"network_name": "g", "create_missing_nodes": true, "edges": edges}),
    )
    .unwrap();
    let mut csv = String::from("source,target\n");
    for i in 0..300 {
        writeln!(csv, "m{i},n{i}").unwrap();
    }
    let writes = [
        (
            "network_copy",
            json!({"network_name": "g", "into": "g2", "method": "whole"}),
        ),
        (
            "network_import",
            json!({"network_name": "g", "format": "edge_list_csv", "mode": "merge", "content": csv}),
        ),
    ];
    let snapshot = |server: &networks_mcp::mcp::NetworksServer| server.registry().list();
    for (tool, arguments) in writes {
        let mut stopped = 0;
        for steps in (0..2_000).step_by(37) {
            let before = snapshot(&server);
            let budget = Budget::unlimited().with_max_steps(steps);
            let outcome = server
                .dispatch(Call::new(tool, arguments.clone()).with_budget(&budget))
                .expect("a listed tool");
            match outcome {
                Err(error) => {
                    assert_eq!(error.code(), "limit_exceeded", "{tool}: {error}");
                    assert_eq!(
                        snapshot(&server),
                        before,
                        "{tool} stopped but changed state"
                    );
                    stopped += 1;
                }
                // It finished within the steps: undo it for the next round.
                Ok(_) => {
                    let _ = server.dispatch(Call::new(
                        "network_delete",
                        json!({"network_name": "g2", "confirm": true}),
                    ));
                    if tool == "network_import" {
                        break;
                    }
                }
            }
        }
        assert!(stopped > 3, "{tool} was stopped only {stopped} times");
    }
}

/// How many of this process's threads are named `name`.
fn threads_named(name: &str) -> usize {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    tasks
        .filter_map(Result::ok)
        .filter(|task| {
            std::fs::read_to_string(task.path().join("comm"))
                .is_ok_and(|comm| comm.trim_end() == name)
        })
        .count()
}

/// A light call on a free lane runs on the runtime thread that received it:
/// a thousand writes start no thread (handing the call to another thread, as
/// `block_in_place` does, starts one). One that must wait for a network held
/// elsewhere hands its thread over for the wait, so that on a runtime of one
/// worker the other tasks go on meanwhile.
#[test]
fn light_calls_run_in_place_and_hand_the_thread_over_only_to_wait() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("in-place-test")
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (client, registry) = common::connect(every_toolset()).await;
        ok(&client, "network_create", json!({"network_name": "g"})).await;
        let before = threads_named("in-place-test");
        for i in 0..1_000 {
            ok(
                &client,
                "network_add_node",
                json!({"network_name": "g", "node_id": format!("n{i}")}),
            )
            .await;
        }
        assert_eq!(
            threads_named("in-place-test"),
            before,
            "a light call on a free lane started a thread"
        );

        // Another thread holds `g` for 400 ms; a task that wakes every 10 ms
        // records its longest gap, which a worker stuck in the wait would make
        // as long as the hold.
        let network = registry.get("g").unwrap();
        let (held, is_held) = std::sync::mpsc::channel();
        let holder = std::thread::spawn(move || {
            let _guard = network.write();
            held.send(()).unwrap();
            std::thread::sleep(Duration::from_millis(400));
        });
        is_held.recv().unwrap();
        let longest_gap = std::sync::Arc::new(std::sync::Mutex::new(Duration::ZERO));
        let ticker = tokio::spawn({
            let longest_gap = std::sync::Arc::clone(&longest_gap);
            async move {
                let mut last = Instant::now();
                loop {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    let gap = last.elapsed();
                    last = Instant::now();
                    let mut longest = longest_gap.lock().unwrap();
                    *longest = (*longest).max(gap);
                }
            }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        let waited = Instant::now();
        ok(
            &client,
            "network_add_node",
            json!({"network_name": "g", "node_id": "after the wait"}),
        )
        .await;
        let waited = waited.elapsed();
        tokio::time::sleep(Duration::from_millis(20)).await;
        ticker.abort();
        holder.join().unwrap();
        let longest_gap = *longest_gap.lock().unwrap();
        assert!(
            waited >= Duration::from_millis(300),
            "the write did not wait for the held network: {waited:?}"
        );
        assert!(
            longest_gap < Duration::from_millis(250),
            "the runtime stood still while a light call waited: a 10 ms timer slept {longest_gap:?}"
        );
    });
}

/// With parallel kernels on (two heavy threads, `--kernel-threads 2`), an
/// analysis that borrows the free heavy thread every iteration still leaves
/// the server live: light calls answer at once, a second heavy call gets the
/// lent thread back within an iteration instead of waiting for the analysis
/// to end, and cancelling the analysis frees both threads. On a runtime of
/// many workers, where the analysis (a read nobody follows the progress of)
/// runs on the thread that received it, taken out of the workers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_kernels_leave_the_server_live() {
    let options = ServerOptions {
        compute: ComputeOptions {
            threads: 2,
            max_queued: 0,
            max_call: Duration::from_secs(60),
            max_task: Duration::from_secs(60),
            kernel_threads: 2,
        },
        ..every_toolset()
    };
    let (client, _) = common::connect(options).await;
    // Every weight 1: the PageRank pulls, in blocks of 4,096 nodes, on threads.
    chain(&client, 30_000).await;
    let handle = start_endless_pagerank(&client).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    for node in ["n5", "n29999", "n12345"] {
        ok(
            &client,
            "network_get_neighbors",
            json!({"network_name": "g", "node_id": node}),
        )
        .await;
    }
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "light calls waited {:?} behind a parallel analysis",
        started.elapsed()
    );
    // The second heavy thread is lent pass by pass, so a heavy call waits at
    // most one iteration for it, however long the analysis runs.
    for _ in 0..3 {
        let started = Instant::now();
        ok(
            &client,
            "network_centrality",
            json!({"network_name": "g", "measure": "in_degree", "limit": 3}),
        )
        .await;
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "a heavy call waited {:?} for a thread lent to an analysis",
            started.elapsed()
        );
    }
    handle.cancel(Some("test".into())).await.expect("cancelled");
    // Both heavy threads come back: two heavy calls at once, none refused.
    let started = Instant::now();
    loop {
        let degree = json!({"network_name": "g", "measure": "degree", "limit": 3});
        let (a, b) = tokio::join!(
            common::call(&client, "network_centrality", degree.clone()),
            common::call(&client, "network_centrality", degree),
        );
        if !a.is_error && !b.is_error {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the cancelled analysis still holds a thread: {} {}",
            a.body,
            b.body
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Times the release hook ran, in this test binary.
static RELEASES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn count_release() {
    RELEASES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
}

/// An import and a delete of a network larger than the hook's threshold end
/// by handing freed memory back through the hook the binary sets (other tests
/// of this binary may run it too, so only a rise is checked; the threshold
/// itself is tested in `mcp::release`).
#[tokio::test]
async fn imports_and_deletes_hand_freed_memory_back() {
    networks_mcp::mcp::release::set_release_hook(count_release, 1000);
    let (client, _) = common::connect(every_toolset()).await;
    let before = RELEASES.load(std::sync::atomic::Ordering::SeqCst);
    chain(&client, 200).await;
    let imported = RELEASES.load(std::sync::atomic::Ordering::SeqCst);
    assert!(imported > before, "an import released nothing");
    ok(
        &client,
        "network_delete",
        json!({"network_name": "g", "confirm": true}),
    )
    .await;
    assert!(
        RELEASES.load(std::sync::atomic::Ordering::SeqCst) > imported,
        "a delete released nothing"
    );
}
