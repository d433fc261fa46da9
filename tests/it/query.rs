//! `network_query`: each clause and feature of the openCypher subset on a small
//! network with hand-checked answers, the refusals (writes, unsupported clauses,
//! syntax, missing parameters, hop counts) with their positions, paging, and
//! hostile queries answered within the budget with a clear error.

use std::time::{Duration, Instant};

use networks_mcp::budget::Budget;
use networks_mcp::mcp::{Call, NetworksServer};
use serde_json::{Value, json};

use crate::common::{dispatch, dispatch_err, dispatch_ok, unlimited_server};

/// The plan: a -depends_on(2)-> b -depends_on(1)-> c, a -blocks(5)-> c, c -(1)-> d.
/// Labels: a task; b task, urgent; c task (its `label` is display text); d none.
fn plan() -> NetworksServer {
    let server = unlimited_server();
    dispatch_ok(&server, "network_create", json!({"network_name": "p"}));
    dispatch_ok(
        &server,
        "network_add_nodes",
        json!({"network_name": "p", "nodes": [
            {"node_id": "a", "attributes": {"labels": "task", "status": "todo", "priority": 1}},
            {"node_id": "b", "attributes": {"labels": "task, urgent", "status": "done", "priority": 2}},
            {"node_id": "c", "attributes": {"labels": "task", "status": "todo", "priority": 3, "label": "Display C"}},
            {"node_id": "d", "data": {"x": 1, "tags": ["t1", "t2"]}},
        ]}),
    );
    dispatch_ok(
        &server,
        "network_add_edges",
        json!({"network_name": "p", "edges": [
            {"source": "a", "target": "b", "weight": 2.0, "attributes": {"relation": "depends_on"}},
            {"source": "b", "target": "c", "weight": 1.0, "attributes": {"relation": "depends_on"}},
            {"source": "a", "target": "c", "weight": 5.0, "attributes": {"relation": "blocks"}},
            {"source": "c", "target": "d", "weight": 1.0},
        ]}),
    );
    server
}

fn query_with(server: &NetworksServer, query: &str, parameters: Value) -> Value {
    dispatch_ok(
        server,
        "network_query",
        json!({"network_name": "p", "query": query, "parameters": parameters, "limit": 1000}),
    )
}

/// The rows of `query` on `server`.
fn rows(server: &NetworksServer, query: &str) -> Value {
    query_with(server, query, json!({}))["rows"].clone()
}

/// The error message of a refused query, checking its code and field.
fn refused(server: &NetworksServer, query: &str, field: &str) -> String {
    let e = dispatch_err(
        server,
        "network_query",
        json!({"network_name": "p", "query": query}),
        "invalid_value",
    );
    assert_eq!(e["field"], field, "{query}: {e}");
    e["error"].as_str().unwrap_or_default().to_string()
}

#[test]
fn match_scans_nodes_and_filters_by_label_from_the_labels_attribute() {
    let s = plan();
    assert_eq!(
        rows(&s, "MATCH (n) RETURN n.id"),
        json!([["a"], ["b"], ["c"], ["d"]])
    );
    assert_eq!(
        rows(&s, "MATCH (n:task) RETURN n.id"),
        json!([["a"], ["b"], ["c"]])
    );
    assert_eq!(rows(&s, "MATCH (n:urgent) RETURN n.id"), json!([["b"]]));
    assert_eq!(
        rows(&s, "MATCH (n:task:urgent) RETURN n.id"),
        json!([["b"]])
    );
    // `label` is display text, never a label.
    assert_eq!(rows(&s, "MATCH (n:`Display C`) RETURN n.id"), json!([]));
    assert_eq!(
        rows(&s, "MATCH (n {id: 'c'}) RETURN labels(n), n.label"),
        json!([[["task"], "Display C"]])
    );
    assert_eq!(
        rows(&s, "MATCH (n {status: 'todo', priority: 3}) RETURN n.id"),
        json!([["c"]])
    );
    let columns = query_with(
        &s,
        "MATCH (n {id: 'a'}) RETURN n.id, n.priority AS p",
        json!({}),
    )["columns"]
        .clone();
    assert_eq!(columns, json!(["n.id", "p"]));
}

#[test]
fn relationship_patterns_follow_direction_type_and_properties() {
    let s = plan();
    assert_eq!(
        rows(
            &s,
            "MATCH ({id: 'a'})-[r:depends_on]->(b) RETURN b.id, r.weight, type(r), id(r)"
        ),
        json!([["b", 2.0, "depends_on", 0]])
    );
    assert_eq!(
        rows(&s, "MATCH (x)<-[:depends_on]-(y) RETURN x.id, y.id"),
        json!([["b", "a"], ["c", "b"]])
    );
    // Both ways: out-edges, then in-edges, each in insertion order.
    assert_eq!(
        rows(&s, "MATCH ({id: 'c'})--(m) RETURN m.id"),
        json!([["d"], ["b"], ["a"]])
    );
    // An edge without `relation` has type EDGE.
    assert_eq!(
        rows(&s, "MATCH ()-[r:EDGE]->(t) RETURN t.id, type(r)"),
        json!([["d", "EDGE"]])
    );
    assert_eq!(
        rows(&s, "MATCH (a)-[:blocks|EDGE]->(t) RETURN a.id, t.id"),
        json!([["a", "c"], ["c", "d"]])
    );
    assert_eq!(
        rows(&s, "MATCH ()-[r {weight: 5.0}]->(t) RETURN t.id"),
        json!([["c"]])
    );
    // Two hops, and a relationship is matched once per MATCH.
    assert_eq!(
        rows(
            &s,
            "MATCH (a)-[:depends_on]->(b)-[:depends_on]->(c) RETURN a.id, b.id, c.id"
        ),
        json!([["a", "b", "c"]])
    );
    assert_eq!(
        rows(&s, "MATCH (a)-[r]-(b)-[r2]-(a) RETURN count(*)"),
        json!([[0]])
    );
    // A pattern anchored at its end only is walked from there, same answer.
    assert_eq!(
        rows(&s, "MATCH (x)-[:depends_on]->({id: 'c'}) RETURN x.id"),
        json!([["b"]])
    );
    // Comma-separated parts share variables.
    assert_eq!(
        rows(
            &s,
            "MATCH (a)-[:blocks]->(c), (b)-[:depends_on]->(c) RETURN a.id, b.id"
        ),
        json!([["a", "b"]])
    );
}

#[test]
fn variable_length_paths_and_path_functions() {
    let s = plan();
    assert_eq!(
        rows(
            &s,
            "MATCH p = ({id: 'a'})-[*1..3]->(x) RETURN x.id, length(p) ORDER BY length(p), x.id"
        ),
        json!([["b", 1], ["c", 1], ["c", 2], ["d", 2], ["d", 3]])
    );
    assert_eq!(
        rows(&s, "MATCH ({id: 'a'})-[*2]->(x) RETURN x.id"),
        json!([["c"], ["d"]])
    );
    assert_eq!(
        rows(&s, "MATCH ({id: 'a'})-[*0..1]->(x) RETURN x.id"),
        json!([["a"], ["b"], ["c"]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH ({id: 'd'})<-[:depends_on|EDGE*1..5]-(x) RETURN x.id"
        ),
        json!([["c"], ["b"], ["a"]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH p = ({id: 'a'})-[:depends_on*2]->(x) RETURN [n IN nodes(p) | n.id], [r IN relationships(p) | r.weight], length(p)"
        ),
        json!([[["a", "b", "c"], [2.0, 1.0], 2]])
    );
    // The relationship variable of a variable-length pattern is the list of its relationships.
    assert_eq!(
        rows(
            &s,
            "MATCH ({id: 'a'})-[rs:depends_on*2]->() RETURN size(rs), [r IN rs | type(r)]"
        ),
        json!([[2, ["depends_on", "depends_on"]]])
    );
    // A path walked from its anchored end is still given from first to last.
    assert_eq!(
        rows(
            &s,
            "MATCH p = (x)-[*2]->({id: 'd'}) RETURN [n IN nodes(p) | n.id] ORDER BY x.id"
        ),
        json!([[["a", "c", "d"]], [["b", "c", "d"]]])
    );
    let path = &rows(&s, "MATCH p = ({id: 'b'})-->() RETURN p")[0][0];
    assert_eq!(path["nodes"][0]["id"], "b");
    assert_eq!(path["nodes"][1]["id"], "c");
    assert_eq!(path["relationships"][0]["type"], "depends_on");
}

#[test]
fn variable_length_patterns_need_no_upper_bound() {
    let s = plan();
    // a->b->c->d and a->c: the trails from a, however long.
    assert_eq!(
        rows(
            &s,
            "MATCH ({id: 'a'})-[*]->(x) RETURN x.id, count(*) ORDER BY x.id"
        ),
        json!([["b", 1], ["c", 2], ["d", 2]])
    );
    assert_eq!(
        rows(&s, "MATCH ({id: 'a'})-[*1..11]->(x) RETURN count(x)"),
        json!([[5]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH p = ({id: 'a'})-[*2..]->(x) RETURN max(length(p)), count(*)"
        ),
        json!([[3, 3]])
    );
    let e = refused(&s, "MATCH (a)-[*1..99999999999]->(b) RETURN b", "query");
    assert!(
        e.contains("not a hop count") && e.contains("column 12"),
        "{e}"
    );
}

#[test]
fn optional_match_keeps_rows_with_nulls() {
    let s = plan();
    assert_eq!(
        rows(
            &s,
            "MATCH (n:task) OPTIONAL MATCH (n)-[:blocks]->(m) RETURN n.id, m.id"
        ),
        json!([["a", "c"], ["b", null], ["c", null]])
    );
    // Its WHERE belongs to the match: a row that fails it keeps its nulls.
    assert_eq!(
        rows(
            &s,
            "MATCH (n {id: 'a'}) OPTIONAL MATCH (n)-->(m) WHERE m.priority > 5 RETURN n.id, m"
        ),
        json!([["a", null]])
    );
}

#[test]
fn where_compares_with_cypher_null_semantics() {
    let s = plan();
    let ids = |q: &str| rows(&s, &format!("MATCH (n) WHERE {q} RETURN n.id"));
    assert_eq!(ids("n.priority >= 2 AND n.status = 'todo'"), json!([["c"]]));
    assert_eq!(ids("n.priority < 2 OR n.id = 'd'"), json!([["a"], ["d"]]));
    assert_eq!(ids("NOT n.status = 'todo'"), json!([["b"]]));
    assert_eq!(ids("n.status <> 'todo'"), json!([["b"]]));
    assert_eq!(ids("n.id IN ['a', 'd', 'z']"), json!([["a"], ["d"]]));
    assert_eq!(ids("n.status STARTS WITH 'do'"), json!([["b"]]));
    assert_eq!(ids("n.status ENDS WITH 'do'"), json!([["a"], ["c"]]));
    assert_eq!(ids("n.status CONTAINS 'od'"), json!([["a"], ["c"]]));
    assert_eq!(ids("n.status IS NULL"), json!([["d"]]));
    assert_eq!(ids("n.status IS NOT NULL"), json!([["a"], ["b"], ["c"]]));
    assert_eq!(ids("n:urgent"), json!([["b"]]));
    assert_eq!(ids("n.priority * 2 + 1 = 7"), json!([["c"]]));
    assert_eq!(ids("n.data.x = 1 AND 't2' IN n.data.tags"), json!([["d"]]));
    // Null is neither true nor false: neither branch keeps d.
    assert_eq!(
        ids("n.priority > 0 XOR n.priority > 5"),
        json!([["a"], ["b"], ["c"]])
    );
    assert_eq!(
        rows(
            &s,
            "RETURN null = null, 1 = 1.0, 'a' < 'b', [1, 2] = [1, 2], 2 IN [1, null]"
        ),
        json!([[null, true, true, true, null]])
    );
}

#[test]
fn return_distinct_aliases_order_skip_limit() {
    let s = plan();
    assert_eq!(
        rows(&s, "MATCH (n:task) RETURN DISTINCT n.status"),
        json!([["todo"], ["done"]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH (n) RETURN n.id ORDER BY n.id DESC SKIP 1 LIMIT 2"
        ),
        json!([["c"], ["b"]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH (n:task) RETURN n.id AS id ORDER BY n.priority DESC"
        ),
        json!([["c"], ["b"], ["a"]])
    );
    // Nulls sort last ascending.
    assert_eq!(
        rows(&s, "MATCH (n) RETURN n.id ORDER BY n.priority"),
        json!([["a"], ["b"], ["c"], ["d"]])
    );
    assert_eq!(
        rows(&s, "MATCH (n) RETURN n.id ORDER BY n.status, n.id"),
        json!([["b"], ["a"], ["c"], ["d"]])
    );
}

#[test]
fn aggregates_group_by_the_other_items() {
    let s = plan();
    assert_eq!(
        rows(
            &s,
            "MATCH (n:task) RETURN n.status AS s, count(*) AS c, sum(n.priority), min(n.priority), max(n.priority), avg(n.priority), collect(n.id) ORDER BY s"
        ),
        json!([
            ["done", 1, 2, 2, 2, 2.0, ["b"]],
            ["todo", 2, 4, 1, 3, 2.0, ["a", "c"]]
        ])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH (n:nothing) RETURN count(*), collect(n.id), sum(n.priority), max(n.id)"
        ),
        json!([[0, [], 0, null]])
    );
    assert_eq!(
        rows(&s, "MATCH (n:nothing) RETURN n.id, count(*)"),
        json!([])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH (n) RETURN count(n.status), count(DISTINCT n.status), collect(DISTINCT n.status)"
        ),
        json!([[3, 2, ["todo", "done"]]])
    );
    assert_eq!(
        rows(&s, "MATCH (n) RETURN count(*) * 10 + 1 AS x"),
        json!([[41]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH (n)-[r]->() RETURN n.id, sum(r.weight) ORDER BY sum(r.weight) DESC"
        ),
        json!([["a", 7.0], ["b", 1.0], ["c", 1.0]])
    );
}

#[test]
fn with_chains_parts_of_a_query() {
    let s = plan();
    assert_eq!(
        rows(
            &s,
            "MATCH (n)-[r]->() WITH n, count(r) AS out WHERE out > 1 RETURN n.id, out"
        ),
        json!([["a", 2]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH (n:task) WITH n ORDER BY n.priority DESC LIMIT 2 MATCH (n)-->(m) RETURN n.id, m.id"
        ),
        json!([["c", "d"], ["b", "c"]])
    );
    assert_eq!(
        rows(&s, "MATCH (n) WITH * WHERE n.id = 'b' RETURN *"),
        json!([[{"id": "b", "labels": ["task", "urgent"], "properties": {"labels": "task, urgent", "status": "done", "priority": 2}}]])
    );
    assert_eq!(
        rows(
            &s,
            "UNWIND [3, 1, 2] AS x WITH x WHERE x > 1 RETURN x ORDER BY x"
        ),
        json!([[2], [3]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH (n {id: 'a'}) RETURN n.id AS x UNION MATCH (n {id: 'a'}) RETURN n.id AS x"
        ),
        json!([["a"]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH (n {id: 'a'}) RETURN n.id AS x UNION ALL MATCH (n {id: 'a'}) RETURN n.id AS x"
        ),
        json!([["a"], ["a"]])
    );
}

#[test]
fn values_come_back_as_json_nodes_relationships_and_data() {
    let s = plan();
    assert_eq!(
        rows(&s, "MATCH ()-[r:blocks]->() RETURN r"),
        json!([[{"id": 2, "type": "blocks", "source": "a", "target": "c", "properties": {"weight": 5.0, "relation": "blocks"}}]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH (n {id: 'd'}) RETURN n, n.data.x, n.data.tags[1], properties(n)"
        ),
        json!([[{"id": "d", "labels": [], "properties": {"data": {"x": 1, "tags": ["t1", "t2"]}}}, 1, "t2", {"id": "d", "data": {"x": 1, "tags": ["t1", "t2"]}}]])
    );
    assert_eq!(
        rows(
            &s,
            "RETURN toUpper('a') + toString(1.0), coalesce(null, 2), size([1, 2, 3]), [x IN range(1, 5) WHERE x % 2 = 1 | x * x], CASE WHEN 1 > 2 THEN 'y' ELSE 'n' END, any(x IN [1, 2] WHERE x > 1)"
        ),
        json!([["A1.0", 2, 3, [1, 9, 25], "n", true]])
    );
}

#[test]
fn parameters_fill_placeholders() {
    let s = plan();
    let answer = query_with(
        &s,
        "MATCH (n) WHERE n.priority > $p AND n.id IN $ids RETURN n.id LIMIT $k",
        json!({"p": 1, "ids": ["b", "c"], "k": 1}),
    );
    assert_eq!(answer["rows"], json!([["b"]]));
    let e = refused(
        &s,
        "MATCH (n) WHERE n.priority > $p RETURN n.id",
        "parameters",
    );
    assert!(
        e.contains("$p is not given") && e.contains("line 1, column 30"),
        "{e}"
    );
}

#[test]
fn writes_are_refused_with_the_tools_that_write() {
    let s = plan();
    for (query, clause) in [
        ("CREATE (n {id: 'z'})", "CREATE"),
        ("MERGE (n {id: 'z'}) RETURN n", "MERGE"),
        ("MATCH (n) SET n.x = 1 RETURN n", "SET"),
        ("MATCH (n) DETACH DELETE n", "DELETE"),
        ("MATCH (n) REMOVE n.status RETURN n", "REMOVE"),
    ] {
        let e = refused(&s, query, "query");
        assert!(e.contains(&format!("`{clause}` writes")), "{query}: {e}");
        assert!(
            e.contains("network_add_node")
                && e.contains("network_update_node")
                && e.contains("network_remove_node"),
            "{e}"
        );
    }
    assert_eq!(
        rows(&s, "MATCH (n) RETURN count(n)"),
        json!([[4]]),
        "nothing changed"
    );
}

#[test]
fn unsupported_clauses_and_syntax_errors_say_where() {
    let s = plan();
    let e = refused(
        &s,
        "MATCH (n)\nCALL db.labels() YIELD label RETURN label",
        "query",
    );
    assert!(
        e.contains("line 2, column 1")
            && e.contains(
                "`CALL` is not supported: the query tool only reads, with the clauses MATCH"
            ),
        "{e}"
    );
    // A standalone procedure call is the same refusal, not "missing RETURN".
    let e = refused(&s, "CALL db.labels()", "query");
    assert!(
        e.contains("line 1, column 1") && e.contains("`CALL` is not supported"),
        "{e}"
    );
    let e = refused(
        &s,
        "MATCH (n) FOREACH (x IN [1] | CREATE ()) RETURN n",
        "query",
    );
    // FOREACH is outside openCypher 2024.3's grammar, and it writes.
    assert!(
        e.contains("line 1, column 11") && e.contains("`FOREACH` writes"),
        "{e}"
    );
    let e = refused(
        &s,
        "MATCH (n) CALL { MATCH (m) RETURN m.id AS k } RETURN n, k",
        "query",
    );
    assert!(
        e.contains("(subqueries) is not supported") && e.contains("column 11"),
        "{e}"
    );
    let e = refused(&s, "MATCH (n RETURN n", "query");
    assert!(e.contains("line 1, column"), "{e}");
    let e = refused(&s, "MATCH (n) RETURN m", "query");
    assert!(e.contains("`m` is not defined"), "{e}");
    let e = refused(&s, "MATCH (n) RETURN nosuch(n)", "query");
    assert!(
        e.contains("no function nosuch()") && e.contains("collect"),
        "{e}"
    );
    let e = refused(&s, "MATCH (n)", "query");
    assert!(e.contains("ends with RETURN"), "{e}");
    let e = refused(&s, "RETURN 1 / 0", "query");
    assert!(e.contains("division by zero"), "{e}");
}

/// Compile-time checks and edge cases of openCypher that the TCK (tests/tck, run by
/// tests/interop/test_tck.py) holds the subset to.
#[test]
fn variables_keep_their_kind_and_patterns_follow_the_tck() {
    let s = plan();
    // VariableTypeConflict: a pattern may not rebind a variable of another kind.
    for query in [
        "MATCH ()-[r]->() MATCH (r) RETURN r",
        "MATCH (r)<-[r]-() RETURN r",
        "MATCH r = ()-->() MATCH (r) RETURN r",
        "MATCH r = ()-->(), ()-[r]-() RETURN r",
        "MATCH (n) MATCH ()-[n]-() RETURN n",
        "WITH 123 AS n MATCH (n) RETURN n",
        "WITH [1] AS r MATCH ()-[r]-() RETURN r",
        "MATCH ()-[r*1..2]->() MATCH (r) RETURN r",
    ] {
        let e = refused(&s, query, "query");
        assert!(e.contains("cannot stand for"), "{query}: {e}");
    }
    // A variable whose kind is known only at run time may be used by a pattern.
    assert_eq!(
        rows(
            &s,
            "MATCH (n {id: 'a'}) WITH n AS m MATCH (m)-->(x) RETURN x.id"
        ),
        json!([["b"], ["c"]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH (n {id: 'a'}) WITH coalesce(n) AS m MATCH (m)-[:blocks]->(x) RETURN x.id"
        ),
        json!([["c"]])
    );
    // RelationshipUniquenessViolation: one relationship variable twice in one MATCH,
    // but across clauses it is a join.
    let e = refused(&s, "MATCH (a)-[r]->()-[r]->(a) RETURN r", "query");
    assert!(e.contains("twice in one MATCH"), "{e}");
    assert_eq!(
        rows(&s, "MATCH ()-[r:blocks]->() MATCH (x)-[r]->() RETURN x.id"),
        json!([["a"]])
    );
    // An empty hop interval matches nothing; it is not an error.
    for query in [
        "MATCH (a {id: 'a'})-[*2..1]->(c) RETURN c.id",
        "MATCH (a {id: 'a'})-[*..0]->(c) RETURN c.id",
    ] {
        assert_eq!(rows(&s, query), json!([]), "{query}");
    }
    // `*` lists the variables by name, and needs one.
    assert_eq!(
        query_with(&s, "MATCH (b {id: 'b'})<-[r]-(a) RETURN *", json!({}))["columns"],
        json!(["a", "b", "r"])
    );
    let e = refused(&s, "MATCH () RETURN *", "query");
    assert!(e.contains("there is none"), "{e}");
    // WITH … WHERE sees the variables before the WITH too, unless it aggregates.
    assert_eq!(
        rows(
            &s,
            "MATCH (n:task) WITH n.priority AS p WHERE n.status = 'todo' OR p = 2 RETURN p"
        ),
        json!([[1], [2], [3]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH (n:task) WITH n.status AS st ORDER BY n.priority DESC LIMIT 2 WHERE n.id <> 'c' RETURN st"
        ),
        json!([["done"]])
    );
    let e = refused(
        &s,
        "MATCH (n) WITH n.status AS st, count(*) AS c WHERE n.id = 'a' RETURN st",
        "query",
    );
    assert!(e.contains("`n` is not defined"), "{e}");
    // WITH names every expression it passes on (NoExpressionAlias).
    let e = refused(&s, "MATCH (a) WITH a, count(*) RETURN a", "query");
    assert!(e.contains("count(*) AS name"), "{e}");
}

#[test]
fn rows_page_with_cursors() {
    let s = plan();
    let args = json!({"network_name": "p", "query": "MATCH (n) RETURN n.id", "limit": 3});
    let first = dispatch_ok(&s, "network_query", args.clone());
    assert_eq!(first["rows"], json!([["a"], ["b"], ["c"]]));
    assert_eq!(first["total"], 4);
    assert_eq!(first["truncated"], true);
    let mut next = args.clone();
    next["cursor"] = first["next_cursor"].clone();
    let second = dispatch_ok(&s, "network_query", next);
    assert_eq!(second["rows"], json!([["d"]]));
    assert!(second.get("next_cursor").is_none());
    // A cursor of another query is refused.
    let other = json!({"network_name": "p", "query": "MATCH (m) RETURN m.id", "limit": 3, "cursor": first["next_cursor"]});
    dispatch_err(&s, "network_query", other, "invalid_value");
}

// ---- hostile queries -------------------------------------------------------

/// The complete directed graph on `n` nodes.
fn complete(server: &NetworksServer, n: usize) {
    dispatch_ok(server, "network_create", json!({"network_name": "k"}));
    let mut edges = Vec::new();
    for u in 0..n {
        for v in 0..n {
            if u != v {
                edges.push(json!({"source": format!("n{u}"), "target": format!("n{v}")}));
            }
        }
    }
    dispatch_ok(
        server,
        "network_add_edges",
        json!({"network_name": "k", "edges": edges, "create_missing_nodes": true}),
    );
}

/// An aggregation right after a MATCH counts the matches as they come, so it
/// answers over more matches than a clause may make rows; the same matches
/// returned as rows are refused at the row limit.
#[test]
fn aggregates_count_past_the_row_limit_of_a_clause() {
    let s = unlimited_server();
    dispatch_ok(&s, "network_create", json!({"network_name": "p"}));
    let nodes: Vec<Value> = (0..520)
        .map(|i| json!({"node_id": format!("n{i}"), "attributes": {"g": i % 3}}))
        .collect();
    dispatch_ok(
        &s,
        "network_add_nodes",
        json!({"network_name": "p", "nodes": nodes}),
    );
    // 520 × 520 = 270,400 matches, past the 250,000 rows of a clause.
    assert_eq!(
        rows(&s, "MATCH (a), (b) RETURN count(*)"),
        json!([[270_400]])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH (a), (b) WHERE a.g = 0 RETURN b.g AS g, count(*) AS n, count(DISTINCT a) AS a ORDER BY g"
        ),
        json!([
            [0, 174 * 174, 174],
            [1, 174 * 173, 174],
            [2, 174 * 173, 174]
        ])
    );
    let e = dispatch_err(
        &s,
        "network_query",
        json!({"network_name": "p", "query": "MATCH (a), (b) RETURN a.id"}),
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

/// A query on `k` under a 3-second deadline: its error object, and how long it took.
fn hostile(server: &NetworksServer, network: &str, query: &str) -> (Value, Duration) {
    let budget = Budget::unlimited().with_timeout(Duration::from_secs(3));
    let started = Instant::now();
    let outcome = server
        .dispatch(
            Call::new(
                "network_query",
                json!({"network_name": network, "query": query}),
            )
            .with_budget(&budget),
        )
        .expect("a listed tool");
    let e = outcome.expect_err(query).to_object();
    assert!(e.to_string().len() < 4096, "a bounded error: {e}");
    (e, started.elapsed())
}

#[test]
fn hostile_queries_stop_within_the_budget_with_a_clear_error() {
    let s = unlimited_server();
    complete(&s, 30);
    // Every trail of up to 10 hops in a complete graph: far past any budget.
    let (e, took) = hostile(&s, "k", "MATCH p = (a)-[*1..10]->(b) RETURN count(p)");
    assert!(
        ["invalid_value", "deadline_exceeded"].contains(&e["code"].as_str().unwrap()),
        "{e}"
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
    let (e, took) = hostile(&s, "k", "MATCH p = (a)-[*1..10]->(b) RETURN p");
    assert!(
        e["error"].as_str().unwrap().contains("rows") || e["code"] == "deadline_exceeded",
        "{e}"
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
    // A cartesian product of five MATCHes: 30^5 rows.
    let (e, took) = hostile(
        &s,
        "k",
        "MATCH (a) MATCH (b) MATCH (c) MATCH (d) MATCH (e) RETURN count(*)",
    );
    assert!(
        e["error"].as_str().unwrap().contains("cartesian product"),
        "{e}"
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
    // A 1 MB query.
    let big = format!("RETURN '{}'", "x".repeat(1 << 20));
    let (e, _) = hostile(&s, "k", &big);
    assert!(
        e["error"].as_str().unwrap().contains("at most 16384 bytes"),
        "{e}"
    );
    // Deep nesting, by brackets and by operators.
    let (e, _) = hostile(
        &s,
        "k",
        &format!("RETURN {}1{}", "(".repeat(5_000), ")".repeat(5_000)),
    );
    assert!(
        e["error"].as_str().unwrap().contains("nest more than 32"),
        "{e}"
    );
    let (e, _) = hostile(&s, "k", &format!("RETURN {}1", "- ".repeat(1_500)));
    assert!(e["error"].as_str().unwrap().contains("nest at most"), "{e}");
    let (e, _) = hostile(&s, "k", &format!("RETURN {}1", "[".repeat(5_000)));
    assert!(
        e["error"].as_str().unwrap().contains("nest more than"),
        "{e}"
    );
    let (e, _) = hostile(&s, "k", &format!("RETURN 1{}", " + 1".repeat(3_000)));
    assert!(e["error"].as_str().unwrap().contains("tokens"), "{e}");
    // Values that multiply: lists concatenated, lists collected, strings grown.
    let sum = vec!["l"; 60].join(" + ");
    let (e, _) = hostile(
        &s,
        "k",
        &format!("WITH range(1, 200000) AS l RETURN size({sum})"),
    );
    assert!(
        e["error"].as_str().unwrap().contains("builds more than"),
        "{e}"
    );
    let (e, _) = hostile(
        &s,
        "k",
        // One list collected again and again: each item counts as the 101
        // values it holds (a tree), so the bound is reached in few steps.
        "WITH range(1, 100) AS l UNWIND range(1, 200000) AS x RETURN collect(l)",
    );
    assert!(
        e["error"].as_str().unwrap().contains("builds more than"),
        "{e}"
    );
    let (e, _) = hostile(
        &s,
        "k",
        "WITH 'xxxxxxxxxxxxxxxx' AS a WITH a + a + a + a + a + a + a + a AS a WITH a + a + a + a + a + a + a + a AS a WITH a + a + a + a + a + a + a + a AS a WITH a + a + a + a + a + a + a + a AS a WITH a + a + a + a + a + a + a + a AS a RETURN size(a + a + a + a + a + a + a + a)",
    );
    assert!(
        e["error"].as_str().unwrap().contains("past 1048576 bytes"),
        "{e}"
    );
    // Sharing cannot hide a value larger than its memory: each level holds the
    // last one twice (2^40 items as a tree), and comparing it would walk them all.
    let (e, took) = hostile(
        &s,
        "k",
        &format!(
            "WITH [1] AS a {}RETURN a = a",
            "WITH [a, a] AS a ".repeat(40)
        ),
    );
    assert!(
        e["error"].as_str().unwrap().contains("builds more than"),
        "{e}"
    );
    assert!(took < Duration::from_secs(5), "{took:?}");
    // A large list copied into every row is shared, not copied.
    let shared = dispatch_ok(
        &s,
        "network_query",
        json!({"network_name": "k", "query": "UNWIND range(1, 100000) AS x WITH collect(x) AS l UNWIND l AS y WITH l, y WHERE y % 2 = 0 RETURN count(*), sum(size(l))"}),
    );
    assert_eq!(shared["rows"], json!([[50000, 5_000_000_000i64]]));
    // The server still answers.
    assert_eq!(
        dispatch(
            &s,
            "network_query",
            json!({"network_name": "k", "query": "MATCH (n) RETURN count(n)"})
        )
        .unwrap()["rows"],
        json!([[30]])
    );
}

#[test]
fn a_query_stops_at_its_step_budget() {
    let s = unlimited_server();
    complete(&s, 40);
    let budget = Budget::unlimited().with_max_steps(20_000);
    let outcome = s
        .dispatch(
            Call::new(
                "network_query",
                json!({"network_name": "k", "query": "MATCH (a)-->(b)-->(c) RETURN count(*)"}),
            )
            .with_budget(&budget),
        )
        .expect("a listed tool");
    assert_eq!(outcome.expect_err("stopped").code(), "limit_exceeded");
}

/// The WHERE of a MATCH is checked as soon as its variables are bound: a node it
/// rules out is not walked from. On the complete graph of 40 nodes, two 2-hop
/// patterns whose start the WHERE pins to one node stay within a step budget
/// that walking from every start exceeds (the test above); the rows are the
/// ones the whole pattern gives.
#[test]
fn a_where_prunes_a_match_as_soon_as_its_variables_are_bound() {
    let s = unlimited_server();
    complete(&s, 40);
    for query in [
        "MATCH (a)-->(b)-->(c) WHERE a.id = 'n3' RETURN count(*)",
        "MATCH (a)-->(b)-->(c) WHERE a.id STARTS WITH 'n3' AND size(a.id) = 2 AND c.id <> a.id RETURN count(*)",
    ] {
        let budget = Budget::unlimited().with_max_steps(20_000);
        let outcome = s
            .dispatch(
                Call::new(
                    "network_query",
                    json!({"network_name": "k", "query": query}),
                )
                .with_budget(&budget),
            )
            .expect("a listed tool");
        let rows = outcome.expect(query)["rows"].clone();
        // From n3: 39 first hops, then 39 from each (back to n3 too: the edge
        // back is another relationship), 38 when c may not be n3.
        let expected = if query.contains("<>") {
            39 * 38
        } else {
            39 * 39
        };
        assert_eq!(rows, json!([[expected]]), "{query}");
    }
}

/// Checking the WHERE early changes no answer and raises no error the whole
/// pattern would not: a conjunct that fails to evaluate is only raised for a
/// complete match, and a false conjunct before it still rules the row out.
#[test]
fn early_where_checks_keep_errors_and_rows_as_the_whole_pattern_gives_them() {
    let s = plan();
    // `d` has no outgoing edge: the division is never evaluated on a complete match.
    assert_eq!(
        rows(
            &s,
            "MATCH (a)-->(b) WHERE a.id = 'd' AND a.data / 0 = 1 RETURN b.id"
        ),
        json!([])
    );
    // `a` has: the error is raised, as evaluating the whole WHERE raises it.
    let e = dispatch_err(
        &s,
        "network_query",
        json!({"network_name": "p", "query": "MATCH (a)-->(b) WHERE a.id = 'a' AND 1 / 0 = 1 RETURN b.id"}),
        "invalid_value",
    );
    assert!(
        e["error"].as_str().unwrap().contains("division by zero"),
        "{e}"
    );
    // A false conjunct first: the one after it is never evaluated.
    assert_eq!(
        rows(
            &s,
            "MATCH (a)-->(b) WHERE a.priority = 99 AND 1 / 0 = 1 RETURN b.id"
        ),
        json!([])
    );
    // A conjunct on the far end, then one on the start: the same rows, in order.
    assert_eq!(
        rows(
            &s,
            "MATCH (a)-[r]->(b) WHERE b.id <> 'zz' AND a.status = 'todo' RETURN a.id, b.id"
        ),
        json!([["a", "b"], ["a", "c"], ["c", "d"]])
    );
    // A path variable in the WHERE is checked once its part is matched.
    assert_eq!(
        rows(
            &s,
            "MATCH p = (a)-->(b), (c) WHERE length(p) = 1 AND c.id = b.id AND a.id = 'a' RETURN b.id, c.id"
        ),
        json!([["b", "b"], ["c", "c"]])
    );
}

/// A variable-length variable bound to a list of relationships matches the path
/// they walk (openCypher's `MATCH (a)-[rs*]->(b)` after `WITH [r1, r2] AS rs`),
/// and a path has no properties.
#[test]
fn a_bound_relationship_list_matches_the_path_it_walks() {
    let s = plan();
    assert_eq!(
        rows(
            &s,
            "MATCH ({id: 'a'})-[r1:depends_on]->()-[r2]->({id: 'c'}) WITH [r1, r2] AS rs MATCH (x)-[rs*]->(y) RETURN x.id, y.id"
        ),
        json!([["a", "c"]])
    );
    // The wrong way, or outside the bounds: no match.
    assert_eq!(
        rows(
            &s,
            "MATCH ({id: 'a'})-[r1:depends_on]->()-[r2]->({id: 'c'}) WITH [r1, r2] AS rs MATCH (x)<-[rs*]-(y) RETURN x.id"
        ),
        json!([])
    );
    assert_eq!(
        rows(
            &s,
            "MATCH ({id: 'a'})-[r1:depends_on]->()-[r2]->({id: 'c'}) WITH [r1, r2] AS rs MATCH (x)-[rs*3..]-(y) RETURN x.id"
        ),
        json!([])
    );
    // Either way, from the end: walked backwards.
    assert_eq!(
        rows(
            &s,
            "MATCH ({id: 'a'})-[r1:depends_on]->()-[r2]->({id: 'c'}) WITH [r1, r2] AS rs MATCH p = (x)-[rs*]-({id: 'c'}) RETURN x.id, length(p)"
        ),
        json!([["a", 2]])
    );
    let e = refused(
        &s,
        "MATCH p = (a)-[*]->(b) WHERE p.name = 'x' RETURN p",
        "query",
    );
    assert!(
        e.contains("a path has no properties") && e.contains("column 30"),
        "{e}"
    );
}

/// A scan that tests the start's properties before walking (`q.key op value`
/// in the WHERE) and settles those conditions for the nodes it keeps gives the
/// rows the WHERE gives when no scan can read it (`NOT NOT ...`), on values of
/// mixed types, missing ones and nulls, for every comparison.
#[test]
fn scanned_conditions_keep_the_rows_the_where_gives() {
    let s = unlimited_server();
    dispatch_ok(&s, "network_create", json!({"network_name": "p"}));
    let ranks = [
        json!(0),
        json!(1),
        json!(2),
        json!(2.5),
        json!("2"),
        json!(true),
        json!(null),
    ];
    let nodes: Vec<Value> = (0..60)
        .map(|i| {
            let mut attributes = serde_json::Map::new();
            if i % 8 != 7 {
                attributes.insert("rank".into(), ranks[i % ranks.len()].clone());
            }
            attributes.insert("kind".into(), json!(["x", "y", "z"][i % 3]));
            json!({"node_id": format!("n{i}"), "attributes": attributes})
        })
        .collect();
    dispatch_ok(
        &s,
        "network_add_nodes",
        json!({"network_name": "p", "nodes": nodes}),
    );
    let edges: Vec<Value> = (0..60)
        .map(|i| json!({"source": format!("n{i}"), "target": format!("n{}", (i * 7 + 3) % 60)}))
        .collect();
    dispatch_ok(
        &s,
        "network_add_edges",
        json!({"network_name": "p", "edges": edges}),
    );
    for op in ["=", "<>", "<", "<=", ">", ">="] {
        for value in ["2", "'2'", "2.5", "true", "null"] {
            let scanned = format!(
                "MATCH (q)-->(p) WHERE q.rank {op} {value} AND q.kind = 'x' RETURN q.id, p.id ORDER BY q.id"
            );
            let unscanned = format!(
                "MATCH (q)-->(p) WHERE NOT (NOT q.rank {op} {value}) AND NOT (NOT q.kind = 'x') RETURN q.id, p.id ORDER BY q.id"
            );
            assert_eq!(rows(&s, &scanned), rows(&s, &unscanned), "{scanned}");
            let counted = format!("MATCH (q) WHERE q.rank {op} {value} RETURN count(*)");
            let listed = format!("MATCH (q) WHERE NOT (NOT q.rank {op} {value}) RETURN count(*)");
            assert_eq!(rows(&s, &counted), rows(&s, &listed), "{counted}");
        }
    }
    // At least one comparison keeps rows, so the equality above is not of empties.
    assert_ne!(
        rows(
            &s,
            "MATCH (q)-->(p) WHERE q.rank <= 2 AND q.kind = 'x' RETURN count(*)"
        ),
        json!([[0]])
    );
}
