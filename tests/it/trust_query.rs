//! `network_query` answers what a question asks or says why not: variable-length
//! patterns run without an upper bound (a path never repeats a relationship, and
//! the walk is bounded by the call's budget, which says so when it stops it), an
//! aggregation keeps only its groups, and a clause outside the subset is refused
//! by name, with its position and the clauses there are. Answers are checked
//! against brute-force enumerations of the same trails.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use networks_mcp::budget::Budget;
use networks_mcp::mcp::{Call, NetworksServer};
use serde_json::{Value, json};

use crate::common::{dispatch_err, dispatch_ok, unlimited_server, warnings};

/// A server holding network `g` with these directed edges (`n<i>` nodes).
fn graph(edges: &[(usize, usize)]) -> NetworksServer {
    let server = unlimited_server();
    dispatch_ok(&server, "network_create", json!({"network_name": "g"}));
    let edges: Vec<Value> = edges
        .iter()
        .map(|(a, b)| json!({"source": format!("n{a}"), "target": format!("n{b}")}))
        .collect();
    dispatch_ok(
        &server,
        "network_add_edges",
        json!({"network_name": "g", "edges": edges, "create_missing_nodes": true}),
    );
    server
}

/// The chain n0 -> n1 -> ... -> n(len-1).
fn chain(len: usize) -> Vec<(usize, usize)> {
    (1..len).map(|i| (i - 1, i)).collect()
}

/// The complete directed graph on `n` nodes.
fn complete(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|u| (0..n).filter(move |&v| v != u).map(move |v| (u, v)))
        .collect()
}

fn rows(server: &NetworksServer, query: &str) -> Value {
    dispatch_ok(
        server,
        "network_query",
        json!({"network_name": "g", "query": query, "limit": 1000}),
    )["rows"]
        .clone()
}

/// The lengths of every trail (no edge twice) of `min..=max` edges, from every
/// node, following edges forwards or, when `both`, either way: by brute force.
fn trail_lengths(
    nodes: usize,
    edges: &[(usize, usize)],
    both: bool,
    (min, max): (usize, usize),
) -> BTreeMap<usize, u64> {
    let mut counts = BTreeMap::new();
    // Explicit stack of (node, edges used, length).
    for start in 0..nodes {
        let mut stack = vec![(start, vec![false; edges.len()], 0usize)];
        while let Some((at, used, len)) = stack.pop() {
            if len >= min {
                *counts.entry(len).or_insert(0) += 1;
            }
            if len == max {
                continue;
            }
            for (e, &(a, b)) in edges.iter().enumerate() {
                if used[e] {
                    continue;
                }
                let mut next = Vec::new();
                if a == at {
                    next.push(b);
                }
                if both && b == at && a != b {
                    next.push(a);
                }
                for n in next {
                    let mut used = used.clone();
                    used[e] = true;
                    stack.push((n, used, len + 1));
                }
            }
        }
    }
    counts
}

#[test]
fn the_longest_chain_is_found_without_an_upper_bound() {
    let s = graph(&chain(20));
    assert_eq!(
        rows(&s, "MATCH p = (a)-[*]->(b) RETURN max(length(p))"),
        json!([[19]])
    );
    // The same with a bound below the truth answers what the bound allows.
    assert_eq!(
        rows(&s, "MATCH p = (a)-[*1..10]->(b) RETURN max(length(p))"),
        json!([[10]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH ({id: 'n0'})-[*2..]->(b) RETURN count(*), min(b.id)"
        ),
        json!([[18, "n10"]])
    );
    assert_eq!(
        rows(&s, "MATCH (a)-[*..3]->({id: 'n19'}) RETURN count(*)"),
        json!([[3]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH ({id: 'n5'})<-[r*]-(a) RETURN size(r) AS hops, a.id ORDER BY hops DESC LIMIT 1"
        ),
        json!([[5, "n0"]])
    );
    // Thousands of hops deep: walked with a stack of its own, not recursion.
    let s = graph(&chain(5_000));
    assert_eq!(
        rows(
            &s,
            "MATCH p = ({id: 'n0'})-[*]->(b) RETURN max(length(p)), count(*)"
        ),
        json!([[4_999, 4_999]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH ({id: 'n0'})-[r*]->({id: 'n4999'}) RETURN size(r)"
        ),
        json!([[4_999]])
    );
}

#[test]
fn a_path_never_repeats_a_relationship() {
    // A 3-cycle: every trail ends after at most 3 relationships.
    let cycle = [(0, 1), (1, 2), (2, 0)];
    let s = graph(&cycle);
    assert_eq!(
        rows(
            &s,
            "MATCH p = (a)-[*]->(b) RETURN length(p) AS l, count(*) ORDER BY l"
        ),
        json!([[1, 3], [2, 3], [3, 3]])
    );
    // Both ways: still finite; brute force says how many.
    let expected = trail_lengths(3, &cycle, true, (1, usize::MAX));
    let got = rows(
        &s,
        "MATCH p = (a)-[*]-(b) RETURN length(p) AS l, count(*) ORDER BY l",
    );
    let want: Vec<Value> = expected.iter().map(|(l, c)| json!([l, c])).collect();
    assert_eq!(got, json!(want));
    // The complete graph on 4 nodes (12 relationships) with a self-loop and a
    // parallel edge: 211,319 trails; and the 3-cycle with both, walked both ways.
    let mut dense = complete(4);
    dense.extend([(0, 0), (1, 2)]);
    let mut small = cycle.to_vec();
    small.extend([(0, 0), (1, 2)]);
    for (edges, nodes, query, both) in [
        (
            &dense,
            4,
            "MATCH p = (a)-[*]->(b) RETURN length(p) AS l, count(*) ORDER BY l",
            false,
        ),
        (
            &small,
            3,
            "MATCH p = (a)-[*0..]-(b) RETURN length(p) AS l, count(*) ORDER BY l",
            true,
        ),
    ] {
        let s = graph(edges);
        let min = if both { 0 } else { 1 };
        let expected = trail_lengths(nodes, edges, both, (min, usize::MAX));
        let want: Vec<Value> = expected.iter().map(|(l, c)| json!([l, c])).collect();
        assert_eq!(rows(&s, query), json!(want), "{query}");
    }
    let s = graph(&dense);
    // No relationship of a trail is the one matched before it in the MATCH.
    assert_eq!(
        rows(
            &s,
            "MATCH (a {id: 'n0'})-[r]->(b {id: 'n1'})-[rs*]->(c) RETURN count(*), sum(CASE WHEN r IN rs THEN 1 ELSE 0 END)"
        )[0][1],
        json!(0)
    );
}

/// A query on `g` under `budget`: its error object, and how long it took.
fn stopped(server: &NetworksServer, query: &str, budget: &Budget) -> (Value, Duration) {
    let started = Instant::now();
    let outcome = server
        .dispatch(
            Call::new(
                "network_query",
                json!({"network_name": "g", "query": query}),
            )
            .with_budget(budget),
        )
        .expect("a listed tool");
    let e = outcome.expect_err(query).to_object();
    (e, started.elapsed())
}

#[test]
fn an_unbounded_walk_past_the_budget_stops_and_says_how_to_narrow_it() {
    // The complete graph on 12 nodes: more trails than any budget walks.
    let s = graph(&complete(12));
    for query in [
        "MATCH p = (a)-[*]->(b) RETURN count(p)",
        "MATCH (a)-[*]-(b) RETURN count(*)",
        "MATCH (a)-[*]->(b) RETURN a.id, b.id",
        "MATCH ({id: 'n0'})-[r*2..]->(b) WHERE size(r) > 1000 RETURN count(*)",
    ] {
        let (e, took) = stopped(&s, query, &Budget::unlimited().with_max_steps(200_000));
        assert_eq!(e["code"], "limit_exceeded", "{query}: {e}");
        let message = e["error"].as_str().unwrap();
        assert!(
            message.contains("network_query")
                && message.contains("walked too many paths")
                && message.contains("upper bound"),
            "{message}"
        );
        assert!(took < Duration::from_secs(10), "{query}: {took:?}");
        let (e, took) = stopped(
            &s,
            query,
            &Budget::unlimited().with_timeout(Duration::from_secs(1)),
        );
        // Rows kept may reach a clause's bound first: an error too.
        let message = e["error"].as_str().unwrap();
        assert!(
            (e["code"] == "deadline_exceeded" && message.contains("walked too many paths"))
                || message.contains("more than 250000 rows"),
            "{query}: {e}"
        );
        assert!(took < Duration::from_secs(10), "{query}: {took:?}");
    }
    // A LIMIT that keeps the match order takes the first paths walked, and
    // the walk stops there, within the same small budget.
    for (query, want) in [
        (
            "MATCH p = (a)-[*]->(b) RETURN length(p) LIMIT 3",
            json!([[1], [2], [3]]),
        ),
        (
            "MATCH p = (a)-[*]->(b) RETURN length(p) SKIP 2 LIMIT 2",
            json!([[3], [4]]),
        ),
        (
            "MATCH p = (a)-[*]->(b) WITH p LIMIT 2 RETURN length(p)",
            json!([[1], [2]]),
        ),
    ] {
        let outcome = s
            .dispatch(
                Call::new(
                    "network_query",
                    json!({"network_name": "g", "query": query}),
                )
                .with_budget(&Budget::unlimited().with_max_steps(200_000)),
            )
            .expect("a listed tool");
        assert_eq!(outcome.expect(query)["rows"], want, "{query}");
    }
    // Rows past a clause's bound are an error, never a silent cut.
    let s = graph(&complete(6));
    let e = dispatch_err(
        &s,
        "network_query",
        json!({"network_name": "g", "query": "MATCH (a)-[*]->(b) RETURN a, b"}),
        "invalid_value",
    );
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("more than 250000 rows"),
        "{e}"
    );
}

#[test]
fn a_grouped_aggregate_keeps_its_groups_not_the_paths() {
    // The complete graph on 10 nodes, both ways: 55,080 trails of 1 to 3 hops.
    let edges = complete(10);
    let s = graph(&edges);
    let expected = trail_lengths(10, &edges, true, (1, 3));
    assert_eq!(expected.values().sum::<u64>(), 55_080);
    let want: Vec<Value> = expected.iter().map(|(l, c)| json!([l, c])).collect();
    assert_eq!(
        rows(
            &s,
            "MATCH p = (a)-[*1..3]-(b) RETURN length(p) AS l, count(*) ORDER BY l"
        ),
        json!(want)
    );
    // Each match builds a 1,001-item list for its key, dropped with the match:
    // about 55 million values pass through, a few are kept.
    let got = rows(
        &s,
        "MATCH p = (a)-[*1..3]-(b) RETURN size(range(0, 1000)) + length(p) AS k, count(*), sum(length(p)), min(length(p)), max(size(nodes(p))), avg(length(p)) ORDER BY k",
    );
    let want: Vec<Value> = expected
        .iter()
        .map(|(&l, &c)| {
            let l = l as i64;
            json!([1001 + l, c, l * c as i64, l, l + 1, l as f64])
        })
        .collect();
    assert_eq!(got, json!(want));
    // collect() keeps what it collects, and no more.
    assert_eq!(
        rows(
            &s,
            "MATCH (a {id: 'n0'})-[*1..3]-(b) RETURN a.id, size(collect(DISTINCT b.id)), count(DISTINCT b)"
        ),
        json!([["n0", 10, 10]])
    );
    // What is kept is still bounded: 55,080 lists of 201 numbers are too many.
    let e = dispatch_err(
        &s,
        "network_query",
        json!({"network_name": "g", "query": "MATCH p = (a)-[*1..3]-(b) RETURN length(p), collect(range(0, 200))"}),
        "invalid_value",
    );
    assert!(
        e["error"].as_str().unwrap().contains("builds more than"),
        "{e}"
    );
}

#[test]
fn clauses_outside_the_subset_are_refused_by_name_with_the_clauses_there_are() {
    let s = graph(&chain(3));
    let refused = |query: &str| {
        let e = dispatch_err(
            &s,
            "network_query",
            json!({"network_name": "g", "query": query}),
            "invalid_value",
        );
        assert_eq!(e["field"], "query", "{e}");
        e["error"].as_str().unwrap().to_string()
    };
    for (query, position, what) in [
        (
            "MATCH (n)\nCALL { WITH n MATCH (n)-->(m) RETURN m } RETURN m",
            "line 2, column 1",
            "`CALL { … }` (subqueries) is not supported",
        ),
        (
            "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line",
            "line 1, column 1",
            "`LOAD CSV` is not supported",
        ),
        (
            "USE other MATCH (n) RETURN n",
            "line 1, column 1",
            "`USE` is not supported",
        ),
        (
            "CALL db.labels() YIELD label RETURN label",
            "line 1, column 1",
            "`CALL` is not supported",
        ),
        (
            "MATCH (n) RETURN n.id UNION CALL { RETURN 'x' AS id }",
            "line 1, column 29",
            "`CALL { … }` (subqueries) is not supported",
        ),
    ] {
        let e = refused(query);
        assert!(
            e.contains(position)
                && e.contains(what)
                && e.contains("the query tool only reads")
                && e.contains("MATCH, OPTIONAL MATCH, WHERE, WITH, UNWIND, RETURN"),
            "{query}: {e}"
        );
    }
    for (query, position, clause) in [
        (
            "MATCH (n) FOREACH (x IN [1] | SET n.a = x) RETURN n",
            "line 1, column 11",
            "FOREACH",
        ),
        ("CREATE (n {id: 'z'})", "line 1, column 1", "CREATE"),
        ("MERGE (n {id: 'z'}) RETURN n", "line 1, column 1", "MERGE"),
        ("MATCH (n) SET n.x = 1", "line 1, column 11", "SET"),
        ("MATCH (n) DETACH DELETE n", "line 1, column 11", "DELETE"),
        ("MATCH (n) REMOVE n.x", "line 1, column 11", "REMOVE"),
        (
            "CREATE INDEX FOR (n:A) ON (n.x)",
            "line 1, column 1",
            "CREATE INDEX",
        ),
    ] {
        let e = refused(query);
        assert!(
            e.contains(position)
                && e.contains(&format!("`{clause}` writes"))
                && e.contains("the query tool only reads")
                && e.contains("MATCH, OPTIONAL MATCH, WHERE, WITH, UNWIND, RETURN"),
            "{query}: {e}"
        );
    }
    // The same words in strings, comments, names and property keys are data.
    for query in [
        "RETURN 'CALL { LOAD CSV FOREACH (' AS x",
        "MATCH (n) // FOREACH (x IN [1] | CREATE ())\nRETURN count(n) AS x",
        "MATCH (n) /* CALL { } */ RETURN count(n) AS x",
        "WITH {call: 1, foreach: 2} AS m RETURN m.call AS x",
    ] {
        dispatch_ok(
            &s,
            "network_query",
            json!({"network_name": "g", "query": query}),
        );
    }
    // A syntax error elsewhere stays one, whatever words it holds as keys.
    for query in [
        "MATCH (n RETURN n.load",
        "WITH {set: 1, create: 2} AS m RETURN m.set +",
    ] {
        let e = refused(query);
        assert!(
            !e.contains("not supported") && !e.contains("writes") && e.contains("line 1, column"),
            "{query}: {e}"
        );
    }
}

#[test]
fn a_row_cut_to_fit_a_reply_is_said_to_be_cut() {
    let s = graph(&chain(3));
    let reply = dispatch_ok(
        &s,
        "network_query",
        json!({"network_name": "g", "query": "RETURN range(1, 100000) AS l, 1 AS one"}),
    );
    assert_eq!(reply["total"], 1);
    assert!(reply["rows"][0][0].as_str().unwrap().starts_with("(cut: "));
    assert_eq!(reply["truncated"], true, "{reply}");
    assert!(reply.get("next_cursor").is_none(), "{reply}");
    assert!(reply["more"].as_str().unwrap().contains("Row 1"), "{reply}");
    // A row that fits is not.
    let reply = dispatch_ok(
        &s,
        "network_query",
        json!({"network_name": "g", "query": "RETURN range(1, 10) AS l"}),
    );
    assert_eq!(reply["truncated"], false, "{reply}");
}

#[test]
fn names_that_match_nothing_are_warned_about_with_the_closest_one() {
    let s = unlimited_server();
    dispatch_ok(&s, "network_create", json!({"network_name": "g"}));
    dispatch_ok(
        &s,
        "network_add_nodes",
        json!({"network_name": "g", "nodes": [
            {"node_id": "a", "attributes": {"labels": "task, urgent", "status": "todo"}},
            {"node_id": "b", "attributes": {"labels": "task", "status": "done"}},
        ]}),
    );
    dispatch_ok(
        &s,
        "network_add_edges",
        json!({"network_name": "g", "edges": [
            {"source": "a", "target": "b", "attributes": {"relation": "normal", "since": 3}},
        ]}),
    );
    let query = |q: &str| {
        dispatch_ok(
            &s,
            "network_query",
            json!({"network_name": "g", "query": q}),
        )
    };
    // Names that exist: no warning, whatever the rows.
    let fine = query(
        "MATCH (n:urgent {status: 'todo'})-[r:normal {since: 3}]->(m:task) WHERE n.id <> m.id AND r.weight > 0 RETURN n.status, m.id",
    );
    assert!(fine.get("warnings").is_none(), "{fine}");
    assert_eq!(fine["rows"], json!([["todo", "b"]]));
    let reply = query("MATCH (n:Tsk)-[:Normal]->(m) WHERE n.stauts = 'todo' RETURN m.id");
    assert_eq!(reply["rows"], json!([]));
    let told = warnings(&reply);
    let find = |code: &str| {
        told.iter()
            .find(|(c, _)| c == code)
            .map(|(_, m)| m.clone())
            .unwrap_or_else(|| panic!("no {code} in {told:?}"))
    };
    let relation = find("unknown_relation");
    assert!(
        relation.contains("\"Normal\"") && relation.contains("Did you mean \"normal\"?"),
        "{relation}"
    );
    let label = find("unknown_label");
    assert!(
        label.contains("\"Tsk\"")
            && label.contains("Did you mean \"task\"?")
            && label.contains("\"urgent\""),
        "{label}"
    );
    let key = find("unknown_attribute");
    assert!(
        key.contains("\"stauts\"") && key.contains("Did you mean \"status\"?"),
        "{key}"
    );
    // A relationship's property key, and a map's keys are not properties.
    let reply = query("MATCH ()-[r]->() WITH r, {sinse: 1} AS m RETURN r.sinse, m.sinse");
    let told = warnings(&reply);
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(
        told[0].0 == "unknown_attribute"
            && told[0].1.contains("relationship property \"sinse\"")
            && told[0].1.contains("Did you mean \"since\"?"),
        "{told:?}"
    );
}

/// A node id the query matches on that no node has is said, with the nearest
/// id, however it is given (in the pattern, in the WHERE either way round, as
/// a parameter); an id that exists, or one compared otherwise, says nothing.
#[test]
fn a_node_id_that_matches_nothing_is_a_warning() {
    let server = graph(&chain(20));
    let said = |query: &str, parameters: Value| -> Vec<String> {
        let out = dispatch_ok(
            &server,
            "network_query",
            json!({"network_name": "g", "query": query, "parameters": parameters}),
        );
        warnings(&out)
            .into_iter()
            .filter(|(code, _)| code == "unknown_value")
            .map(|(_, message)| message)
            .collect()
    };
    for (query, parameters) in [
        ("MATCH (n {id: 'n12x'}) RETURN n.id", json!({})),
        ("MATCH (n) WHERE n.id = 'n12x' RETURN n.id", json!({})),
        ("MATCH (n)-->(m) WHERE 'n12x' = m.id RETURN n.id", json!({})),
        ("MATCH (n {id: $id}) RETURN n.id", json!({"id": "n12x"})),
    ] {
        let said = said(query, parameters);
        assert_eq!(said.len(), 1, "{query}: {said:?}");
        assert!(
            said[0].contains("\"n12x\"") && said[0].contains("Did you mean \"n12\"?"),
            "{query}: {}",
            said[0]
        );
    }
    for query in [
        "MATCH (n {id: 'n12'}) RETURN n.id",
        "MATCH (n) WHERE n.id = 'n3' RETURN n.id",
        "MATCH (n) WHERE n.id < 'zzz' RETURN count(*)",
        "MATCH (n)-[r]->(m) WHERE m.id = n.id RETURN count(*)",
    ] {
        assert!(said(query, json!({})).is_empty(), "{query}");
    }
}
