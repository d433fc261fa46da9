//! No answer an agent cannot tell is wrong: each case is a success that once
//! meant something other than what the caller asked, with nothing in the reply to
//! say so. Now the answer is the one meant, or the reply warns (`warnings`), or it
//! says it was cut (`truncated`).

use networks_mcp::mcp::NetworksServer;
use networks_mcp::warnings::WarningCode;
use serde_json::{Value, json};

use crate::common::{dispatch_ok as ok, every_toolset, warnings};

fn server() -> NetworksServer {
    NetworksServer::new(
        std::sync::Arc::new(networks_mcp::NetworkRegistry::new()),
        every_toolset(),
    )
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {value}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn has_warning(reply: &Value, code: WarningCode, words: &[&str]) -> bool {
    warnings(reply)
        .iter()
        .any(|(c, m)| c == code.as_str() && words.iter().all(|w| m.contains(w)))
}

/// A plan: `build` needs `design` (done), `ship` needs `build`; `epic` is the
/// parent of `build` and `ship`.
fn plan(server: &NetworksServer) {
    ok(server, "network_create", json!({"network_name": "p"}));
    ok(
        server,
        "network_add_nodes",
        json!({"network_name": "p", "nodes": [
            {"node_id": "design", "attributes": {"status": "done"}},
            {"node_id": "build", "attributes": {"status": "todo", "parent": "epic"}},
            {"node_id": "ship", "attributes": {"status": "todo", "parent": "epic"}},
            {"node_id": "epic", "attributes": {"status": "todo"}},
        ]}),
    );
    ok(
        server,
        "network_add_edges",
        json!({"network_name": "p", "edges": [
            {"source": "build", "target": "design"},
            {"source": "ship", "target": "build"},
        ]}),
    );
}

#[test]
fn ready_nodes_counts_done_as_the_work_tools_do_epics_included() {
    let server = server();
    plan(&server);
    let ready = ok(&server, "network_ready_nodes", json!({"network_name": "p"}));
    // design is done by its status; the epic waits for its two children.
    assert_eq!(strings(&ready["ready"]), ["build"]);
    assert_eq!(ready["done_count"], 1);
    assert_eq!(ready["blocked_count"], 2);
    let rule = ready["done_rule"].as_str().unwrap();
    assert!(
        rule.contains("status = \"done\"") && rule.contains("\"parent\""),
        "{rule}"
    );
    // The work tools agree, task by task.
    let progress = ok(
        &server,
        "network_plan_progress",
        json!({"network_name": "p"}),
    );
    assert_eq!(progress["ready_count"], 1);
    assert_eq!(progress["done_count"], 1);
    assert_eq!(progress["done_rule"], ready["done_rule"]);
    let why = ok(
        &server,
        "network_why_blocked",
        json!({"network_name": "p", "node_id": "epic"}),
    );
    assert_eq!(why["state"], "blocked");
    // A call may still choose its own rule: nothing done but what it lists.
    let own = ok(
        &server,
        "network_ready_nodes",
        json!({"network_name": "p", "done_attributes": {}, "done": []}),
    );
    assert_eq!(strings(&own["ready"]), ["design"]);
    assert_eq!(own["done_count"], 0);
}

#[test]
fn finished_looking_states_the_rule_does_not_count_are_warned_about() {
    let server = server();
    ok(&server, "network_create", json!({"network_name": "b"}));
    ok(
        &server,
        "network_add_nodes",
        json!({"network_name": "b", "nodes": [
            {"node_id": "old", "attributes": {"status": "closed"}},
            {"node_id": "new", "attributes": {"status": "open"}},
        ]}),
    );
    ok(
        &server,
        "network_add_edge",
        json!({"network_name": "b", "source": "new", "target": "old"}),
    );
    let ready = ok(&server, "network_ready_nodes", json!({"network_name": "b"}));
    assert!(
        has_warning(
            &ready,
            WarningCode::DoneRule,
            &["closed", "done_attributes"]
        ),
        "{ready}"
    );
    // Told how, the caller gets the answer it meant, and no warning.
    let told = ok(
        &server,
        "network_ready_nodes",
        json!({"network_name": "b", "done_attributes": {"status": "closed"}}),
    );
    assert_eq!(strings(&told["ready"]), ["new"]);
    assert!(told.get("warnings").is_none(), "{told}");
    // A claim of a task whose status looks finished says so too.
    let claim = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "b", "worker": "w"}),
    );
    assert!(
        has_warning(&claim, WarningCode::DoneRule, &["closed"]),
        "{claim}"
    );
    assert!(claim["done_rule"].as_str().unwrap().contains("status"));
}

/// Crates with typed dependencies: `app` needs `lib` (normal) and `test-kit` (dev).
fn crates(server: &NetworksServer) {
    ok(server, "network_create", json!({"network_name": "c"}));
    ok(
        server,
        "network_add_edges",
        json!({"network_name": "c", "create_missing_nodes": true, "edges": [
            {"source": "app", "target": "lib", "attributes": {"relation": "normal"}},
            {"source": "app", "target": "test-kit", "attributes": {"relation": "dev"}},
        ]}),
    );
}

#[test]
fn a_relation_type_no_edge_has_is_warned_about_with_the_closest_one() {
    let server = server();
    crates(&server);
    let only = ok(
        &server,
        "network_descendants",
        json!({"network_name": "c", "node_id": "app", "relations": ["Normal"]}),
    );
    assert_eq!(only["total"], 0);
    assert!(
        has_warning(
            &only,
            WarningCode::UnknownRelation,
            &["\"Normal\"", "Did you mean \"normal\""]
        ),
        "{only}"
    );
    let ignoring = ok(
        &server,
        "network_topological_sort",
        json!({"network_name": "c", "ignore_relations": ["dev-dependency"]}),
    );
    assert!(
        has_warning(
            &ignoring,
            WarningCode::UnknownRelation,
            &["dev-dependency", "ignores nothing", "\"dev\""]
        ),
        "{ignoring}"
    );
    // A name that exists is not warned about, on any tool.
    let fine = ok(
        &server,
        "network_descendants",
        json!({"network_name": "c", "node_id": "app", "relations": ["normal"]}),
    );
    assert_eq!(fine["total"], 1);
    assert!(fine.get("warnings").is_none(), "{fine}");
}

#[test]
fn an_attribute_filter_that_matches_nothing_says_which_part_and_the_closest() {
    let server = server();
    plan(&server);
    let listed = ok(
        &server,
        "network_list_nodes",
        json!({"network_name": "p", "attributes": {"stauts": "todo"}}),
    );
    assert_eq!(listed["total"], 0);
    assert!(
        has_warning(
            &listed,
            WarningCode::UnknownAttribute,
            &["stauts", "Did you mean \"status\""]
        ),
        "{listed}"
    );
    let value = ok(
        &server,
        "network_list_nodes",
        json!({"network_name": "p", "attributes": {"status": "Todo"}}),
    );
    assert!(
        has_warning(
            &value,
            WarningCode::UnknownValue,
            &["Todo", "Did you mean \"todo\""]
        ),
        "{value}"
    );
    let ready = ok(
        &server,
        "network_ready_nodes",
        json!({"network_name": "p", "match_attributes": {"team": "db"}, "order": "priority"}),
    );
    assert!(
        has_warning(&ready, WarningCode::UnknownAttribute, &["team"]),
        "{ready}"
    );
    assert!(
        has_warning(&ready, WarningCode::UnknownAttribute, &["priority"]),
        "{ready}"
    );
    let done_rule = ok(
        &server,
        "network_ready_nodes",
        json!({"network_name": "p", "done_attributes": {"state": "done"}}),
    );
    assert!(
        has_warning(
            &done_rule,
            WarningCode::UnknownAttribute,
            &["done_attributes", "\"state\""]
        ),
        "{done_rule}"
    );
}

#[test]
fn a_topological_page_ends_on_a_layer_and_sends_each_id_once() {
    let server = server();
    ok(&server, "network_create", json!({"network_name": "t"}));
    // Layer 0: 7 roots; layer 1: 5 nodes each after root-0; layer 2: one node.
    let mut edges = Vec::new();
    for i in 0..5 {
        edges.push(json!({"source": format!("root-{}", 0), "target": format!("mid-{i}")}));
    }
    edges.push(json!({"source": "mid-0", "target": "last"}));
    let nodes: Vec<Value> = (0..7)
        .map(|i| json!({"node_id": format!("root-{i}")}))
        .collect();
    ok(
        &server,
        "network_add_nodes",
        json!({"network_name": "t", "nodes": nodes}),
    );
    ok(
        &server,
        "network_add_edges",
        json!({"network_name": "t", "create_missing_nodes": true, "edges": edges}),
    );
    // A page of 10 holds layer 0 (7) whole but not layer 1 (5): it ends at 7.
    let first = ok(
        &server,
        "network_topological_sort",
        json!({"network_name": "t", "limit": 10}),
    );
    assert!(first.get("node_ids").is_none(), "{first}");
    let layers = first["layers"].as_array().unwrap();
    assert_eq!(layers.len(), 1);
    assert_eq!(layers[0].as_array().unwrap().len(), 7);
    assert_eq!(first["truncated"], true);
    let second = ok(
        &server,
        "network_topological_sort",
        json!({"network_name": "t", "limit": 10, "cursor": first["next_cursor"]}),
    );
    assert_eq!(second["first_layer"], 1);
    let sizes: Vec<usize> = second["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_array().unwrap().len())
        .collect();
    assert_eq!(sizes, [5, 1]);
    assert_eq!(second["truncated"], false);
    // A layer larger than the page is cut, and the next page continues it.
    let cut = ok(
        &server,
        "network_topological_sort",
        json!({"network_name": "t", "limit": 4, "flat": true}),
    );
    assert!(cut.get("layers").is_none(), "{cut}");
    assert_eq!(cut["node_ids"].as_array().unwrap().len(), 4);
    let rest = ok(
        &server,
        "network_topological_sort",
        json!({"network_name": "t", "limit": 4, "flat": true, "cursor": cut["next_cursor"]}),
    );
    assert_eq!(rest["node_ids"].as_array().unwrap().len(), 3, "{rest}");
}

#[test]
fn every_warning_code_is_in_the_vocabulary() {
    let vocabulary = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/vocabulary.md"),
    )
    .unwrap();
    for code in WarningCode::ALL {
        assert!(
            vocabulary.contains(&format!("| `{}` |", code.as_str())),
            "specs/vocabulary.md does not list the warning code `{}`",
            code.as_str()
        );
    }
}

#[test]
fn every_cut_page_names_the_largest_limit_its_own_tool_accepts() {
    let server = server();
    ok(&server, "network_create", json!({"network_name": "w"}));
    let edges: Vec<Value> = (0..6)
        .map(|i| json!({"source": "hub", "target": format!("leaf-{i}")}))
        .collect();
    ok(
        &server,
        "network_add_edges",
        json!({"network_name": "w", "create_missing_nodes": true, "edges": edges}),
    );
    let tools = server.listed_tools();
    let cases = [
        ("network_list_nodes", json!({})),
        ("network_list_edges", json!({})),
        ("network_get_neighbors", json!({"node_id": "hub"})),
        ("network_descendants", json!({"node_id": "hub"})),
        ("network_ready_nodes", json!({})),
        ("network_topological_sort", json!({"reverse": true})),
        ("network_centrality", json!({"measure": "degree"})),
        ("network_search", json!({"query": "leaf"})),
    ];
    for (tool, extra) in cases {
        let schema = &tools
            .iter()
            .find(|t| t.name == tool)
            .unwrap_or_else(|| panic!("{tool} is listed"))
            .input_schema;
        let max = schema["properties"]["limit"]["maximum"]
            .as_u64()
            .unwrap_or_else(|| panic!("{tool}: limit has a maximum"));
        let mut args = json!({"network_name": "w", "limit": 1});
        args.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let reply = ok(&server, tool, args);
        let more = reply["more"]
            .as_str()
            .unwrap_or_else(|| panic!("{tool}: {reply}"));
        assert!(
            more.contains(&format!("at most {max})")) || more.contains(&format!("at most {max} ")),
            "{tool}: its more names another limit than its own {max}: {more}"
        );
    }
}

#[test]
fn an_answer_by_epic_where_no_node_names_a_parent_says_so() {
    let server = server();
    crates(&server);
    let sorted = ok(
        &server,
        "network_topological_sort",
        json!({"network_name": "c", "level": "epics", "parent_attribute": "epic"}),
    );
    assert!(
        has_warning(
            &sorted,
            WarningCode::UnknownAttribute,
            &["\"epic\"", "level \"tasks\""]
        ),
        "{sorted}"
    );
    // Where parents exist, nothing to say.
    plan(&server);
    let epics = ok(
        &server,
        "network_topological_sort",
        json!({"network_name": "p", "level": "epics"}),
    );
    assert!(epics.get("warnings").is_none(), "{epics}");
}
