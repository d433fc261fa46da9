//! `network_import` of the dependency graphs package managers write (`cargo
//! metadata`, npm's `package-lock.json`, `go mod graph`, `pipdeptree --json`),
//! from the real outputs under `tests/fixtures/`: the nodes, typed edges and
//! attributes each becomes, and the refusals of broken or hostile documents.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::{Client, connect, err, ok};
use networks_mcp::limits::Limits;
use networks_mcp::mcp::ServerOptions;
use serde_json::{Map, Value, json};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{FIXTURES}/{name}")).unwrap()
}

async fn import(client: &Client, name: &str, format: &str, content: &str) -> Value {
    ok(
        client,
        "network_import",
        json!({"network_name": name, "format": format, "content": content}),
    )
    .await
}

/// Nodes by id, and edges as `source → target [relation]` with their other
/// attributes.
type Graph = (
    BTreeMap<String, Map<String, Value>>,
    Vec<(String, String, String, Map<String, Value>)>,
);

async fn read_back(client: &Client, name: &str) -> Graph {
    let out = ok(
        client,
        "network_export",
        json!({"network_name": name, "format": "node_link_json", "limit": 10000}),
    )
    .await;
    let doc: Value = serde_json::from_str(out["content"].as_str().unwrap()).unwrap();
    let nodes = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            let mut n = n.as_object().unwrap().clone();
            let id = n.remove("id").unwrap().as_str().unwrap().to_string();
            (id, n)
        })
        .collect();
    let edges = doc["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let mut e = e.as_object().unwrap().clone();
            for key in ["weight", "key"] {
                e.remove(key);
            }
            let take = |e: &mut Map<String, Value>, k: &str| {
                e.remove(k)
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            };
            let source = take(&mut e, "source");
            let target = take(&mut e, "target");
            let relation = take(&mut e, "relation");
            (source, target, relation, e)
        })
        .collect();
    (nodes, edges)
}

fn triples(edges: &[(String, String, String, Map<String, Value>)]) -> BTreeSet<(&str, &str, &str)> {
    edges
        .iter()
        .map(|(s, t, r, _)| (s.as_str(), t.as_str(), r.as_str()))
        .collect()
}

async fn ancestors(client: &Client, name: &str, node: &str) -> BTreeSet<String> {
    let out = ok(
        client,
        "network_ancestors",
        json!({"network_name": name, "node_id": node, "limit": 1000}),
    )
    .await;
    out["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["node_id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn cargo_metadata_of_a_workspace() {
    let (client, _) = connect(ServerOptions::default()).await;
    let out = import(
        &client,
        "crates",
        "cargo_metadata",
        &fixture("cargo_metadata.json"),
    )
    .await;
    assert!(
        out["reading"]
            .as_str()
            .unwrap()
            .contains("package depends on it"),
        "{out}"
    );
    let (nodes, edges) = read_back(&client, "crates").await;
    let ids: Vec<&str> = nodes.keys().map(String::as_str).collect();
    assert_eq!(
        ids,
        [
            "autocfg@1.5.1",
            "cfg-if@1.0.5",
            "fixture-app@0.1.0",
            "fixture-util@0.2.0",
            "hashbrown@0.14.5",
            "hashbrown@0.15.5",
            "libc@0.2.191"
        ]
    );
    let app = &nodes["fixture-app@0.1.0"];
    assert_eq!(app["workspace_member"], true);
    assert_eq!(app["name"], "fixture-app");
    assert_eq!(app["features"], "default,fast");
    assert_eq!(app["declared_features"], "default,extra,fast");
    assert_eq!(app["edition"], "2021");
    assert!(app.get("source").is_none(), "a path package has no source");
    assert_eq!(nodes["fixture-util@0.2.0"]["workspace_member"], true);
    let hb = &nodes["hashbrown@0.15.5"];
    assert_eq!(hb["workspace_member"], false);
    assert_eq!(
        hb["source"],
        "registry+https://github.com/rust-lang/crates.io-index"
    );
    assert!(hb.get("features").is_none(), "no features enabled: {hb:?}");
    let want: BTreeSet<(&str, &str, &str)> = [
        ("fixture-app@0.1.0", "autocfg@1.5.1", "build"),
        ("fixture-app@0.1.0", "cfg-if@1.0.5", "dev"),
        ("fixture-app@0.1.0", "fixture-util@0.2.0", "normal"),
        ("fixture-app@0.1.0", "hashbrown@0.14.5", "normal"),
        ("fixture-app@0.1.0", "libc@0.2.191", "normal"),
        ("fixture-util@0.2.0", "cfg-if@1.0.5", "normal"),
        ("fixture-util@0.2.0", "hashbrown@0.15.5", "normal"),
    ]
    .into();
    assert_eq!(triples(&edges), want);
    assert_eq!(edges.len(), 7);
    let libc = edges.iter().find(|e| e.1 == "libc@0.2.191").unwrap();
    assert_eq!(libc.3["platform"], "cfg(unix)");
    // What depends on the newer hashbrown: the crate that asks for it, and
    // the one that depends on that.
    assert_eq!(
        ancestors(&client, "crates", "hashbrown@0.15.5").await,
        ["fixture-app@0.1.0".to_string(), "fixture-util@0.2.0".into()].into()
    );
    assert_eq!(
        ancestors(&client, "crates", "hashbrown@0.14.5").await,
        ["fixture-app@0.1.0".to_string()].into()
    );
    // Only the normal dependencies: the dev-dependency is not followed.
    let out = ok(
        &client,
        "network_ancestors",
        json!({"network_name": "crates", "node_id": "cfg-if@1.0.5", "relations": ["normal"]}),
    )
    .await;
    let up: Vec<&str> = out["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["node_id"].as_str().unwrap())
        .collect();
    assert_eq!(up, ["fixture-util@0.2.0", "fixture-app@0.1.0"]);
}

/// Two packages of one name and version from different sources keep their
/// package ids; `--no-deps` output imports its packages and says why there are
/// no edges.
#[tokio::test]
async fn cargo_metadata_ids_stay_unique_and_no_deps_is_told() {
    let (client, _) = connect(ServerOptions::default()).await;
    let doc = json!({
        "version": 1,
        "packages": [
            {"id": "registry+https://x#a@1.0.0", "name": "a", "version": "1.0.0"},
            {"id": "git+https://y#a@1.0.0", "name": "a", "version": "1.0.0"},
            {"id": "path+file:///w#w@0.1.0", "name": "w", "version": "0.1.0"}
        ],
        "workspace_members": ["path+file:///w#w@0.1.0"],
        "resolve": {"nodes": [
            {"id": "path+file:///w#w@0.1.0", "features": [], "deps": [
                {"name": "a", "pkg": "git+https://y#a@1.0.0", "dep_kinds": [{"kind": null, "target": null}, {"kind": "dev", "target": null}]}
            ]},
            {"id": "registry+https://x#a@1.0.0", "deps": []},
            {"id": "git+https://y#a@1.0.0", "deps": []}
        ]}
    });
    import(&client, "two", "cargo_metadata", &doc.to_string()).await;
    let (nodes, edges) = read_back(&client, "two").await;
    assert_eq!(
        nodes.keys().collect::<Vec<_>>(),
        [
            "git+https://y#a@1.0.0",
            "registry+https://x#a@1.0.0",
            "w@0.1.0"
        ]
    );
    assert_eq!(
        triples(&edges),
        [
            ("w@0.1.0", "git+https://y#a@1.0.0", "dev"),
            ("w@0.1.0", "git+https://y#a@1.0.0", "normal")
        ]
        .into()
    );
    let mut no_deps = doc.clone();
    no_deps["resolve"] = Value::Null;
    let out = import(&client, "nodeps", "cargo_metadata", &no_deps.to_string()).await;
    assert_eq!(
        (out["node_count"].as_u64(), out["edge_count"].as_u64()),
        (Some(3), Some(0))
    );
    let warning = out["warnings"][0]["message"].as_str().unwrap();
    assert!(warning.contains("--no-deps"), "{warning}");
}

#[tokio::test]
async fn npm_lockfile_resolves_as_npm_does() {
    let (client, _) = connect(ServerOptions::default()).await;
    let out = import(
        &client,
        "npm",
        "package_lock_json",
        &fixture("package-lock.json"),
    )
    .await;
    assert!(
        out["reading"].as_str().unwrap().contains("npm resolves"),
        "{out}"
    );
    let (nodes, edges) = read_back(&client, "npm").await;
    let ids: BTreeSet<&str> = nodes.keys().map(String::as_str).collect();
    assert_eq!(
        ids,
        [
            "fixture-lib@0.3.0",
            "fixture-npm@1.0.0",
            "is-buffer@1.1.6",
            "is-even@1.0.0",
            "is-number@3.0.0",
            "is-number@6.0.0",
            "is-number@7.0.0",
            "is-odd@0.1.2",
            "is-odd@3.0.1",
            "kind-of@3.2.2"
        ]
        .into()
    );
    let root = &nodes["fixture-npm@1.0.0"];
    assert_eq!(root["root"], true);
    assert!(root.get("path").is_none());
    let lib = &nodes["fixture-lib@0.3.0"];
    assert_eq!(lib["workspace_member"], true);
    assert_eq!(lib["path"], "packages/lib");
    assert_eq!(
        nodes["is-number@3.0.0"]["path"],
        "node_modules/is-even/node_modules/is-number"
    );
    assert_eq!(nodes["is-number@3.0.0"]["optional"], true);
    assert_eq!(
        nodes["is-number@7.0.0"].get("dev"),
        None,
        "the workspace needs it too"
    );
    let want: BTreeSet<(&str, &str, &str)> = [
        ("fixture-npm@1.0.0", "fixture-lib@0.3.0", "workspace"),
        ("fixture-npm@1.0.0", "is-odd@3.0.1", "prod"),
        ("fixture-npm@1.0.0", "is-number@7.0.0", "dev"),
        ("is-even@1.0.0", "is-odd@0.1.2", "prod"),
        // From node_modules/is-even/node_modules/is-odd, the nearest
        // is-number is its sibling under is-even, not the top-level one.
        ("is-odd@0.1.2", "is-number@3.0.0", "prod"),
        ("is-number@3.0.0", "kind-of@3.2.2", "prod"),
        ("kind-of@3.2.2", "is-buffer@1.1.6", "prod"),
        ("is-odd@3.0.1", "is-number@6.0.0", "prod"),
        ("fixture-lib@0.3.0", "is-number@7.0.0", "prod"),
        ("fixture-lib@0.3.0", "is-even@1.0.0", "optional"),
        ("fixture-lib@0.3.0", "is-odd@3.0.1", "peer"),
    ]
    .into();
    assert_eq!(triples(&edges), want);
    assert_eq!(edges.len(), want.len());
    let peer = edges.iter().find(|e| e.2 == "peer").unwrap();
    assert_eq!(peer.3["spec"], "^3.0.0");
    assert_eq!(
        ancestors(&client, "npm", "is-number@6.0.0").await,
        [
            "is-odd@3.0.1".to_string(),
            "fixture-npm@1.0.0".into(),
            "fixture-lib@0.3.0".into()
        ]
        .into()
    );
}

/// A name the tree does not hold is counted in a warning; a link resolves to
/// its target; a peer marked optional is `peerOptional`.
#[tokio::test]
async fn npm_links_missing_and_optional_peers() {
    let (client, _) = connect(ServerOptions::default()).await;
    let doc = json!({
        "name": "app", "version": "1.0.0", "lockfileVersion": 3,
        "packages": {
            "": {"name": "app", "version": "1.0.0", "dependencies": {"tool": "file:../tool", "x": "^1"},
                 "peerDependencies": {"react": "*", "vue": "*"},
                 "peerDependenciesMeta": {"vue": {"optional": true}}},
            "node_modules/tool": {"resolved": "../tool", "link": true},
            "../tool": {"name": "tool", "version": "0.0.1", "dependencies": {"x": "^1"}},
            "node_modules/x": {"version": "1.2.3"},
            "node_modules/vue": {"version": "3.0.0", "peer": true}
        }
    });
    let out = import(&client, "links", "package_lock_json", &doc.to_string()).await;
    let (nodes, edges) = read_back(&client, "links").await;
    assert!(
        nodes["tool@0.0.1"].get("workspace_member").is_none(),
        "a file: dependency is no workspace"
    );
    assert_eq!(nodes["vue@3.0.0"]["peer"], true);
    assert_eq!(
        triples(&edges),
        [
            ("app@1.0.0", "tool@0.0.1", "prod"),
            ("app@1.0.0", "x@1.2.3", "prod"),
            ("app@1.0.0", "vue@3.0.0", "peerOptional"),
            ("tool@0.0.1", "x@1.2.3", "prod"),
        ]
        .into()
    );
    let warning = out["warnings"][0]["message"].as_str().unwrap();
    assert!(warning.contains("1 peer"), "{warning}");
}

#[tokio::test]
async fn go_mod_graph_of_modules() {
    let (client, _) = connect(ServerOptions::default()).await;
    let out = import(&client, "go", "go_mod_graph", &fixture("go_mod_graph.txt")).await;
    assert_eq!(
        (out["node_count"].as_u64(), out["edge_count"].as_u64()),
        (Some(5), Some(5))
    );
    let (nodes, edges) = read_back(&client, "go").await;
    let main = &nodes["example.com/app"];
    assert_eq!(main["main_module"], true);
    assert_eq!(main["path"], "example.com/app");
    assert!(main.get("version").is_none());
    let util = &nodes["example.com/util@v0.2.0"];
    assert_eq!(
        (&util["path"], &util["version"]),
        (&json!("example.com/util"), &json!("v0.2.0"))
    );
    assert!(util.get("main_module").is_none());
    let lines: BTreeSet<(String, String, String)> = fixture("go_mod_graph.txt")
        .lines()
        .map(|l| {
            let (a, b) = l.split_once(' ').unwrap();
            (a.to_string(), b.to_string(), "requires".to_string())
        })
        .collect();
    let got: BTreeSet<(String, String, String)> = edges
        .iter()
        .map(|(s, t, r, _)| (s.clone(), t.clone(), r.clone()))
        .collect();
    assert_eq!(got, lines);
    assert_eq!(
        ancestors(&client, "go", "example.com/extra@v0.1.0").await,
        [
            "example.com/app".to_string(),
            "example.com/util@v0.3.0".into()
        ]
        .into()
    );
    // Since Go 1.21 the go and toolchain versions are requirements too.
    import(
        &client,
        "go121",
        "go_mod_graph",
        "example.com/m go@1.22.0\ngo@1.22.0 toolchain@go1.22.0\r\n\n",
    )
    .await;
    let (nodes, _) = read_back(&client, "go121").await;
    assert_eq!(nodes["toolchain@go1.22.0"]["path"], "toolchain");
}

#[tokio::test]
async fn pipdeptree_flat_and_nested_forms_agree() {
    let (client, _) = connect(ServerOptions::default()).await;
    let flat_doc = fixture("pipdeptree.json");
    import(&client, "flat", "pipdeptree_json", &flat_doc).await;
    import(
        &client,
        "tree",
        "pipdeptree_json",
        &fixture("pipdeptree_tree.json"),
    )
    .await;
    let (flat_nodes, flat_edges) = read_back(&client, "flat").await;
    let (tree_nodes, tree_edges) = read_back(&client, "tree").await;
    // The oracle: the flat document itself, entry by entry.
    let doc: Value = serde_json::from_str(&flat_doc).unwrap();
    let mut want = BTreeSet::new();
    for entry in doc.as_array().unwrap() {
        let key = entry["package"]["key"].as_str().unwrap();
        assert_eq!(
            flat_nodes[key]["version"],
            entry["package"]["installed_version"]
        );
        for dep in entry["dependencies"].as_array().unwrap() {
            want.insert((
                key.to_string(),
                dep["key"].as_str().unwrap().to_string(),
                dep["required_version"].as_str().unwrap().to_string(),
            ));
        }
    }
    let spec = |edges: &[(String, String, String, Map<String, Value>)]| -> BTreeSet<(String, String, String)> {
        edges
            .iter()
            .map(|(s, t, r, a)| {
                assert_eq!(r, "requires");
                (s.clone(), t.clone(), a["required_version"].as_str().unwrap().to_string())
            })
            .collect()
    };
    assert!(!want.is_empty());
    assert_eq!(spec(&flat_edges), want);
    assert_eq!(flat_edges.len(), want.len());
    // The nested form repeats subtrees; each edge is kept once, and the
    // packages reached are the same.
    assert_eq!(spec(&tree_edges), want);
    assert_eq!(tree_edges.len(), want.len());
    assert_eq!(
        tree_nodes.keys().collect::<BTreeSet<_>>(),
        flat_nodes.keys().collect::<BTreeSet<_>>()
    );
    assert_eq!(flat_nodes["pip"]["installed"], true);
    assert_eq!(flat_nodes["typing-extensions"]["name"], "typing_extensions");
}

/// Broken and hostile documents of each format: refused with the place named,
/// and nothing made.
#[tokio::test]
async fn broken_dependency_graphs_are_refused_with_the_place() {
    let (client, registry) = connect(ServerOptions::default()).await;
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let package = |id: &str| json!({"id": id, "name": "a", "version": "1.0.0"});
    let cases: Vec<(&str, String, &str)> = vec![
        ("cargo_metadata", "{\"packages\": [".into(), "line 1, column"),
        ("cargo_metadata", "[1]".into(), "(root)"),
        ("cargo_metadata", "{\"version\": 2, \"packages\": []}".into(), "version"),
        ("cargo_metadata", "{\"resolve\": null}".into(), "packages"),
        ("cargo_metadata", json!({"packages": [{"id": "x", "name": "a"}]}).to_string(), "packages[0].version"),
        ("cargo_metadata", json!({"packages": [package("x"), package("x")]}).to_string(), "packages[1].id"),
        ("cargo_metadata", json!({"packages": [package("x")], "workspace_members": ["y"]}).to_string(), "workspace_members[0]"),
        ("cargo_metadata", json!({"packages": [package("x")], "resolve": {"nodes": [{"id": "x"}, {"id": "x"}]}}).to_string(), "resolve.nodes[1].id"),
        ("cargo_metadata", json!({"packages": [package("x")], "resolve": {"nodes": [{"id": "x", "deps": [{"pkg": "z", "dep_kinds": []}]}]}}).to_string(), "resolve.nodes[0].deps[0].pkg"),
        ("cargo_metadata", json!({"packages": [package("x")], "resolve": {"nodes": [{"id": "x", "deps": [{"pkg": "x", "dep_kinds": [{"kind": 3}]}]}]}}).to_string(), "dep_kinds[0].kind"),
        ("cargo_metadata", deep.clone(), "line 1, column"),
        ("package_lock_json", "{\"lockfileVersion\": 1, \"dependencies\": {}}".into(), "lockfileVersion"),
        ("package_lock_json", "{\"lockfileVersion\": 3}".into(), "packages"),
        ("package_lock_json", "{\"lockfileVersion\": 3, \"packages\": []}".into(), "line 1, column"),
        ("package_lock_json", "{\"lockfileVersion\": 3, \"packages\": {\"\": {}, \"node_modules/a\": {},\n \"node_modules/a\": {}}}".into(), "line 2, column"),
        ("package_lock_json", "{\"lockfileVersion\": 3, \"packages\": {\"node_modules/a\": 7}}".into(), "packages[\"node_modules/a\"]"),
        ("package_lock_json", "{\"lockfileVersion\": 3, \"packages\": {\"\": {\"dependencies\": [\"a\"]}}}".into(), "packages[\"\"].dependencies"),
        ("package_lock_json", format!("{{\"lockfileVersion\": 3, \"packages\": {{\"{}x\": {{}}}}}}", "node_modules/a/".repeat(200)), "node_modules levels"),
        ("package_lock_json", format!("{{\"lockfileVersion\": 3, \"packages\": {{\"\": {deep}}}}}"), "line 1, column"),
        ("go_mod_graph", "a b c\n".into(), "line 1"),
        ("go_mod_graph", "a b\nonly\n".into(), "line 2"),
        ("go_mod_graph", "a@v1 @v2\n".into(), "line 1"),
        ("go_mod_graph", "a b@v1@v2\n".into(), "line 1"),
        ("go_mod_graph", "a b@v1\n\nc d\na b@v1\n".into(), "line 4"),
        ("pipdeptree_json", "{\"package\": {}}".into(), "(root)"),
        ("pipdeptree_json", "[{\"package\": {\"key\": \"a\"}}, {\"package\": {\"key\": \"a\"}}]".into(), "[1].package.key"),
        ("pipdeptree_json", "[{\"package\": {\"key\": 3}}]".into(), "[0].package.key"),
        ("pipdeptree_json", "[{\"package\": {\"key\": \"a\"}, \"dependencies\": [{\"key\": \"b\", \"required_version\": 2}]}]".into(), "[0].dependencies[0].required_version"),
        ("pipdeptree_json", "[{\"key\": \"a\", \"dependencies\": [{\"key\": \"b\", \"dependencies\": [{\"package\": {}}]}]}]".into(), "[0], 2 levels down, dependencies[0]"),
        ("pipdeptree_json", deep.clone(), "line 1, column"),
    ];
    for (format, content, place) in cases {
        let out = err(
            &client,
            "network_import",
            json!({"network_name": "bad", "format": format, "content": content}),
            "invalid_import",
        )
        .await;
        let text = out.to_string();
        assert!(
            text.contains(&place.replace('"', "\\\"")),
            "{format}: want {place} in {out}"
        );
    }
    assert!(
        registry.names().is_empty(),
        "a refused import made a network"
    );
    // arrows: the formats define their direction.
    err(
        &client,
        "network_import",
        json!({"network_name": "bad", "format": "go_mod_graph", "content": "a b\n", "arrows": "before"}),
        "invalid_value",
    )
    .await;
}

/// Counts past the import bounds are refused before the graph is made.
#[tokio::test]
async fn huge_dependency_graphs_are_refused_at_the_bounds() {
    let options = ServerOptions {
        limits: Limits {
            max_import_edges: 100,
            ..Limits::default()
        },
        ..ServerOptions::default()
    };
    let (client, registry) = connect(options).await;
    let go: String = (0..101).map(|i| format!("m m{i}@v1.0.0\n")).collect();
    let pip = json!([{"package": {"key": "a"}, "dependencies": (0..101).map(|i| json!({"key": format!("d{i}")})).collect::<Vec<_>>()}]).to_string();
    let packages: Vec<Value> = (0..101)
        .map(|i| json!({"id": format!("p{i}"), "name": format!("p{i}"), "version": "1.0.0"}))
        .collect();
    let deps: Vec<Value> = (0..101).map(|i| json!({"pkg": format!("p{i}")})).collect();
    let cargo = json!({"packages": packages, "resolve": {"nodes": [{"id": "p0", "deps": deps}]}})
        .to_string();
    let mut lock = Map::new();
    let mut root_deps = Map::new();
    for i in 0..101 {
        lock.insert(format!("node_modules/d{i}"), json!({"version": "1.0.0"}));
        root_deps.insert(format!("d{i}"), json!("1"));
    }
    lock.insert("".into(), json!({"name": "r", "dependencies": root_deps}));
    let npm = json!({"lockfileVersion": 3, "packages": lock}).to_string();
    for (format, content) in [
        ("go_mod_graph", go),
        ("pipdeptree_json", pip),
        ("cargo_metadata", cargo),
        ("package_lock_json", npm),
    ] {
        let out = err(
            &client,
            "network_import",
            json!({"network_name": "big", "format": format, "content": content}),
            "limit_exceeded",
        )
        .await;
        assert!(
            out.to_string().contains("max-import-edges"),
            "{format}: {out}"
        );
    }
    assert!(registry.names().is_empty());
    // Memory: 2,000 modules with long paths pass the edge bound but not the
    // memory one.
    let options = ServerOptions {
        limits: Limits {
            max_import_bytes: 64 << 10,
            ..Limits::default()
        },
        ..ServerOptions::default()
    };
    let (client, registry) = connect(options).await;
    let long: String = (0..2000)
        .map(|i| format!("{}{i} x@v1\n", "m".repeat(100)))
        .collect();
    let out = err(
        &client,
        "network_import",
        json!({"network_name": "big", "format": "go_mod_graph", "content": long}),
        "limit_exceeded",
    )
    .await;
    assert!(out.to_string().contains("go_mod_graph"), "{out}");
    assert!(registry.names().is_empty());
}
