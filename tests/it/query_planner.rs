//! `network_query`'s planner and walks: a path is walked from the end the
//! planner estimates to be the most selective when no row order depends on it,
//! and over the compact rows once they are built; either way the rows are the
//! same. `EXPLAIN` and `PROFILE` say what was chosen and what each clause did.

use networks_mcp::network::{EdgeSpec, Network, NodeSpec};
use networks_mcp::query;
use serde_json::{Map, Value, json};

/// A seeded random multigraph: `n` nodes, labelled `big` (most) and `small`
/// (about one in 16), a `rare` flag on a few, `k` a number 0..4; edges of
/// types `T`, `U` or none, with self-loops and parallel edges.
fn random_network(n: usize, edges: usize, seed: u64) -> Network {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut net = Network::new();
    for i in 0..n {
        let r = next();
        let label = if r % 16 == 0 { "small" } else { "big" };
        let mut spec = NodeSpec::new(format!("n{i}"))
            .with_attribute("labels", label)
            .with_attribute("k", (r >> 8) % 4);
        if (r >> 16) % 23 == 0 {
            spec = spec.with_attribute("rare", true);
        }
        net.add_node_with(spec).unwrap();
    }
    for _ in 0..edges {
        let r = next();
        let a = (r % n as u64) as usize;
        // One edge in 16 a self-loop; parallel edges come from repeats.
        let b = if (r >> 20) % 16 == 0 {
            a
        } else {
            ((r >> 32) % n as u64) as usize
        };
        let mut spec = EdgeSpec::new(format!("n{a}"), format!("n{b}"));
        match (r >> 40) % 3 {
            0 => spec = spec.with_attribute("relation", "T"),
            1 => spec = spec.with_attribute("relation", "U"),
            _ => {}
        }
        net.add_edge_with(spec).unwrap();
    }
    net
}

fn run(net: &Network, text: &str) -> (Vec<String>, Vec<Vec<Value>>) {
    let answer = query::run(net, text, &Map::new()).unwrap_or_else(|e| panic!("{text}: {e}"));
    let rows = (0..answer.len()).map(|i| answer.row_json(net, i)).collect();
    (answer.columns.clone(), rows)
}

fn sorted(mut rows: Vec<Vec<Value>>) -> Vec<Vec<Value>> {
    rows.sort_by_key(|r| serde_json::to_string(r).unwrap());
    rows
}

/// `(a, b, count)` rows counted by the test from a MATCH's plain rows of
/// `(a, b)` pairs.
fn counted(pairs: Vec<Vec<Value>>) -> Vec<Vec<Value>> {
    let mut counts: std::collections::BTreeMap<String, (Value, Value, i64)> = Default::default();
    for row in pairs {
        let key = serde_json::to_string(&row).unwrap();
        counts
            .entry(key)
            .or_insert((row[0].clone(), row[1].clone(), 0))
            .2 += 1;
    }
    sorted(
        counts
            .into_values()
            .map(|(a, b, c)| vec![a, b, json!(c)])
            .collect(),
    )
}

/// Patterns whose selective end is the last node: aggregated, the planner walks
/// them from there; returning plain rows (whose order is seen), as written.
/// The groups must be exactly the pairs counted from the plain rows, on graphs
/// with self-loops and parallel edges, both before and after the compact rows
/// are built.
#[test]
fn either_end_gives_the_same_rows() {
    let patterns = [
        ("MATCH (a:big)-[:T]->(b) WHERE b.rare = true", false),
        ("MATCH (a)-[:T|U]-(b:small) WHERE a.k = 1", false),
        (
            "MATCH (a:big)<-[r]-(b) WHERE b.rare = true AND r.weight > 0",
            false,
        ),
        ("MATCH (a:big)-[:T*1..2]->(b) WHERE b.rare = true", false),
        ("MATCH (a)-[:U]->(m)-[:T]->(b:small)", false),
        ("MATCH (a:big)-[*0..1]-(b {rare: true})", false),
    ];
    for seed in 1..=4u64 {
        let net = random_network(600, 2400, seed);
        let mut built = net.clone();
        let _ = built.adjacency();
        let mut rows_were_built = false;
        for (pattern, _) in patterns {
            let plain = format!("{pattern} RETURN a.id AS a, b.id AS b");
            let grouped = format!("{pattern} RETURN a.id AS a, b.id AS b, count(*) AS n");
            let (_, pairs) = run(&net, &plain);
            let want = counted(pairs.clone());
            for network in [&net, &built] {
                assert_eq!(
                    sorted(run(network, &grouped).1),
                    want,
                    "seed {seed}: {grouped}"
                );
                // Plain rows come in the same order on lists and on rows.
                assert_eq!(run(network, &plain).1, pairs, "seed {seed}: {plain}");
            }
            let (_, plan) = run(&built, &format!("EXPLAIN {grouped}"));
            let text = plan[0][3].as_str().unwrap().to_string();
            rows_were_built |= text.contains("its last node");
        }
        assert!(
            rows_were_built,
            "seed {seed}: no pattern was walked from its last node"
        );
        // After writes the kept rows (and their edge columns) follow.
        built
            .add_edge_with(EdgeSpec::new("n1", "n2").with_attribute("relation", "T"))
            .unwrap();
        built.remove_node("n3").unwrap();
        let mut fresh = built.clone();
        fresh.drop_adjacency();
        for (pattern, _) in patterns {
            let plain = format!("{pattern} RETURN a.id AS a, b.id AS b");
            assert_eq!(
                run(&built, &plain),
                run(&fresh, &plain),
                "after writes: {plain}"
            );
        }
    }
}

/// The selective end is chosen from the labels, properties and WHERE
/// conditions of each end; EXPLAIN says which and why, and runs nothing.
#[test]
fn explain_names_the_start_and_the_estimates() {
    let net = random_network(2000, 6000, 9);
    let (columns, plan) = run(
        &net,
        "EXPLAIN MATCH (a:big)-[r:T]->(b) WHERE b.rare = true AND b.k < 2 RETURN b.k AS k, count(*) AS n ORDER BY k",
    );
    assert_eq!(
        columns,
        [
            "part",
            "step",
            "clause",
            "plan",
            "estimated_rows",
            "rows",
            "ms"
        ]
    );
    assert_eq!(plan.len(), 2, "{plan:?}");
    assert_eq!(plan[0][2], "MATCH");
    let text = plan[0][3].as_str().unwrap();
    assert!(text.contains("from (b) (its last node)"), "{text}");
    assert!(text.contains("then :T in"), "{text}");
    assert!(text.contains(" sampled)"), "{text}");
    let estimate = plan[0][4].as_i64().unwrap();
    let real = run(
        &net,
        "MATCH (b) WHERE b.rare = true AND b.k < 2 RETURN count(*)",
    )
    .1[0][0]
        .as_i64()
        .unwrap();
    assert!(
        estimate > 0 && estimate < 10 * (real + 10),
        "estimate {estimate}, real {real}"
    );
    assert_eq!(plan[0][5], Value::Null, "EXPLAIN runs nothing");
    assert_eq!(plan[1][2], "RETURN");
    assert!(plan[1][3].as_str().unwrap().contains("fed match by match"));

    // Anchored ends and seen orders are walked as the text says.
    let (_, plan) = run(&net, "EXPLAIN MATCH (a)-[:T]->(b {id: 'n5'}) RETURN a.id");
    assert!(
        plan[0][3]
            .as_str()
            .unwrap()
            .contains("only the last node is anchored")
    );
    let (_, plan) = run(
        &net,
        "explain MATCH (a:big)-[:T]->(b) WHERE b.rare = true RETURN a.id",
    );
    assert!(
        plan[0][3]
            .as_str()
            .unwrap()
            .contains("sees the match order")
    );
}

/// PROFILE runs the query and counts each clause's rows.
#[test]
fn profile_counts_what_each_clause_put_out() {
    let net = random_network(500, 1500, 3);
    let matches = run(&net, "MATCH (a)-[:T]->(b) RETURN count(*)").1[0][0]
        .as_i64()
        .unwrap();
    let groups = run(&net, "MATCH (a)-[:T]->(b) RETURN b.k AS k, count(*) AS n")
        .1
        .len() as i64;
    let (_, plan) = run(
        &net,
        "PROFILE MATCH (a)-[:T]->(b) RETURN b.k AS k, count(*) AS n",
    );
    assert_eq!(plan[0][5], json!(matches));
    assert_eq!(plan[1][5], json!(groups));
    assert!(plan[0][6].as_f64().unwrap() >= 0.0);
    // A UNION's branches are parts 0 and 1.
    let (_, plan) = run(
        &net,
        "PROFILE UNWIND [1, 2] AS x RETURN x UNION UNWIND [3] AS x RETURN x",
    );
    let parts: Vec<(i64, i64)> = plan
        .iter()
        .map(|r| (r[0].as_i64().unwrap(), r[5].as_i64().unwrap()))
        .collect();
    assert_eq!(parts, [(0, 2), (0, 2), (1, 1), (1, 1)]);
    // Only a leading keyword counts: a variable may be named `explain`.
    let (columns, _) = run(&net, "MATCH (explain) RETURN count(explain) AS profile");
    assert_eq!(columns, ["profile"]);
    let err = query::run(&net, "EXPLAIN CREATE (n)", &Map::new()).unwrap_err();
    assert!(err.to_string().contains("`CREATE` writes"), "{err}");
}

/// When only the number of the last relationship's matches matters (`count(*)`
/// or a count of its variables, nothing else reading them), the matches are
/// counted from each node's row instead of being made one by one. The counts
/// must be those of the plain rows: with self-loops, parallel edges, a
/// relationship matched at most once per MATCH, labels and a WHERE.
#[test]
fn counting_the_last_relationship_equals_matching_it() {
    for seed in 5..=7u64 {
        let net = random_network(400, 1600, seed);
        let built = net.clone();
        let _ = built.adjacency();
        for (pattern, counted_item) in [
            ("MATCH (a)-[:T]->(b)", "count(*)"),
            ("MATCH (a:small)<-[r]-(b)", "count(r)"),
            (
                "MATCH (a)-[:T]->(m)-[r:T]->(b:big) WHERE a.k = 2",
                "count(b)",
            ),
            ("MATCH (a)-[r1]-(m)-[r2]-(b)", "count(*)"),
            ("MATCH (a)-[:U]->(a)-[:U]->(b)", "count(b)"),
            ("MATCH (a {k: 1}), (c:small)-[:T|U]->(b)", "count(*)"),
        ] {
            let plain = format!("{pattern} RETURN a.id AS a");
            let grouped = format!("{pattern} RETURN a.id AS a, {counted_item} AS n");
            let mut want: std::collections::BTreeMap<String, i64> = Default::default();
            for row in run(&net, &plain).1 {
                *want
                    .entry(row[0].as_str().unwrap().to_string())
                    .or_default() += 1;
            }
            let want: Vec<Vec<Value>> = want
                .into_iter()
                .map(|(a, n)| vec![json!(a), json!(n)])
                .collect();
            for network in [&net, &built] {
                assert_eq!(
                    sorted(run(network, &grouped).1),
                    want,
                    "seed {seed}: {grouped}"
                );
            }
        }
        // An OPTIONAL MATCH that finds nothing counts 0, as `count` of null does.
        let (_, rows) = run(
            &built,
            "MATCH (a {id: 'n0'}) OPTIONAL MATCH (a)-[:none]->(b) RETURN a.id AS a, count(b) AS n",
        );
        assert_eq!(rows, [vec![json!("n0"), json!(0)]]);
    }
}

/// A property read of most nodes is read from a column of the network, kept
/// while its version stays the same: a write in between is seen at once.
#[test]
fn columns_read_for_scans_follow_writes() {
    use networks_mcp::network::AttributeUpdate;
    let mut net = random_network(3000, 3000, 11);
    let count = |net: &Network| {
        run(net, "MATCH (n:small) WHERE n.k = 1 RETURN count(*) AS n").1[0][0]
            .as_i64()
            .unwrap()
    };
    let before = count(&net);
    assert_eq!(before, count(&net), "a kept column gives the same answer");
    // Find a `small` node with k = 1 and change it.
    let (_, rows) = run(
        &net,
        "MATCH (n:small) WHERE n.k = 1 RETURN n.id AS id LIMIT 1",
    );
    let id = rows[0][0].as_str().unwrap().to_string();
    let mut k = Map::new();
    k.insert("k".into(), json!(2));
    assert!(
        net.update_node(&id, None, Some(k), AttributeUpdate::Merge, &[])
            .unwrap()
    );
    assert_eq!(count(&net), before - 1);
    let mut labels = Map::new();
    labels.insert("labels".into(), json!("big"));
    let (_, rows) = run(
        &net,
        "MATCH (n:small) WHERE n.k = 1 RETURN n.id AS id LIMIT 1",
    );
    let other = rows[0][0].as_str().unwrap().to_string();
    net.update_node(&other, None, Some(labels), AttributeUpdate::Merge, &[])
        .unwrap();
    assert_eq!(count(&net), before - 2);
}

/// A scan tests the WHERE's `v.key op value` conditions on each node before
/// walking, once per distinct stored value: the rows are those of the same
/// conditions written so that they are not tested early, nulls and type
/// mismatches included, and an error the WHERE raises is still raised.
#[test]
fn conditions_tested_before_the_walk_keep_the_same_rows() {
    let mut net = random_network(800, 2400, 13);
    // Mixed types under one key: numbers, strings, booleans, missing.
    for (i, v) in [json!("1"), json!(1.0), json!(true), json!(null)]
        .iter()
        .enumerate()
    {
        let mut k = Map::new();
        k.insert("k".into(), v.clone());
        net.update_node(
            &format!("n{i}"),
            None,
            Some(k),
            networks_mcp::network::AttributeUpdate::Merge,
            &[],
        )
        .unwrap();
    }
    for (early, late) in [
        ("n.k = 1", "1 = n.k"),
        ("n.k <> 2", "2 <> n.k"),
        ("n.k < $two", "$two > n.k"),
        ("n.k >= 1.5", "1.5 <= n.k"),
        ("n.k = '1'", "'1' = n.k"),
        ("n.rare = true AND n.k <= 2", "true = n.rare AND 2 >= n.k"),
    ] {
        for network in [&net, &{
            let built = net.clone();
            let _ = built.adjacency();
            built
        }] {
            let mut parameters = Map::new();
            parameters.insert("two".into(), json!(2));
            let rows = |q: String| {
                let answer =
                    query::run(network, &q, &parameters).unwrap_or_else(|e| panic!("{q}: {e}"));
                (0..answer.len())
                    .map(|i| answer.row_json(network, i))
                    .collect::<Vec<_>>()
            };
            let a = rows(format!(
                "MATCH (n)-[:T]->(m) WHERE {early} RETURN n.id, m.id"
            ));
            let b = rows(format!(
                "MATCH (n)-[:T]->(m) WHERE {late} RETURN n.id, m.id"
            ));
            assert_eq!(a, b, "{early} / {late}");
        }
    }
    // A comparison that fails to evaluate is an error, tested early or not.
    let err = query::run(
        &net,
        "MATCH (n) WHERE n.k = 1 AND n.k + 'x' - 1 > 0 RETURN n",
        &Map::new(),
    );
    assert!(err.is_err());
}

/// The shortcuts of aggregation and filtering give what the general paths
/// give: groups found by node (`RETURN p.id, count(q)`) against groups found
/// by an expression of the id (which goes by the values' bytes), also when a
/// null key moves the groups from one index to the other midway; a stored
/// attribute compared in place (`n.k = 2`) against the same comparison made
/// on a computed value; an ORDER BY of columns against the same order
/// computed, ties kept in order either way.
#[test]
fn shortcuts_answer_what_the_general_paths_answer() {
    let cases = [
        (
            "MATCH (p)<-[:T]-(q) RETURN p.id AS id, count(q) AS c",
            "MATCH (p)<-[:T]-(q) RETURN p.id + '' AS id, count(q) AS c",
        ),
        (
            "MATCH (p)<-[:T]-(q) RETURN p, p.id AS id, count(*) AS c, sum(q.k) AS s",
            "MATCH (p)<-[:T]-(q) RETURN p, p.id + '' AS id, count(*) AS c, sum(q.k) AS s",
        ),
        // Nodes without a T edge in between: null keys after node keys.
        (
            "MATCH (a:small) OPTIONAL MATCH (a)-[:T]->(p) RETURN p.id AS id, count(*) AS c",
            "MATCH (a:small) OPTIONAL MATCH (a)-[:T]->(p) RETURN p.id + '' AS id, count(*) AS c",
        ),
        (
            "MATCH (n) WHERE n.k = 2 AND n.k <> 3 RETURN n.id AS id",
            "MATCH (n) WHERE n.k + 0 = 2 AND n.k + 0 <> 3 RETURN n.id AS id",
        ),
        (
            "MATCH (n) WHERE n.k < 2 OR n.k >= 3 RETURN n.id AS id",
            "MATCH (n) WHERE n.k + 0 < 2 OR n.k + 0 >= 3 RETURN n.id AS id",
        ),
        // A string attribute against a number, and a missing one: never true.
        (
            "MATCH (n) WHERE n.labels = 1 OR n.rare = 'x' OR n.labels <= 'big' RETURN n.id AS id",
            "MATCH (n) WHERE n.labels + '' = 1 OR n.rare = ['x'][0] OR n.labels + '' <= 'big' RETURN n.id AS id",
        ),
    ];
    let ordered = [
        (
            "MATCH (p)<-[:T|U]-(q) RETURN p.id AS id, count(q) AS c ORDER BY c DESC, id LIMIT 25",
            "MATCH (p)<-[:T|U]-(q) RETURN p.id AS id, count(q) AS c ORDER BY -c, id + '' LIMIT 25",
        ),
        // Ties on the one key: kept in the rows' order.
        (
            "MATCH (n) RETURN n.id AS id, n.k AS k ORDER BY k SKIP 3 LIMIT 40",
            "MATCH (n) RETURN n.id AS id, n.k AS k ORDER BY k + 0 SKIP 3 LIMIT 40",
        ),
    ];
    for seed in 1..=3u64 {
        let net = random_network(500, 2000, seed);
        for (fast, general) in cases {
            let (_, want) = run(&net, general);
            assert!(!want.is_empty(), "seed {seed}: {general} found nothing");
            assert_eq!(
                sorted(run(&net, fast).1),
                sorted(want),
                "seed {seed}: {fast}"
            );
        }
        for (fast, general) in ordered {
            assert_eq!(
                run(&net, fast).1,
                run(&net, general).1,
                "seed {seed}: {fast}"
            );
        }
    }
}

/// `ORDER BY` a count then `LIMIT` (and `SKIP`) makes only the groups whose
/// count can be kept: the rows are those of the whole ordered answer, cut,
/// with ties at the cut, either direction, counts of `*`, of a variable and
/// of distinct values, grouped by node, by id and by a property.
#[test]
fn ordering_by_a_count_then_limiting_keeps_the_rows_of_the_whole_answer() {
    for seed in [1, 2, 3] {
        let net = random_network(300, 1200, seed);
        for (group, count) in [
            ("a.id AS g", "count(*)"),
            ("a.id AS g", "count(b)"),
            ("a AS g", "count(DISTINCT b)"),
            ("a.k AS g", "count(r)"),
        ] {
            for order in ["n DESC, g", "n, g", "n DESC, g DESC"] {
                let whole =
                    format!("MATCH (a)-[r:T]->(b) RETURN {group}, {count} AS n ORDER BY {order}");
                let (_, all) = run(&net, &whole);
                for (skip, limit) in [(0, 1), (0, 7), (3, 5), (0, 10_000), (2, 0)] {
                    let text = format!("{whole} SKIP {skip} LIMIT {limit}");
                    let (_, rows) = run(&net, &text);
                    let expected: Vec<Vec<Value>> =
                        all.iter().skip(skip).take(limit).cloned().collect();
                    assert_eq!(rows, expected, "{text}");
                }
            }
        }
    }
}
