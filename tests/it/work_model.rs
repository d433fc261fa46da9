//! Model-based test of the work tools: random interleavings of claims,
//! completions, releases, renewals, clock advances, reopened tasks and
//! conditional writes (`if_version`, current or stale), each run against the
//! server and against a reference model a few lines long. Every reply and the
//! whole state after every step must match the model.

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::clock::ManualClock;
use networks_mcp::mcp::{NetworksServer, ServerOptions};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::common::{dispatch as call, every_toolset};

const T0: u64 = 1_000_000;
const WORKERS: [&str; 3] = ["w1", "w2", "w3"];

#[derive(Debug, Clone)]
enum Op {
    Claim {
        worker: usize,
        count: usize,
        lease_s: u64,
    },
    Complete {
        worker: usize,
        tasks: Vec<usize>,
    },
    Release {
        worker: usize,
        tasks: Vec<usize>,
    },
    Renew {
        worker: usize,
        tasks: Vec<usize>,
        lease_s: u64,
    },
    /// Sets the task's status back to "todo" with network_update_node.
    Reopen {
        task: usize,
    },
    Advance {
        ms: u64,
    },
}

/// How a write is made conditional.
#[derive(Debug, Clone, Copy)]
enum Condition {
    None,
    Current,
    Stale,
}

#[derive(Debug, Clone)]
struct Task {
    done: bool,
    /// The worker named on it, and its lease's end (0 when it has no lease).
    holder: Option<(String, u64)>,
}

/// The reference model: tasks `0..n`, task `i` needs every task in `needs[i]`.
#[derive(Debug, Clone)]
struct Model {
    tasks: Vec<Task>,
    needs: Vec<Vec<usize>>,
    now: u64,
}

impl Model {
    fn held(&self, i: usize) -> bool {
        self.tasks[i]
            .holder
            .as_ref()
            .is_some_and(|(_, expires)| *expires > self.now)
    }

    fn prerequisites_done(&self, i: usize) -> bool {
        self.needs[i].iter().all(|&j| self.tasks[j].done)
    }

    fn ready(&self, i: usize) -> bool {
        !self.tasks[i].done && !self.held(i) && self.prerequisites_done(i)
    }

    fn claim(&mut self, worker: &str, count: usize, lease_s: u64) -> Vec<usize> {
        let chosen: Vec<usize> = (0..self.tasks.len())
            .filter(|&i| self.ready(i))
            .take(count)
            .collect();
        for &i in &chosen {
            self.tasks[i].holder = Some((worker.to_string(), self.now + lease_s * 1000));
        }
        chosen
    }

    /// The distinct tasks in order, or None if `worker` does not hold one of them.
    fn held_by(&self, worker: &str, tasks: &[usize], done_ok: bool) -> Option<Vec<usize>> {
        let mut distinct = Vec::new();
        for &i in tasks {
            if distinct.contains(&i) {
                continue;
            }
            let task = &self.tasks[i];
            let mine = task.holder.as_ref().is_some_and(|(w, _)| w == worker);
            if !(mine && (done_ok || !task.done)) {
                return None;
            }
            distinct.push(i);
        }
        Some(distinct)
    }

    /// (completed, already done, newly ready).
    fn complete(
        &mut self,
        worker: &str,
        tasks: &[usize],
    ) -> Option<(Vec<usize>, Vec<usize>, Vec<usize>)> {
        let tasks = self.held_by(worker, tasks, true)?;
        let (already, todo): (Vec<usize>, Vec<usize>) =
            tasks.into_iter().partition(|&i| self.tasks[i].done);
        for &i in &todo {
            self.tasks[i].done = true;
            if let Some((_, expires)) = &mut self.tasks[i].holder {
                *expires = 0;
            }
        }
        let newly_ready = (0..self.tasks.len())
            .filter(|&d| self.needs[d].iter().any(|j| todo.contains(j)))
            .filter(|&d| self.ready(d))
            .collect();
        Some((todo, already, newly_ready))
    }

    fn release(&mut self, worker: &str, tasks: &[usize]) -> Option<Vec<usize>> {
        let tasks = self.held_by(worker, tasks, false)?;
        for &i in &tasks {
            self.tasks[i].holder = None;
        }
        Some(tasks)
    }

    fn renew(&mut self, worker: &str, tasks: &[usize], lease_s: u64) -> Option<Vec<usize>> {
        let tasks = self.held_by(worker, tasks, false)?;
        for &i in &tasks {
            if let Some((_, expires)) = &mut self.tasks[i].holder {
                *expires = self.now + lease_s * 1000;
            }
        }
        Some(tasks)
    }

    /// (done, claimed, ready, blocked, expired).
    fn counts(&self) -> [usize; 5] {
        let mut c = [0; 5];
        for i in 0..self.tasks.len() {
            if self.tasks[i].done {
                c[0] += 1;
                continue;
            }
            if self.held(i) {
                c[1] += 1;
                continue;
            }
            if self.prerequisites_done(i) {
                c[2] += 1;
            } else {
                c[3] += 1;
            }
            if self.tasks[i].holder.is_some() {
                c[4] += 1;
            }
        }
        c
    }
}

fn id(i: usize) -> String {
    format!("t{i}")
}

fn ids(list: &[usize]) -> Value {
    json!(list.iter().map(|&i| id(i)).collect::<Vec<_>>())
}

fn task_list() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0usize..8, 1..4)
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0usize..3, 1usize..4, 1u64..30).prop_map(|(worker, count, lease_s)| Op::Claim { worker, count, lease_s }),
        4 => (0usize..3, task_list()).prop_map(|(worker, tasks)| Op::Complete { worker, tasks }),
        1 => (0usize..3, task_list()).prop_map(|(worker, tasks)| Op::Release { worker, tasks }),
        1 => (0usize..3, task_list(), 1u64..30).prop_map(|(worker, tasks, lease_s)| Op::Renew { worker, tasks, lease_s }),
        1 => (0usize..8).prop_map(|task| Op::Reopen { task }),
        2 => (0u64..20_000).prop_map(|ms| Op::Advance { ms }),
    ]
}

fn condition() -> impl Strategy<Value = Condition> {
    prop_oneof![6 => Just(Condition::None), 1 => Just(Condition::Current), 1 => Just(Condition::Stale)]
}

/// Tasks 0..n and, for each pair i > j, maybe "i needs j": always acyclic.
fn plan() -> impl Strategy<Value = (usize, Vec<Vec<usize>>)> {
    (4usize..=8).prop_flat_map(|n| {
        prop::collection::vec(prop::collection::vec(any::<bool>(), 8), n).prop_map(move |bits| {
            let needs = (0..n)
                .map(|i| (0..i).filter(|&j| bits[i][j]).collect())
                .collect();
            (n, needs)
        })
    })
}

fn version(server: &NetworksServer) -> u64 {
    call(server, "network_describe", json!({"network_name": "plan"})).unwrap()["version"]
        .as_u64()
        .unwrap()
}

fn names(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            v.as_str()
                .unwrap_or_else(|| v["node_id"].as_str().unwrap())
                .to_string()
        })
        .collect()
}

fn as_ids(list: &[usize]) -> Vec<String> {
    list.iter().map(|&i| id(i)).collect()
}

/// The server's state equals the model's: every task's attributes, and the counts.
fn same_state(server: &NetworksServer, model: &Model) -> Result<(), TestCaseError> {
    let nodes = call(
        server,
        "network_list_nodes",
        json!({"network_name": "plan", "limit": 50}),
    )
    .unwrap();
    for node in nodes["nodes"].as_array().unwrap() {
        let i: usize = node["node_id"].as_str().unwrap()[1..].parse().unwrap();
        let a = &node["attributes"];
        let task = &model.tasks[i];
        prop_assert_eq!(a["status"] == "done", task.done, "t{} {}", i, a);
        let holder = task.holder.as_ref();
        prop_assert_eq!(
            a["claimed_by"].as_str(),
            holder.map(|(w, _)| w.as_str()),
            "t{} {}",
            i,
            a
        );
        let lease = holder.map(|(_, e)| *e).filter(|&e| e > 0);
        prop_assert_eq!(a["lease_expires_ms"].as_u64(), lease, "t{} {}", i, a);
    }
    let p = call(
        server,
        "network_plan_progress",
        json!({"network_name": "plan"}),
    )
    .unwrap();
    let counts = [
        "done_count",
        "claimed_count",
        "ready_count",
        "blocked_count",
        "expired_count",
    ]
    .map(|k| p[k].as_u64().unwrap() as usize);
    prop_assert_eq!(counts, model.counts(), "{}", p);
    Ok(())
}

fn run(n: usize, needs: Vec<Vec<usize>>, ops: Vec<(Op, Condition)>) -> Result<(), TestCaseError> {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(
        Arc::new(NetworkRegistry::new()),
        ServerOptions {
            clock: Arc::clone(&clock) as _,
            ..every_toolset()
        },
    );
    call(&server, "network_create", json!({"network_name": "plan"})).unwrap();
    let nodes: Vec<Value> = (0..n)
        .map(|i| json!({"node_id": id(i), "attributes": {"status": "todo"}}))
        .collect();
    call(
        &server,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": nodes}),
    )
    .unwrap();
    let edges: Vec<Value> = needs
        .iter()
        .enumerate()
        .flat_map(|(i, js)| {
            js.iter()
                .map(move |&j| json!({"source": id(i), "target": id(j)}))
        })
        .collect();
    if !edges.is_empty() {
        call(
            &server,
            "network_add_edges",
            json!({"network_name": "plan", "edges": edges}),
        )
        .unwrap();
    }
    let mut model = Model {
        tasks: vec![
            Task {
                done: false,
                holder: None
            };
            n
        ],
        needs,
        now: T0,
    };
    for (step, (op, condition)) in ops.into_iter().enumerate() {
        // Task indices past the plan name unknown ids: refused, nothing changes.
        let unknown = |tasks: &[usize]| tasks.iter().any(|&i| i >= n);
        // What a refused complete, release or renew answers.
        let refusal = |tasks: &[usize]| match unknown(tasks) {
            true => "node_not_found",
            false => "claim_not_held",
        };
        let (tool, mut args) = match &op {
            Op::Claim {
                worker,
                count,
                lease_s,
            } => (
                "network_claim_ready",
                json!({"worker": WORKERS[*worker], "limit": count, "lease_seconds": lease_s}),
            ),
            Op::Complete { worker, tasks } => (
                "network_complete_claim",
                json!({"worker": WORKERS[*worker], "node_ids": ids(tasks)}),
            ),
            Op::Release { worker, tasks } => (
                "network_release_claim",
                json!({"worker": WORKERS[*worker], "node_ids": ids(tasks)}),
            ),
            Op::Renew {
                worker,
                tasks,
                lease_s,
            } => (
                "network_renew_claim",
                json!({"worker": WORKERS[*worker], "node_ids": ids(tasks), "lease_seconds": lease_s}),
            ),
            Op::Reopen { task } => (
                "network_update_node",
                json!({"node_id": id(*task), "attributes": {"status": "todo"}}),
            ),
            Op::Advance { ms } => {
                clock.advance(*ms);
                model.now += ms;
                same_state(&server, &model)?;
                continue;
            }
        };
        args["network_name"] = json!("plan");
        let current = version(&server);
        let stale = matches!(condition, Condition::Stale);
        match condition {
            Condition::None => {}
            Condition::Current => args["if_version"] = json!(current),
            Condition::Stale => args["if_version"] = json!(current + 1),
        }
        let result = call(&server, tool, args.clone());
        let context = format!("step {step}: {op:?} {condition:?} -> {result:?}");
        if stale {
            prop_assert_eq!(
                result.as_ref().map_err(|e| e["code"].clone()).err(),
                Some(json!("version_conflict")),
                "{}",
                context
            );
            prop_assert_eq!(version(&server), current, "{}", context);
            same_state(&server, &model)?;
            continue;
        }
        match &op {
            Op::Claim {
                worker,
                count,
                lease_s,
            } => {
                let expected = model.claim(WORKERS[*worker], *count, *lease_s);
                let reply = result.map_err(|e| TestCaseError::fail(format!("{context}: {e}")))?;
                prop_assert_eq!(names(&reply["claimed"]), as_ids(&expected), "{}", context);
                let finished = model.tasks.iter().all(|t| t.done);
                if expected.len() < *count {
                    prop_assert_eq!(reply["finished"].as_bool(), Some(finished), "{}", context);
                    let [done, claimed, _, blocked, _] = model.counts();
                    let waiting = &reply["waiting"];
                    prop_assert_eq!(
                        [
                            &waiting["done_count"],
                            &waiting["claimed_count"],
                            &waiting["blocked_count"]
                        ],
                        [&json!(done), &json!(claimed), &json!(blocked)],
                        "{}",
                        context
                    );
                } else {
                    prop_assert!(reply.get("waiting").is_none(), "{}", context);
                }
            }
            Op::Complete { worker, tasks } => {
                let expected = if unknown(tasks) {
                    None
                } else {
                    model.complete(WORKERS[*worker], tasks)
                };
                match (expected, result) {
                    (Some((done, already, newly)), Ok(reply)) => {
                        prop_assert_eq!(names(&reply["completed"]), as_ids(&done), "{}", context);
                        prop_assert_eq!(
                            names(&reply["already_done"]),
                            as_ids(&already),
                            "{}",
                            context
                        );
                        prop_assert_eq!(
                            names(&reply["newly_ready"]),
                            as_ids(&newly),
                            "{}",
                            context
                        );
                    }
                    (None, Err(e)) => {
                        prop_assert_eq!(&e["code"], refusal(tasks), "{}", context)
                    }
                    (expected, _) => prop_assert!(false, "{}: model says {:?}", context, expected),
                }
            }
            Op::Release { worker, tasks } | Op::Renew { worker, tasks, .. } => {
                let expected = if unknown(tasks) {
                    None
                } else if let Op::Renew { lease_s, .. } = &op {
                    model.renew(WORKERS[*worker], tasks, *lease_s)
                } else {
                    model.release(WORKERS[*worker], tasks)
                };
                let field = if matches!(op, Op::Release { .. }) {
                    "released"
                } else {
                    "renewed"
                };
                match (expected, result) {
                    (Some(list), Ok(reply)) => {
                        prop_assert_eq!(names(&reply[field]), as_ids(&list), "{}", context)
                    }
                    (None, Err(e)) => {
                        prop_assert_eq!(&e["code"], refusal(tasks), "{}", context)
                    }
                    (expected, _) => prop_assert!(false, "{}: model says {:?}", context, expected),
                }
            }
            Op::Reopen { task } => {
                if *task < n {
                    model.tasks[*task].done = false;
                    prop_assert!(result.is_ok(), "{}", context);
                } else {
                    prop_assert!(result.is_err(), "{}", context);
                }
            }
            Op::Advance { .. } => unreachable!(),
        }
        same_state(&server, &model)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn work_tools_match_the_reference_model(
        (n, needs) in plan(),
        ops in prop::collection::vec((op(), condition()), 1..60),
    ) {
        run(n, needs, ops)?;
    }
}
