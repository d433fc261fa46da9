//! Every answer reachable: a list longer than the largest page pages to its
//! end, whatever it is a list of (a group's members, the networks, a network's
//! sources and sinks); a write between pages refuses the cursor; and no reply
//! advises raising a parameter that is already at its schema's maximum.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::limits::Limits;
use networks_mcp::mcp::NetworksServer;
use networks_mcp::network::{MissingNodes, Network};
use serde_json::{Value, json};

use crate::common::{dispatch, every_toolset};

/// The largest `max_nodes_per_group`, `list_limit` and analysis `limit`.
const MAX_GROUP: usize = 10_000;

/// A network of `nodes` and `edges` (by id), nodes in the order given.
fn network(nodes: &[String], edges: &[(String, String)]) -> Network {
    let mut net = Network::with_capacity(nodes.len(), edges.len());
    net.add_nodes(nodes.iter().map(String::as_str))
        .expect("valid ids");
    net.add_edges(
        edges.iter().map(|(a, b)| (a.clone(), b.clone(), 1.0)),
        MissingNodes::Fail,
    )
    .expect("valid edges");
    net
}

/// `cycle` nodes c0.. in one directed cycle (one strong, one weak component),
/// `leaves` sources s_i -> c_(i mod cycle) and as many sinks c_(i mod cycle) -> t_i.
fn ring(cycle: usize, leaves: usize) -> Network {
    let c = |i: usize| format!("c{}", i % cycle);
    let mut nodes: Vec<String> = (0..cycle).map(c).collect();
    nodes.extend((0..leaves).map(|i| format!("s{i}")));
    nodes.extend((0..leaves).map(|i| format!("t{i}")));
    let mut edges: Vec<(String, String)> = (0..cycle).map(|i| (c(i), c(i + 1))).collect();
    edges.extend((0..leaves).map(|i| (format!("s{i}"), c(i))));
    edges.extend((0..leaves).map(|i| (c(i), format!("t{i}"))));
    network(&nodes, &edges)
}

/// A DAG: `sources` s_i -> c0 -> `sinks` t_i.
fn star(sources: usize, sinks: usize) -> Network {
    let mut nodes = vec!["c0".to_string()];
    nodes.extend((0..sources).map(|i| format!("s{i}")));
    nodes.extend((0..sinks).map(|i| format!("t{i}")));
    let mut edges: Vec<(String, String)> = (0..sources)
        .map(|i| (format!("s{i}"), "c0".to_string()))
        .collect();
    edges.extend((0..sinks).map(|i| ("c0".to_string(), format!("t{i}"))));
    network(&nodes, &edges)
}

/// A server with every toolset and room for `networks` networks, and its registry.
fn server(networks: usize) -> (NetworksServer, Arc<NetworkRegistry>) {
    let registry = Arc::new(NetworkRegistry::new());
    let options = networks_mcp::mcp::ServerOptions {
        limits: Limits {
            max_networks: networks,
            ..Limits::default()
        },
        ..every_toolset()
    };
    (
        NetworksServer::new(Arc::clone(&registry), options),
        registry,
    )
}

fn ok(server: &NetworksServer, tool: &str, args: Value) -> Value {
    dispatch(server, tool, args.clone()).unwrap_or_else(|e| panic!("{tool} {args}: {e}"))
}

fn err(server: &NetworksServer, tool: &str, args: Value, code: &str) -> String {
    let error = dispatch(server, tool, args.clone())
        .map(|v| panic!("{tool} {args} should fail: {v}"))
        .unwrap_err();
    assert_eq!(error["code"], code, "{error}");
    error["error"].as_str().unwrap().to_string()
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// Every member of the first group of `tool(args)` (a group list whose
/// `field` lists members), read through its `members_page`s; also the cycle
/// nodes when `cycle`. Each page is checked to say how to go on.
fn all_members(
    server: &NetworksServer,
    tool: &str,
    args: Value,
    field: &str,
) -> (usize, Vec<String>, Vec<String>, usize) {
    let first = ok(server, tool, args.clone());
    let group = &first["groups"][0];
    let size = group["size"].as_u64().unwrap() as usize;
    let mut members = strings(&group[field]);
    let mut cycle = group.get("cycle_node_ids").map(strings).unwrap_or_default();
    let mut token = group["members_page"].as_str().map(String::from);
    let more = first["more"].as_str().unwrap_or_default();
    if token.is_some() {
        assert!(more.contains("members_page"), "{more}");
    }
    let mut pages = 1;
    while let Some(members_page) = token {
        let mut next = args.clone();
        next["members_page"] = json!(members_page);
        let page = ok(server, tool, next);
        let groups = page["groups"].as_array().unwrap();
        assert_eq!(groups.len(), 1, "a members page shows its one group");
        assert_eq!(groups[0]["size"], size);
        assert!(page.get("next_cursor").is_none());
        members.extend(strings(&groups[0][field]));
        cycle.extend(
            groups[0]
                .get("cycle_node_ids")
                .map(strings)
                .unwrap_or_default(),
        );
        token = groups[0]["members_page"].as_str().map(String::from);
        assert_eq!(page["truncated"], token.is_some(), "{}", page["more"]);
        if token.is_some() {
            assert!(
                page["more"].as_str().unwrap().contains("members_page"),
                "{}",
                page["more"]
            );
        }
        pages += 1;
        assert!(pages < 1_000, "{tool} does not end");
    }
    (size, members, cycle, pages)
}

fn assert_each_once(listed: &[String], expected: &[String]) {
    let unique: HashSet<&String> = listed.iter().collect();
    assert_eq!(unique.len(), listed.len(), "a member was listed twice");
    assert_eq!(listed, expected);
}

#[test]
fn a_weak_component_larger_than_the_largest_page_lists_every_member_once() {
    let (server, registry) = server(10);
    // One weak component of 13,000 nodes, and a few small ones after it.
    let mut net = ring(5_000, 4_000);
    net.add_nodes(["lone1", "lone2"]).unwrap();
    let order: Vec<String> = net
        .node_indices()
        .map(|n| net.id_at(n).to_string())
        .filter(|id| !id.starts_with("lone"))
        .collect();
    registry.insert("deps", net).unwrap();
    for per_group in [MAX_GROUP, 3_000] {
        let args =
            json!({"network_name": "deps", "method": "weak", "max_nodes_per_group": per_group});
        let first = ok(&server, "network_communities", args.clone());
        let more = first["more"].as_str().unwrap();
        assert_eq!(
            more.contains("raise max_nodes_per_group"),
            per_group < MAX_GROUP,
            "{more}"
        );
        let (size, members, _, pages) =
            all_members(&server, "network_communities", args, "node_ids");
        assert_eq!(size, 13_000);
        assert_eq!(pages, 13_000usize.div_ceil(per_group));
        assert_each_once(&members, &order);
    }
}

#[test]
fn a_strong_component_larger_than_the_largest_page_lists_its_members_and_cycle() {
    let (server, registry) = server(10);
    registry.insert("deps", ring(10_500, 10)).unwrap();
    let cycle: Vec<String> = (0..10_500).map(|i| format!("c{i}")).collect();
    // Strong components through network_communities...
    let args =
        json!({"network_name": "deps", "method": "strong", "max_nodes_per_group": MAX_GROUP});
    let (size, members, _, pages) = all_members(&server, "network_communities", args, "node_ids");
    assert_eq!((size, pages), (10_500, 2));
    assert_each_once(&members, &cycle);
    // ...and network_find_cycles, whose cycle pages beside the members.
    for per_group in [MAX_GROUP, 4_000] {
        let args = json!({"network_name": "deps", "max_nodes_per_group": per_group});
        let (size, members, witness, _) =
            all_members(&server, "network_find_cycles", args, "node_ids");
        assert_eq!(size, 10_500);
        assert_each_once(&members, &cycle);
        assert_eq!(witness.len(), 10_500);
        assert_eq!(witness.iter().collect::<HashSet<_>>().len(), 10_500);
    }
}

#[test]
fn network_list_pages_past_its_largest_page() {
    let (server, registry) = server(3_000);
    let mut names: Vec<String> = (0..2_345).map(|i| format!("net-{i}")).collect();
    for name in &names {
        registry.create(name, None).unwrap();
    }
    names.sort();
    let mut listed = Vec::new();
    let mut args = json!({"limit": 1_000});
    let mut pages = 0;
    loop {
        let page = ok(&server, "network_list", args.clone());
        assert_eq!(page["total"], 2_345);
        listed.extend(
            page["networks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n["name"].as_str().unwrap().to_string()),
        );
        pages += 1;
        match page["next_cursor"].as_str() {
            Some(cursor) => {
                assert_eq!(page["truncated"], true);
                // At its maximum, limit is not what to raise.
                let more = page["more"].as_str().unwrap();
                assert!(
                    more.contains("next_cursor") && !more.contains("raise"),
                    "{more}"
                );
                args["cursor"] = json!(cursor);
            }
            None => {
                assert_eq!(page["truncated"], false);
                break;
            }
        }
    }
    assert_eq!(pages, 3);
    assert_each_once(&listed, &names);
}

#[test]
fn describe_pages_through_sources_and_sinks_past_its_largest_page() {
    let (server, registry) = server(10);
    registry.insert("dag", star(12_345, 10_500)).unwrap();
    let sources: Vec<String> = (0..12_345).map(|i| format!("s{i}")).collect();
    let sinks: Vec<String> = (0..10_500).map(|i| format!("t{i}")).collect();
    for list_limit in [MAX_GROUP, 5_000] {
        let mut args = json!({"network_name": "dag", "list_limit": list_limit});
        let (mut got_sources, mut got_sinks) = (Vec::new(), Vec::new());
        let mut pages = 0;
        loop {
            let page = ok(&server, "network_describe", args.clone());
            assert_eq!(
                (page["source_count"].as_u64(), page["sink_count"].as_u64()),
                (Some(12_345), Some(10_500))
            );
            got_sources.extend(strings(&page["sources"]));
            got_sinks.extend(strings(&page["sinks"]));
            pages += 1;
            let Some(cursor) = page["next_cursor"].as_str() else {
                assert_eq!(page["truncated"], false);
                break;
            };
            assert_eq!(page["truncated"], true);
            let more = page["more"].as_str().unwrap();
            assert_eq!(
                more.contains("raise list_limit"),
                list_limit < MAX_GROUP,
                "{more}"
            );
            args["cursor"] = json!(cursor);
        }
        assert_eq!(pages, 12_345usize.div_ceil(list_limit));
        assert_each_once(&got_sources, &sources);
        assert_each_once(&got_sinks, &sinks);
    }
}

#[test]
fn a_write_between_pages_refuses_the_cursor() {
    let (server, registry) = server(10);
    registry.insert("deps", ring(50, 0)).unwrap();
    registry.insert("dag", star(30, 30)).unwrap();
    let groups = json!({"network_name": "deps", "method": "weak", "max_nodes_per_group": 10});
    let first = ok(&server, "network_communities", groups.clone());
    let members_page = first["groups"][0]["members_page"]
        .as_str()
        .unwrap()
        .to_string();
    let cycles = json!({"network_name": "deps", "max_nodes_per_group": 10});
    let first = ok(&server, "network_find_cycles", cycles.clone());
    let cycle_page = first["groups"][0]["members_page"]
        .as_str()
        .unwrap()
        .to_string();
    let describe = json!({"network_name": "dag", "list_limit": 10});
    let sources_cursor = ok(&server, "network_describe", describe.clone())["next_cursor"]
        .as_str()
        .unwrap()
        .to_string();
    let list = ok(&server, "network_list", json!({"limit": 1}));
    let list_cursor = list["next_cursor"].as_str().unwrap().to_string();

    // Passed as the other kind of cursor: refused, saying which is which.
    let mut wrong = groups.clone();
    wrong["cursor"] = json!(members_page);
    let message = err(&server, "network_communities", wrong, "invalid_value");
    assert!(message.contains("pass it as members_page"), "{message}");
    let mut wrong = describe.clone();
    wrong["members_page"] = json!(sources_cursor);
    err(&server, "network_describe", wrong, "invalid_arguments");
    let mut both = groups.clone();
    both["members_page"] = json!(members_page);
    both["cursor"] = json!(list_cursor);
    err(&server, "network_communities", both, "invalid_value");

    // A write to each network, and a network created.
    ok(
        &server,
        "network_add_node",
        json!({"network_name": "deps", "node_id": "new"}),
    );
    ok(
        &server,
        "network_add_node",
        json!({"network_name": "dag", "node_id": "new"}),
    );
    ok(
        &server,
        "network_create",
        json!({"network_name": "another"}),
    );

    let mut stale = groups;
    stale["members_page"] = json!(members_page);
    let message = err(&server, "network_communities", stale, "cursor_stale");
    assert!(message.contains("changed since"), "{message}");
    let mut stale = cycles;
    stale["members_page"] = json!(cycle_page);
    err(&server, "network_find_cycles", stale, "cursor_stale");
    let mut stale = describe;
    stale["cursor"] = json!(sources_cursor);
    err(&server, "network_describe", stale, "cursor_stale");
    let message = err(
        &server,
        "network_list",
        json!({"limit": 1, "cursor": list_cursor}),
        "invalid_value",
    );
    assert!(message.contains("created or deleted"), "{message}");
}

/// The phrases of advice that tell the caller to raise a parameter.
fn raised(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    lower
        .match_indices("raise ")
        .map(|(at, phrase)| {
            lower[at + phrase.len()..]
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

fn every_string(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(text) => out.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|v| every_string(v, out)),
        Value::Object(map) => map.values().for_each(|v| every_string(v, out)),
        _ => {}
    }
}

/// Each tool whose schema gives a parameter a maximum, called with every such
/// parameter at it on networks big enough to cut every list at it: no reply
/// and no error tells to raise a parameter already at its maximum.
#[test]
fn no_advice_raises_a_parameter_past_its_maximum() {
    let (server, registry) = server(2_000);
    // "big": one strong component of 10,500 and 21,000 leaves; "dag": a
    // star of 12,000 sources and 11,000 sinks; "empty" to compare with; and
    // more networks than network_list's largest page.
    registry.insert("big", ring(10_500, 11_000)).unwrap();
    registry.insert("dag", star(12_000, 11_000)).unwrap();
    registry.create("empty", None).unwrap();
    for i in 0..1_005 {
        registry.create(&format!("e{i}"), None).unwrap();
    }
    // What each tool needs besides its bounded parameters; the networks it is
    // called on come first.
    let base: BTreeMap<&str, Value> = [
        ("network_ancestors", json!({"node_id": "c0"})),
        ("network_descendants", json!({"node_id": "c0"})),
        ("network_centrality", json!({"measure": "pagerank"})),
        ("network_changes", json!({"since_version": 0})),
        ("network_communities", json!({"method": "weak"})),
        (
            "network_copy",
            json!({"into": "copy", "method": "neighborhood", "node_ids": ["c0"]}),
        ),
        ("network_critical_path", json!({})),
        ("network_describe", json!({})),
        ("network_diff", json!({"other": "empty"})),
        ("network_export", json!({"format": "edge_list_csv"})),
        ("network_find_cycles", json!({})),
        ("network_get_neighbors", json!({"node_id": "c0"})),
        ("network_list", json!({})),
        ("network_list_edges", json!({})),
        ("network_list_nodes", json!({})),
        (
            "network_paths",
            json!({"source": "s0", "target": "t0", "method": "all_simple"}),
        ),
        ("network_plan_progress", json!({})),
        ("network_why_blocked", json!({"node_id": "c0"})),
        ("network_ready_nodes", json!({})),
        ("network_search", json!({"query": "t"})),
        ("network_query", json!({"query": "MATCH (n) RETURN n.id"})),
        (
            "network_structure",
            json!({"method": "articulation_points"}),
        ),
        ("network_topological_sort", json!({})),
        ("network_traverse", json!({"start_node_ids": ["c0"]})),
        ("network_visualize", json!({})),
        // Writes that claim tasks: called last.
        ("network_claim_ready", json!({"worker": "w"})),
    ]
    .into_iter()
    .collect();
    // Tools bounded by a schema maximum that give no advice on their bounds.
    let skipped = ["network_renew_claim"];
    let mut replies = BTreeMap::new();
    let tools = server.listed_tools();
    let (writes, reads): (Vec<_>, Vec<_>) =
        tools.iter().partition(|t| t.name == "network_claim_ready");
    for tool in reads.into_iter().chain(writes) {
        let name = tool.name.to_string();
        let properties = tool
            .input_schema
            .get("properties")
            .and_then(Value::as_object);
        let maxima: BTreeMap<String, Value> = properties
            .into_iter()
            .flatten()
            .filter_map(|(key, schema)| Some((key.clone(), schema.get("maximum")?.clone())))
            .collect();
        if maxima.is_empty() || skipped.contains(&name.as_str()) {
            continue;
        }
        let extra = base
            .get(name.as_str())
            .unwrap_or_else(|| panic!("{name} has a bounded parameter: add it to this test"));
        let on: &[Option<&str>] = if properties.is_some_and(|p| p.contains_key("network_name")) {
            &[Some("big"), Some("dag")]
        } else {
            &[None]
        };
        for network in on {
            let mut args = extra.clone();
            if let Some(network) = network {
                args["network_name"] = json!(network);
            }
            if name == "network_copy" {
                args["into"] = json!(format!("copy-{}", network.unwrap_or_default()));
            }
            for (key, maximum) in &maxima {
                args[key] = maximum.clone();
            }
            let reply = match dispatch(&server, &name, args.clone()) {
                Ok(reply) | Err(reply) => reply,
            };
            let mut texts = Vec::new();
            every_string(&reply, &mut texts);
            for text in texts {
                for param in raised(&text) {
                    assert!(
                        !maxima.contains_key(&param),
                        "{name} {args}: advises raising {param}, already at its maximum: {text}"
                    );
                }
            }
            replies.insert((name.clone(), network.unwrap_or_default()), reply);
        }
    }
    assert!(replies.len() >= 40, "{} calls", replies.len());
    // The replies cut at a maximum still say how to get the rest.
    for (tool, network, advice) in [
        ("network_find_cycles", "big", "members_page"),
        ("network_communities", "big", "members_page"),
        ("network_describe", "big", "next_cursor"),
        ("network_describe", "dag", "next_cursor"),
        ("network_ready_nodes", "big", "network_copy"),
        ("network_descendants", "big", "next_cursor"),
        ("network_visualize", "big", "node_id"),
        ("network_list", "", "next_cursor"),
    ] {
        let reply = &replies[&(tool.to_string(), network)];
        let more = reply["more"].as_str().unwrap_or_default();
        assert!(more.contains(advice), "{tool} on {network}: {reply}");
    }
}

#[test]
fn a_debian_sized_weak_component_lists_whole() {
    let (server, registry) = server(10);
    registry
        .insert(
            "debian",
            crate::common::debian_like::debian_like(68_039, 299_086, true),
        )
        .unwrap();
    let args =
        json!({"network_name": "debian", "method": "weak", "max_nodes_per_group": MAX_GROUP});
    let (size, members, _, pages) = all_members(&server, "network_communities", args, "node_ids");
    assert!(size > MAX_GROUP, "{size}");
    assert_eq!(members.len(), size);
    assert_eq!(members.iter().collect::<HashSet<_>>().len(), size);
    assert_eq!(pages, size.div_ceil(MAX_GROUP));
}
