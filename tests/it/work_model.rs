//! Model-based test of the work tools: random interleavings of claims (in
//! each order, with and without a filter), completions (with and without
//! completing parents), releases, renewals, clock advances, reopened tasks and
//! conditional writes (`if_version`, current or stale), on plans with
//! priorities, roles, labels, exclusion groups and parents, each run against
//! the server and against a reference model. Every reply and the whole state
//! after every step must match the model.

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
        /// 0 insertion, 1 priority, 2 impact.
        order: u8,
        /// 0 none, 1 role "a", 2 label "db", 3 role "b" and label "ui".
        filter: u8,
    },
    Complete {
        worker: usize,
        tasks: Vec<usize>,
        parents: bool,
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

/// What a task is, beside its state: fixed for a run.
#[derive(Debug, Clone)]
struct Traits {
    priority: Option<u8>,
    /// 0: none, 1: "a", 2: "b".
    role: u8,
    /// Bit 0: "db", bit 1: "ui".
    labels: u8,
    /// Its exclusion group (0 or 1), if any.
    group: Option<u8>,
    /// Its parent, if any (a task of the plan, perhaps itself).
    parent: Option<usize>,
}

/// The reference model: tasks `0..n`, task `i` needs every task in `needs[i]`
/// and, as a parent, its children.
#[derive(Debug, Clone)]
struct Model {
    tasks: Vec<Task>,
    needs: Vec<Vec<usize>>,
    traits: Vec<Traits>,
    now: u64,
}

impl Model {
    fn held(&self, i: usize) -> bool {
        self.tasks[i]
            .holder
            .as_ref()
            .is_some_and(|(_, expires)| *expires > self.now)
    }

    fn children(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.tasks.len()).filter(move |&c| self.traits[c].parent == Some(p))
    }

    fn prerequisites_done(&self, i: usize) -> bool {
        self.needs[i].iter().all(|&j| self.tasks[j].done)
            && self.children(i).all(|c| self.tasks[c].done)
    }

    /// Whether another task of `i`'s group is held.
    fn excluded(&self, i: usize) -> bool {
        self.traits[i].group.is_some_and(|g| {
            (0..self.tasks.len()).any(|o| {
                o != i && self.traits[o].group == Some(g) && !self.tasks[o].done && self.held(o)
            })
        })
    }

    /// Not done, not held, prerequisites done: ready or excluded.
    fn candidate(&self, i: usize) -> bool {
        !self.tasks[i].done && !self.held(i) && self.prerequisites_done(i)
    }

    fn ready(&self, i: usize) -> bool {
        self.candidate(i) && !self.excluded(i)
    }

    /// Dependents not done: the tasks needing it, and its parent.
    fn impact(&self, i: usize) -> usize {
        let mut dependents: Vec<usize> = (0..self.tasks.len())
            .filter(|&d| self.needs[d].contains(&i))
            .chain(self.traits[i].parent)
            .filter(|&d| d != i && !self.tasks[d].done)
            .collect();
        dependents.sort_unstable();
        dependents.dedup();
        dependents.len()
    }

    fn admits(&self, i: usize, filter: u8) -> bool {
        let t = &self.traits[i];
        match filter {
            1 => t.role == 1,
            2 => t.labels & 1 != 0,
            3 => t.role == 2 && t.labels & 2 != 0,
            _ => true,
        }
    }

    fn claim(
        &mut self,
        worker: &str,
        count: usize,
        lease_s: u64,
        order: u8,
        filter: u8,
    ) -> Vec<usize> {
        let mut ready: Vec<usize> = (0..self.tasks.len()).filter(|&i| self.ready(i)).collect();
        let key = |i: usize| {
            let priority = match order {
                1 => self.traits[i].priority.map_or(u64::MAX, u64::from),
                _ => 0,
            };
            (priority, std::cmp::Reverse(self.impact(i)), i)
        };
        if order != 0 {
            ready.sort_by_key(|&i| key(i));
        }
        let mut groups = Vec::new();
        let mut chosen = Vec::new();
        for i in ready {
            if chosen.len() == count {
                break;
            }
            if !self.admits(i, filter) {
                continue;
            }
            if let Some(g) = self.traits[i].group {
                if groups.contains(&g) {
                    continue;
                }
                groups.push(g);
            }
            chosen.push(i);
        }
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

    /// (completed, already done, newly ready, parents completed).
    #[allow(clippy::type_complexity)]
    fn complete(
        &mut self,
        worker: &str,
        tasks: &[usize],
        parents: bool,
    ) -> Option<(Vec<usize>, Vec<usize>, Vec<usize>, Vec<usize>)> {
        let tasks = self.held_by(worker, tasks, true)?;
        let (already, todo): (Vec<usize>, Vec<usize>) =
            tasks.into_iter().partition(|&i| self.tasks[i].done);
        // A stack: a parent is completed right after its last child.
        let mut stack: Vec<(usize, bool)> = todo.iter().rev().map(|&i| (i, true)).collect();
        let (mut completed, mut cascaded, mut freed) = (Vec::new(), Vec::new(), Vec::new());
        while let Some((i, asked)) = stack.pop() {
            if self.tasks[i].done {
                continue;
            }
            if self.held(i) {
                freed.extend(self.traits[i].group);
            }
            self.tasks[i].done = true;
            if let Some((_, expires)) = &mut self.tasks[i].holder {
                *expires = 0;
            }
            if asked {
                completed.push(i);
            } else {
                cascaded.push(i);
            }
            if let Some(p) = self.traits[i].parent
                && parents
                && !self.tasks[p].done
                && self.children(p).all(|c| self.tasks[c].done)
            {
                stack.push((p, false));
            }
        }
        let finished: Vec<usize> = completed.iter().chain(&cascaded).copied().collect();
        let newly_ready = (0..self.tasks.len())
            .filter(|&d| {
                self.needs[d].iter().any(|j| finished.contains(j))
                    || finished.iter().any(|&f| self.traits[f].parent == Some(d))
                    || self.traits[d].group.is_some_and(|g| freed.contains(&g))
            })
            .filter(|&d| self.ready(d))
            .collect();
        Some((completed, already, newly_ready, cascaded))
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

    /// (done, claimed, ready, blocked, expired, excluded).
    fn counts(&self) -> [usize; 6] {
        let mut c = [0; 6];
        for i in 0..self.tasks.len() {
            if self.tasks[i].done {
                c[0] += 1;
                continue;
            }
            if self.held(i) {
                c[1] += 1;
                continue;
            }
            if self.prerequisites_done(i) && self.excluded(i) {
                c[5] += 1;
            } else if self.prerequisites_done(i) {
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
        4 => (0usize..3, 1usize..4, 1u64..30, 0u8..3, prop_oneof![2 => Just(0u8), 1 => 1u8..4])
            .prop_map(|(worker, count, lease_s, order, filter)| Op::Claim { worker, count, lease_s, order, filter }),
        4 => (0usize..3, task_list(), any::<bool>())
            .prop_map(|(worker, tasks, parents)| Op::Complete { worker, tasks, parents }),
        1 => (0usize..3, task_list()).prop_map(|(worker, tasks)| Op::Release { worker, tasks }),
        1 => (0usize..3, task_list(), 1u64..30).prop_map(|(worker, tasks, lease_s)| Op::Renew { worker, tasks, lease_s }),
        1 => (0usize..8).prop_map(|task| Op::Reopen { task }),
        2 => (0u64..20_000).prop_map(|ms| Op::Advance { ms }),
    ]
}

fn condition() -> impl Strategy<Value = Condition> {
    prop_oneof![6 => Just(Condition::None), 1 => Just(Condition::Current), 1 => Just(Condition::Stale)]
}

/// Tasks 0..n and, for each pair i > j, maybe "i needs j" (acyclic by
/// edges; parents may still loop), and each task's traits.
fn plan() -> impl Strategy<Value = (usize, Vec<Vec<usize>>, Vec<Traits>)> {
    (4usize..=8).prop_flat_map(|n| {
        let traits = (
            prop::option::of(0u8..3),
            0u8..3,
            0u8..4,
            prop::option::weighted(0.5, 0u8..2),
            prop::option::weighted(0.3, 0..n),
        )
            .prop_map(|(priority, role, labels, group, parent)| Traits {
                priority,
                role,
                labels,
                group,
                parent,
            });
        (
            prop::collection::vec(prop::collection::vec(any::<bool>(), 8), n),
            prop::collection::vec(traits, n),
        )
            .prop_map(move |(bits, traits)| {
                let needs = (0..n)
                    .map(|i| (0..i).filter(|&j| bits[i][j]).collect())
                    .collect();
                (n, needs, traits)
            })
    })
}

/// Task `i`'s attributes: its state and its traits.
fn attributes(i: usize, t: &Traits) -> Value {
    let mut a = json!({"status": "todo"});
    if let Some(p) = t.priority {
        a["priority"] = json!(p);
    }
    match t.role {
        1 => a["role"] = json!("a"),
        2 => a["role"] = json!("b"),
        _ => {}
    }
    let labels: Vec<&str> = [(1, "db"), (2, "ui")]
        .into_iter()
        .filter(|(bit, _)| t.labels & bit != 0)
        .map(|(_, l)| l)
        .collect();
    if !labels.is_empty() {
        a["labels"] = json!(labels.join(", "));
    }
    if let Some(g) = t.group {
        // One group by a string, one by a number.
        a["exclusion_group"] = if g == 0 { json!("db") } else { json!(1) };
    }
    if let Some(p) = t.parent {
        a["parent"] = json!(id(p));
    }
    let _ = i;
    a
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
        "excluded_count",
    ]
    .map(|k| p[k].as_u64().unwrap() as usize);
    prop_assert_eq!(counts, model.counts(), "{}", p);
    Ok(())
}

fn run(
    n: usize,
    needs: Vec<Vec<usize>>,
    traits: Vec<Traits>,
    ops: Vec<(Op, Condition)>,
) -> Result<(), TestCaseError> {
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
        .map(|i| json!({"node_id": id(i), "attributes": attributes(i, &traits[i])}))
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
        traits,
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
                order,
                filter,
            } => {
                let mut args =
                    json!({"worker": WORKERS[*worker], "limit": count, "lease_seconds": lease_s});
                match order {
                    1 => args["order"] = json!("priority"),
                    2 => args["order"] = json!("impact"),
                    _ => {}
                }
                match filter {
                    1 => args["match_attributes"] = json!({"role": "a"}),
                    2 => args["labels"] = json!(["db"]),
                    3 => {
                        args["match_attributes"] = json!({"role": "b"});
                        args["labels"] = json!(["ui"]);
                    }
                    _ => {}
                }
                ("network_claim_ready", args)
            }
            Op::Complete {
                worker,
                tasks,
                parents,
            } => (
                "network_complete_claim",
                json!({"worker": WORKERS[*worker], "node_ids": ids(tasks), "complete_parents": parents}),
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
                order,
                filter,
            } => {
                let expected = model.claim(WORKERS[*worker], *count, *lease_s, *order, *filter);
                let reply = result.map_err(|e| TestCaseError::fail(format!("{context}: {e}")))?;
                prop_assert_eq!(names(&reply["claimed"]), as_ids(&expected), "{}", context);
                let finished = model.tasks.iter().all(|t| t.done);
                if expected.len() < *count {
                    prop_assert_eq!(reply["finished"].as_bool(), Some(finished), "{}", context);
                    let [done, claimed, _, blocked, _, excluded] = model.counts();
                    let unmatched = (0..n)
                        .filter(|&i| model.ready(i) && !model.admits(i, *filter))
                        .count();
                    let waiting = &reply["waiting"];
                    let or_zero = |v: &Value| v.as_u64().unwrap_or(0) as usize;
                    prop_assert_eq!(
                        [
                            or_zero(&waiting["done_count"]),
                            or_zero(&waiting["claimed_count"]),
                            or_zero(&waiting["blocked_count"]),
                            or_zero(&waiting["excluded_count"]),
                            or_zero(&waiting["ready_count"]),
                        ],
                        [done, claimed, blocked, excluded, unmatched],
                        "{}",
                        context
                    );
                } else {
                    prop_assert!(reply.get("waiting").is_none(), "{}", context);
                }
            }
            Op::Complete {
                worker,
                tasks,
                parents,
            } => {
                let expected = if unknown(tasks) {
                    None
                } else {
                    model.complete(WORKERS[*worker], tasks, *parents)
                };
                match (expected, result) {
                    (Some((done, already, newly, cascaded)), Ok(reply)) => {
                        let listed = reply
                            .get("completed_parent_node_ids")
                            .map(names)
                            .unwrap_or_default();
                        prop_assert_eq!(listed, as_ids(&cascaded), "{}", context);
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
        (n, needs, traits) in plan(),
        ops in prop::collection::vec((op(), condition()), 1..60),
    ) {
        run(n, needs, traits, ops)?;
    }
}
