//! The work calls with exclusion groups and parents: after any sequence of
//! claims, completions (with and without parents), releases, leases running
//! out and writes by hand, what a claim takes and how progress counts equal a
//! computation from scratch, read off the node attributes alone.

use networks_mcp::network::work::{Parents, TaskState, WorkAttributes};
use networks_mcp::network::{AttributeUpdate, Network, NodeSpec, TaskOrder, TaskSelection};
use petgraph::stable_graph::NodeIndex;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::numbered::id;

/// One step of a random run.
#[derive(Debug, Clone)]
enum Step {
    /// Worker `w` claims up to `count` in order `order` (0 insertion,
    /// 1 impact, 2 priority) with a lease of `lease`.
    Claim {
        w: usize,
        count: usize,
        lease: u64,
        order: u8,
    },
    /// Worker `w` completes the tasks it names, picked by `mask`.
    Complete { w: usize, mask: u32, parents: bool },
    /// Worker `w` releases the tasks it names, picked by `mask`.
    Release { w: usize, mask: u32 },
    /// Time passes.
    Wait(u64),
    /// Another tool names worker `w` on node `node` with a lease to `until`
    /// (a write of another kind: the frontier is rebuilt).
    ByHand { node: usize, w: usize, until: u64 },
}

fn arb_step(n: usize) -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (0..3usize, 1..4usize, 1..20u64, 0..3u8)
            .prop_map(|(w, count, lease, order)| Step::Claim { w, count, lease, order }),
        3 => (0..3usize, any::<u32>(), any::<bool>())
            .prop_map(|(w, mask, parents)| Step::Complete { w, mask, parents }),
        1 => (0..3usize, any::<u32>()).prop_map(|(w, mask)| Step::Release { w, mask }),
        2 => (1..15u64).prop_map(Step::Wait),
        1 => (0..n, 0..3usize, 0..40u64).prop_map(|(node, w, until)| Step::ByHand { node, w, until }),
    ]
}

/// A plan: `(n, edges a needs b, group per node, parent per node, priority per node)`.
type Case = (
    usize,
    Vec<(usize, usize)>,
    Vec<Option<u8>>,
    Vec<Option<usize>>,
    Vec<Option<u8>>,
);

fn arb_case() -> impl Strategy<Value = (Case, Vec<Step>)> {
    (2..12usize).prop_flat_map(|n| {
        (
            (
                Just(n),
                prop::collection::vec((0..n, 0..n), 0..n * 2),
                prop::collection::vec(prop::option::weighted(0.6, 0..3u8), n),
                // n names no node: a parent id that is ignored.
                prop::collection::vec(prop::option::weighted(0.4, 0..=n), n),
                prop::collection::vec(prop::option::of(0..3u8), n),
            ),
            prop::collection::vec(arb_step(n), 1..40),
        )
    })
}

fn group_value(g: u8) -> Value {
    // Group 2 is a number: a string "2" would be another group.
    match g {
        0 => json!("db"),
        1 => json!("cache"),
        _ => json!(2),
    }
}

fn build(case: &Case) -> Network {
    let (n, edges, groups, parents, priorities) = case;
    let mut net = Network::new();
    net.add_nodes((0..*n).map(|i| {
        let mut spec = NodeSpec::new(id(i));
        if let Some(g) = groups[i] {
            spec = spec.with_attribute("exclusion_group", group_value(g));
        }
        if let Some(p) = parents[i] {
            let parent = if p == *n { "ghost".into() } else { id(p) };
            spec = spec.with_attribute("parent", parent);
        }
        if let Some(p) = priorities[i] {
            spec = spec.with_attribute("priority", p);
        }
        spec
    }))
    .unwrap();
    for &(a, b) in edges {
        net.add_edge(&id(a), &id(b), 1.0).unwrap();
    }
    net
}

/// The state of every node, from its attributes and its neighbours' alone.
fn states_from_scratch(net: &Network, n: usize, now: u64) -> Vec<TaskState> {
    let attr = |i: usize, key: &str| -> Option<Value> {
        net.graph()[NodeIndex::new(i)].attributes.get(key).cloned()
    };
    let done = |i: usize| attr(i, "status") == Some(json!("done"));
    let held = |i: usize| {
        !done(i)
            && attr(i, "claimed_by").is_some_and(|v| v.is_string())
            && attr(i, "lease_expires_ms")
                .and_then(|v| v.as_u64())
                .unwrap_or(0)
                > now
    };
    let group = |i: usize| attr(i, "exclusion_group").filter(|v| v.is_string() || v.is_number());
    (0..n)
        .map(|i| {
            let needs_done = net
                .graph()
                .neighbors_directed(NodeIndex::new(i), petgraph::Direction::Outgoing)
                .all(|w| done(w.index()));
            let children_done = (0..n)
                .filter(|&c| attr(c, "parent") == Some(json!(id(i))))
                .all(done);
            let excluded = group(i)
                .is_some_and(|g| (0..n).any(|o| o != i && held(o) && group(o) == Some(g.clone())));
            if done(i) {
                TaskState::Done
            } else if held(i) {
                TaskState::Claimed
            } else if !(needs_done && children_done) {
                TaskState::Blocked
            } else if excluded {
                TaskState::Excluded
            } else {
                TaskState::Ready
            }
        })
        .collect()
}

/// What a claim of `count` in `order` takes, from scratch: the ready tasks by
/// key, at most one of each group.
fn expected_claim(net: &Network, states: &[TaskState], count: usize, order: u8) -> Vec<usize> {
    let n = states.len();
    let attr = |i: usize, key: &str| -> Option<Value> {
        net.graph()[NodeIndex::new(i)].attributes.get(key).cloned()
    };
    let impact = |i: usize| {
        let mut dependents: Vec<usize> = net
            .graph()
            .neighbors_directed(NodeIndex::new(i), petgraph::Direction::Incoming)
            .map(|w| w.index())
            .chain(
                attr(i, "parent")
                    .and_then(|p| p.as_str().and_then(|p| net.index_of(p)))
                    .map(|p| p.index()),
            )
            .filter(|&w| w != i && states[w] != TaskState::Done)
            .collect();
        dependents.sort_unstable();
        dependents.dedup();
        dependents.len()
    };
    let mut ready: Vec<usize> = (0..n).filter(|&i| states[i] == TaskState::Ready).collect();
    match order {
        0 => {}
        1 => ready.sort_by_key(|&i| (std::cmp::Reverse(impact(i)), i)),
        _ => ready.sort_by_key(|&i| {
            let p = attr(i, "priority")
                .and_then(|v| v.as_u64())
                .unwrap_or(u64::MAX);
            (p, std::cmp::Reverse(impact(i)), i)
        }),
    }
    let mut groups: Vec<Value> = Vec::new();
    let mut taken = Vec::new();
    for i in ready {
        if taken.len() == count {
            break;
        }
        if let Some(g) = attr(i, "exclusion_group").filter(|v| v.is_string() || v.is_number()) {
            if groups.contains(&g) {
                continue;
            }
            groups.push(g);
        }
        taken.push(i);
    }
    taken
}

/// The tasks worker `w` names and has not done, picked by `mask`.
fn named_by(net: &Network, n: usize, w: usize, mask: u32) -> Vec<String> {
    (0..n)
        .filter(|&i| mask & (1 << (i % 32)) != 0)
        .filter(|&i| {
            let a = &net.graph()[NodeIndex::new(i)].attributes;
            a.get("claimed_by") == Some(&json!(format!("w{w}")))
                && a.get("status") != Some(&json!("done"))
        })
        .map(id)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn prop_claims_follow_groups_and_parents((case, steps) in arb_case()) {
        let n = case.0;
        let mut net = build(&case);
        let plan = WorkAttributes::default();
        let mut now = 1;
        for step in steps {
            match step {
                Step::Claim { w, count, lease, order } => {
                    let states = states_from_scratch(&net, n, now);
                    let expected = expected_claim(&net, &states, count, order);
                    let selection = TaskSelection {
                        order: match order {
                            0 => TaskOrder::Insertion,
                            1 => TaskOrder::Impact,
                            _ => TaskOrder::Priority("priority".into()),
                        },
                        ..TaskSelection::default()
                    };
                    let (claimed, waiting) = net
                        .claim_ready_selected(&plan, &selection, &format!("w{w}"), count, lease, now)
                        .unwrap();
                    let got: Vec<usize> = claimed.iter().map(|c| c.node.index()).collect();
                    prop_assert_eq!(&got, &expected, "claim at {}", now);
                    if let Some(waiting) = waiting {
                        let after = states_from_scratch(&net, n, now);
                        let excluded = after.iter().filter(|s| **s == TaskState::Excluded).count();
                        prop_assert_eq!(waiting.excluded, excluded);
                    }
                }
                Step::Complete { w, mask, parents } => {
                    let names = named_by(&net, n, w, mask);
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    if names.is_empty() {
                        continue;
                    }
                    let mode = if parents { Parents::Complete } else { Parents::Leave };
                    let before = states_from_scratch(&net, n, now);
                    let done = net
                        .complete_claimed_with(&plan, &format!("w{w}"), &names, now, mode)
                        .unwrap();
                    let after = states_from_scratch(&net, n, now);
                    // Newly ready: ready now, and not ready before.
                    let mut fresh: Vec<usize> = (0..n)
                        .filter(|&i| after[i] == TaskState::Ready && before[i] != TaskState::Ready)
                        .collect();
                    fresh.sort_unstable();
                    let got: Vec<usize> = done.newly_ready.iter().map(|ix| ix.index()).collect();
                    prop_assert_eq!(got, fresh);
                    if parents {
                        // No parent left with every child done but itself not done.
                        for p in 0..n {
                            let children: Vec<usize> = (0..n)
                                .filter(|&c| {
                                    net.graph()[NodeIndex::new(c)].attributes.get("parent")
                                        == Some(&json!(id(p)))
                                })
                                .collect();
                            let finished_one = children.iter().any(|c| {
                                done.completed.iter().chain(&done.parents_completed).any(|d| d.index() == *c)
                            });
                            if finished_one && children.iter().all(|&c| after[c] == TaskState::Done) {
                                prop_assert_eq!(after[p], TaskState::Done, "parent {}", p);
                            }
                        }
                    } else {
                        prop_assert!(done.parents_completed.is_empty());
                    }
                }
                Step::Release { w, mask } => {
                    let names = named_by(&net, n, w, mask);
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    if !names.is_empty() {
                        net.release_claimed(&plan, &format!("w{w}"), &names).unwrap();
                    }
                }
                Step::Wait(t) => now += t,
                Step::ByHand { node, w, until } => {
                    let mut set = Map::new();
                    set.insert("claimed_by".into(), json!(format!("w{w}")));
                    set.insert("lease_expires_ms".into(), json!(until));
                    net.update_node(&id(node), None, Some(set), AttributeUpdate::Merge, &[])
                        .unwrap();
                }
            }
            let states = states_from_scratch(&net, n, now);
            let progress = net.work_progress(&plan, now).unwrap();
            let count = |s: TaskState| states.iter().filter(|x| **x == s).count();
            prop_assert_eq!(progress.done, count(TaskState::Done));
            prop_assert_eq!(progress.claimed, count(TaskState::Claimed));
            prop_assert_eq!(progress.ready, count(TaskState::Ready));
            prop_assert_eq!(progress.excluded, count(TaskState::Excluded));
            prop_assert_eq!(progress.blocked, count(TaskState::Blocked));
        }
    }
}
