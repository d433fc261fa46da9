//! Unit tests: every format on one awkward network, exact round trips for the
//! importable formats, induced subgraphs, error locations and atomic apply.

use serde_json::{Map, Value, json};
use std::collections::HashSet;

use super::*;
use crate::network::{EdgeSpec, Network, NodeSpec};

type NodeRow = (String, Option<Value>, Map<String, Value>);
type EdgeRow = (String, String, f64, Map<String, Value>);

fn map(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// Parallel edges, a self-loop, ids with spaces, quotes, backslashes and Unicode,
/// attributes of every scalar type (one attribute with mixed types across nodes).
fn sample() -> Network {
    let mut net = Network::named("sample \"net\"");
    net.set_description(Some("a test\nnetwork <&>".into()));
    net.add_node_with(NodeSpec {
        id: "a b".into(),
        data: None,
        attributes: map(json!({"color": "red", "rank": 3, "score": 1.5, "ok": true, "gone": null})),
    })
    .unwrap();
    net.add_node_with(NodeSpec {
        id: "quote\"d".into(),
        data: Some(json!({"k": [1, 2], "s": "x"})),
        attributes: map(json!({"rank": "three"})),
    })
    .unwrap();
    net.add_node_with(NodeSpec {
        id: "ünï©ødé ✓".into(),
        data: None,
        attributes: map(
            json!({"ok": false, "note": "line1\nline2\t\"q\" <&> 'x' \\ `b` # | ;", "big": 2.0}),
        ),
    })
    .unwrap();
    net.add_node_with(NodeSpec {
        id: "back\\slash\\".into(),
        data: Some(json!("just text")),
        attributes: Map::new(),
    })
    .unwrap();
    net.add_node_with(NodeSpec {
        id: "end".into(),
        data: None,
        attributes: map(json!({"rank": -7})),
    })
    .unwrap();
    net.add_edge_with(EdgeSpec {
        source: "a b".into(),
        target: "quote\"d".into(),
        weight: 2.5,
        attributes: map(json!({"relation": "depends on"})),
    })
    .unwrap();
    net.add_edge("a b", "quote\"d", 1.0).unwrap();
    net.add_edge_with(EdgeSpec {
        source: "ünï©ødé ✓".into(),
        target: "ünï©ødé ✓".into(),
        weight: -0.5,
        attributes: map(json!({"n": 7, "flag": true})),
    })
    .unwrap();
    net.add_edge_with(EdgeSpec {
        source: "back\\slash\\".into(),
        target: "end".into(),
        weight: 1e-7,
        attributes: map(json!({"relation": "we`ird|rel", "x": null, "label": "l\"1"})),
    })
    .unwrap();
    net.add_edge_with(EdgeSpec {
        source: "end".into(),
        target: "a b".into(),
        weight: 3.0,
        attributes: map(json!({"n": "seven"})),
    })
    .unwrap();
    net
}

fn nodes_of(net: &Network) -> Vec<NodeRow> {
    net.node_ids()
        .map(|id| {
            let node = net.node(id).unwrap();
            (
                id.to_string(),
                node.data.as_deref().cloned(),
                node.attributes.to_map(),
            )
        })
        .collect()
}

fn edges_of(net: &Network) -> Vec<EdgeRow> {
    let mut edges = net.edges_of(None);
    edges.sort_by_key(|e| e.id);
    edges
        .into_iter()
        .map(|e| {
            (
                e.source.to_string(),
                e.target.to_string(),
                e.weight,
                e.attributes.to_map(),
            )
        })
        .collect()
}

fn without_nulls(mut m: Map<String, Value>) -> Map<String, Value> {
    m.retain(|_, v| !v.is_null());
    m
}

fn round_trip(net: &Network, format: Format) -> Network {
    let text = export(net, format, None);
    let graph = parse(format, &text).unwrap_or_else(|e| panic!("{format:?}: {e}\n{text}"));
    let mut copy = Network::new();
    apply(&mut copy, graph).unwrap();
    copy
}

#[test]
fn format_names_extensions_and_import_support() {
    for format in Format::ALL {
        assert_eq!(Format::parse(format.name()), Some(format));
        if format.can_export() {
            assert_eq!(Format::from_extension(format.extension()), Some(format));
        }
        let json = serde_json::to_value(format).unwrap();
        assert_eq!(json, json!(format.name()));
    }
    assert_eq!(Format::from_extension(".GV"), Some(Format::Dot));
    assert_eq!(Format::from_extension("xml"), Some(Format::Graphml));
    assert_eq!(Format::from_extension("cql"), Some(Format::Cypher));
    assert_eq!(Format::from_extension("txt"), None);
    assert_eq!(Format::parse("yaml"), None);
    let importable: Vec<_> = Format::ALL.into_iter().filter(|f| f.can_import()).collect();
    assert_eq!(
        importable,
        [
            Format::NodeLinkJson,
            Format::Graphml,
            Format::Dot,
            Format::Mermaid,
            Format::EdgeListCsv,
            Format::TaskmasterJson,
            Format::BeadsJsonl,
            Format::MemoryJsonl,
            Format::CargoMetadata,
            Format::PackageLockJson,
            Format::GoModGraph,
            Format::PipdeptreeJson,
        ]
    );
    let exportable: Vec<_> = Format::ALL.into_iter().filter(|f| f.can_export()).collect();
    assert_eq!(exportable, Format::EXPORTABLE);
    let err = parse(Format::Cypher, "MERGE (n:Node {id: 'a'});").unwrap_err();
    assert_eq!(err.code(), "invalid_import");
    assert!(export(&Network::new(), Format::BeadsJsonl, None).is_empty());
}

#[test]
fn node_link_json_round_trips_exactly() {
    let net = sample();
    let copy = round_trip(&net, Format::NodeLinkJson);
    assert_eq!(nodes_of(&copy), nodes_of(&net));
    assert_eq!(edges_of(&copy), edges_of(&net));
    assert_eq!(copy.description(), net.description());
}

#[test]
fn node_link_json_shape_matches_networkx() {
    let text = export(&sample(), Format::NodeLinkJson, None);
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["directed"], json!(true));
    assert_eq!(doc["multigraph"], json!(true));
    assert_eq!(doc["graph"]["name"], json!("sample \"net\""));
    assert_eq!(doc["nodes"][0]["id"], json!("a b"));
    assert_eq!(doc["nodes"][0]["rank"], json!(3));
    assert_eq!(doc["nodes"][1]["data"], json!({"k": [1, 2], "s": "x"}));
    assert!(doc["nodes"][0].get("data").is_none());
    assert_eq!(doc["edges"][1]["key"], json!(1));
    assert_eq!(doc["edges"][1]["weight"], json!(1.0));
    assert_eq!(doc["edges"][0]["relation"], json!("depends on"));
}

#[test]
fn node_link_json_reads_networkx_output() {
    // As networkx.node_link_data(G) writes an undirected graph with integer ids and "links".
    let text = r#"{"directed": false, "multigraph": false, "graph": {},
        "nodes": [{"id": 1, "color": "red"}, {"id": 2}, {"id": "three", "w": 1.5}],
        "links": [{"source": 1, "target": 2, "weight": 4}, {"source": 2, "target": "three", "kind": null}]}"#;
    let graph = parse(Format::NodeLinkJson, text).unwrap();
    assert_eq!(graph.nodes[0].id, "1");
    assert_eq!(graph.nodes[0].attributes["color"], json!("red"));
    assert_eq!(graph.edges[0].weight, 4.0);
    assert_eq!(graph.edges[1].weight, 1.0);
    assert_eq!(graph.edges[1].attributes["kind"], Value::Null);
    let mut net = Network::new();
    let outcome = apply(&mut net, graph).unwrap();
    assert_eq!(
        outcome,
        ImportOutcome {
            nodes_created: 3,
            nodes_existing: 0,
            edges_created: 2
        }
    );
}

/// `sample()` survives `format` whole, except its null attributes (which the
/// format cannot carry).
fn assert_round_trip_without_nulls(format: Format) {
    let net = sample();
    let copy = round_trip(&net, format);
    let expected: Vec<NodeRow> = nodes_of(&net)
        .into_iter()
        .map(|(id, data, attrs)| (id, data, without_nulls(attrs)))
        .collect();
    assert_eq!(nodes_of(&copy), expected);
    let expected: Vec<EdgeRow> = edges_of(&net)
        .into_iter()
        .map(|(s, t, w, attrs)| (s, t, w, without_nulls(attrs)))
        .collect();
    assert_eq!(edges_of(&copy), expected);
    assert_eq!(copy.description(), net.description());
}

#[test]
fn graphml_round_trips_exactly_except_nulls() {
    assert_round_trip_without_nulls(Format::Graphml);
}

#[test]
fn graphml_has_typed_keys_per_name_and_type() {
    let text = export(&sample(), Format::Graphml, None);
    assert!(text.contains("xmlns=\"http://graphml.graphdrawing.org/xmlns\""));
    assert!(text.contains("edgedefault=\"directed\""));
    assert!(text.contains("for=\"node\" attr.name=\"rank\" attr.type=\"long\""));
    assert!(text.contains("for=\"node\" attr.name=\"rank\" attr.type=\"string\""));
    assert!(text.contains("for=\"node\" attr.name=\"score\" attr.type=\"double\""));
    assert!(text.contains("for=\"node\" attr.name=\"ok\" attr.type=\"boolean\""));
    assert!(text.contains("id=\"weight\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\""));
    assert!(text.contains("id=\"data_json\" for=\"node\" attr.name=\"data\""));
    assert!(text.contains("<edge id=\"1\" source=\"a b\" target=\"quote&quot;d\">"));
    assert!(!text.contains("gone"), "null attributes are left out");
}

#[test]
fn graphml_reads_networkx_output() {
    // As networkx.write_graphml writes a MultiDiGraph (keys d0.., Python bool text, defaults).
    let text = r#"<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <key id="d3" for="edge" attr.name="weight" attr.type="double"/>
  <key id="d2" for="node" attr.name="done" attr.type="boolean"/>
  <key id="d1" for="node" attr.name="size" attr.type="int"><default>5</default></key>
  <key id="d0" for="node" attr.name="label" attr.type="string"/>
  <graph edgedefault="directed">
    <node id="ä &amp; b"><data key="d0">Ä &lt;b&gt;</data><data key="d2">True</data></node>
    <node id="2"><data key="d1">7</data></node>
    <edge source="ä &amp; b" target="2" id="0"><data key="d3">0.25</data></edge>
    <edge source="ä &amp; b" target="2" id="1"/>
    <edge source="2" target="2" id="0"/>
  </graph>
</graphml>"#;
    let graph = parse(Format::Graphml, text).unwrap();
    assert_eq!(graph.nodes[0].id, "ä & b");
    assert_eq!(graph.nodes[0].attributes["label"], json!("Ä <b>"));
    assert_eq!(graph.nodes[0].attributes["done"], json!(true));
    assert_eq!(
        graph.node_attributes(0)["size"],
        json!(5),
        "default applies"
    );
    assert!(
        !graph.nodes[0].attributes.contains_key("size"),
        "kept once, in the graph's defaults"
    );
    assert_eq!(graph.node_defaults["size"], json!(5));
    assert_eq!(graph.nodes[1].attributes["size"], json!(7));
    let weights: Vec<f64> = graph.edges.iter().map(|e| e.weight).collect();
    assert_eq!(weights, [0.25, 1.0, 1.0]);
    assert_eq!(graph.edges[2].source, "2");

    // Verbatim networkx 3.6 write_graphml of a DiGraph: graph data after the edges.
    let text = r#"<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">
  <key id="d5" for="edge" attr.name="kind" attr.type="string" />
  <key id="d4" for="edge" attr.name="weight" attr.type="double" />
  <key id="d3" for="node" attr.name="ratio" attr.type="double" />
  <key id="d2" for="node" attr.name="size" attr.type="long" />
  <key id="d1" for="node" attr.name="flag" attr.type="boolean" />
  <key id="d0" for="graph" attr.name="description" attr.type="string" />
  <graph edgedefault="directed">
    <node id="1" />
    <node id="2" />
    <node id="3" />
    <node id="4">
      <data key="d1">True</data>
      <data key="d2">3</data>
      <data key="d3">0.1</data>
    </node>
    <edge source="1" target="2">
      <data key="d4">0.5</data>
      <data key="d5">x</data>
    </edge>
    <edge source="2" target="3" />
    <data key="d0">from nx</data>
  </graph>
</graphml>"#;
    let graph = parse(Format::Graphml, text).unwrap();
    assert_eq!(graph.description.as_deref(), Some("from nx"));
    assert_eq!(graph.nodes.len(), 4);
    assert_eq!(
        Value::Object(graph.nodes[3].attributes.clone()),
        json!({"flag": true, "size": 3, "ratio": 0.1})
    );
    assert_eq!((graph.edges[0].weight, graph.edges[1].weight), (0.5, 1.0));
    assert_eq!(
        Value::Object(graph.edges[0].attributes.clone()),
        json!({"kind": "x"})
    );
}

#[test]
fn dot_round_trips_with_inferred_types() {
    assert_round_trip_without_nulls(Format::Dot);
}

#[test]
fn dot_quotes_and_escapes_everything() {
    let text = export(&sample(), Format::Dot, None);
    assert!(text.starts_with(
        "// networks-mcp export: A -> B means A depends on B\ndigraph \"sample \\\"net\\\"\" {\n"
    ));
    assert!(text.contains("\"quote\\\"d\" [label=\"quote\\\"d\", \"rank\"=\"three\""));
    assert!(text.contains("\"nmcp_note\"=\"line1\\nline2\t\\\"q\\\" <&> 'x' \\\\ `b` # | ;\""));
    // A trailing backslash is followed by a line continuation.
    assert!(text.contains("\"back\\\\slash\\\\\\\n\""));
    assert!(text.contains("-> \"quote\\\"d\" [weight=\"2.5\", \"nmcp_relation\"=\"depends on\"]"));
}

#[test]
fn dot_reads_foreign_documents() {
    let text = "/* comment */ digraph G {\n  node [shape=box];\n  a -> b -> c [weight=2, color=red];\n  subgraph s { d; e [size=3] }\n  a -> { d e };\n  \"b\" [label=\"B\", on=true];\n}\n";
    let graph = parse(Format::Dot, text).unwrap();
    let ids: Vec<&str> = graph.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["a", "b", "c", "d", "e"]);
    assert_eq!(graph.nodes[1].attributes["label"], json!("B"));
    assert_eq!(graph.nodes[1].attributes["on"], json!(true));
    assert_eq!(graph.nodes[4].attributes["size"], json!(3));
    let edges: Vec<(&str, &str, f64)> = graph
        .edges
        .iter()
        .map(|e| (e.source.as_str(), e.target.as_str(), e.weight))
        .collect();
    assert_eq!(edges[0], ("a", "b", 2.0));
    assert_eq!(edges[1], ("b", "c", 2.0));
    assert_eq!(edges.len(), 4);
    assert_eq!(graph.edges[0].attributes["color"], json!("red"));
}

fn dot_edges(graph: &ImportedGraph) -> Vec<(&str, &str)> {
    graph
        .edges
        .iter()
        .map(|e| (e.source.as_str(), e.target.as_str()))
        .collect()
}

#[test]
fn dot_expands_subgraph_endpoints_and_merges_declarations() {
    let text = "digraph {\n  {rank=same; a b}\n  {a b} -> subgraph s { c -> d } -> e [kind=k];\n  a:p:n -> b:s;\n  a [x=1, y=2]; a [y=3, label=a];\n  f -- g;\n}";
    let graph = parse(Format::Dot, text).unwrap();
    let ids: Vec<&str> = graph.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["a", "b", "c", "d", "e", "f", "g"]);
    assert_eq!(
        dot_edges(&graph),
        [
            ("c", "d"),
            ("a", "c"),
            ("a", "d"),
            ("b", "c"),
            ("b", "d"),
            ("c", "e"),
            ("d", "e"),
            ("a", "b"),
            ("f", "g"),
        ]
    );
    assert_eq!(graph.edges[1].attributes["kind"], json!("k"));
    assert!(graph.edges[0].attributes.is_empty());
    // Later declarations win; a label equal to the id is dropped.
    assert_eq!(
        Value::Object(graph.nodes[0].attributes.clone()),
        json!({"x": 1, "y": 3})
    );

    // A statement may end right before a subgraph that starts an edge statement.
    let graph = parse(Format::Dot, "digraph { a {b} -> c; {x -> {y}} -- z }").unwrap();
    assert_eq!(
        dot_edges(&graph),
        [("b", "c"), ("x", "y"), ("x", "z"), ("y", "z")]
    );
    let ids: Vec<&str> = graph.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["a", "b", "c", "x", "y", "z"]);
}

#[test]
fn dot_reads_the_language_beyond_the_parser_grammar() {
    // Keywords in any case, non-ASCII and odd numerals unquoted, HTML strings,
    // concatenated strings, comments of every kind.
    let text = "# preprocessor line\nStrict DiGraph G {\n  NODE [shape=box] // default\n  café -> ñ [weight=1., w=007];\n  x [label=<<b>bold</b> \"q\" \\ y>, note=\"a\" + \"b\\\"\" /* c */ + \"c\"];\n  Subgraph { y }\n}";
    let graph = parse(Format::Dot, text).unwrap();
    let ids: Vec<&str> = graph.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["café", "ñ", "x", "y"]);
    assert_eq!(graph.edges[0].weight, 1.0);
    assert_eq!(graph.edges[0].attributes["w"], json!("007"));
    assert_eq!(
        graph.nodes[2].attributes["label"],
        json!("<<b>bold</b> \"q\" \\ y>")
    );
    assert_eq!(graph.nodes[2].attributes["note"], json!("ab\"c"));
    assert!(graph.nodes[0].attributes.is_empty());
}

#[test]
fn dot_reads_description_and_undirected_graphs() {
    let graph = parse(Format::Dot, "graph { description=\"d\\nx\"; a -- b }").unwrap();
    assert_eq!(graph.description.as_deref(), Some("d\nx"));
    assert_eq!(dot_edges(&graph), [("a", "b")]);
    let graph = parse(
        Format::Dot,
        "digraph { graph [description=g]; subgraph { description=no } }",
    )
    .unwrap();
    assert_eq!(graph.description.as_deref(), Some("g"));
}

#[test]
fn dot_rejects_bad_documents_with_positions() {
    // Positions are in the document as written, even after a rewritten `{`.
    let at = location(parse(
        Format::Dot,
        "digraph {\n  {a} -> {b}\n  c -> -> d\n}",
    ));
    assert_eq!(at, "line 3, column 8");
    let at = location(parse(Format::Dot, "digraph {\n  \"ü\" + \"v\" -> ; }"));
    assert_eq!(at, "line 2, column 16");
    let at = location(parse(Format::Dot, "digraph { a -> b [weight=heavy] }"));
    assert_eq!(at, "edge 0 (a -> b)");
    for text in [
        "",
        "digraph",
        "digraph { \"open",
        "digraph { a [label=<x",
        "{ a }",
        "digraph { a -> {b }",
    ] {
        let err = parse(Format::Dot, text).unwrap_err();
        assert!(
            matches!(err, Error::ImportInvalid { .. }),
            "{text}: {err:?}"
        );
    }
    // Every level links `a` to both `a` and `x`, and the outer subgraph links both to `b`.
    let nested = format!(
        "digraph {{ {}x{} -> b }}",
        "a -> {".repeat(120),
        "}".repeat(120)
    );
    assert_eq!(parse(Format::Dot, &nested).unwrap().edges.len(), 241);
    let deep = format!("digraph {{ {} }}", "{".repeat(10_000));
    let err = parse(Format::Dot, &deep).unwrap_err();
    assert!(err.to_string().contains("nested more than"), "{err}");
}

/// Deep nesting hidden from a lexical pass (a comment that the grammar ends at a
/// lone `\r`, `\r\n` endings, `#` lines, braces in strings and comments) is
/// refused with an error, never a crash: the depth is measured on the grammar's
/// own parse. Run on a thread with a small stack, as a tool call's worker has.
#[test]
fn dot_nesting_is_bounded_whatever_hides_it() {
    let levels = 2000;
    let open = "subgraph{".repeat(levels);
    let close = "}".repeat(levels);
    let documents = [
        format!("digraph {{\n// c\r{open}a{close}\n}}\n"),
        format!("digraph {{\r\n# c\r{open}a{close}\r\n}}\r\n"),
        format!("digraph {{ /* {{ */ {open}a{close} }}"),
        format!("digraph {{ \"{{{{\" -> x // }}}}\r{open}a{close} }}"),
        format!("digraph {{ a [{}] }}", "x=1 [".repeat(levels)),
        format!(
            "digraph {{\n// c\r{}a{}\n}}\n",
            "a -> {".repeat(levels),
            "}".repeat(levels)
        ),
    ];
    let documents = std::sync::Arc::new(documents);
    // With room enough for the parser to read every level, the depth is what
    // refuses the document; with a worker's small stack, it is refused all the
    // same (the parser stops when its stack runs low), never a crash.
    for (stack, why) in [(256 << 20, Some("nested more than")), (2 << 20, None)] {
        let documents = std::sync::Arc::clone(&documents);
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn(move || {
                for document in documents.iter() {
                    let err = parse(Format::Dot, document).unwrap_err();
                    assert!(matches!(err, Error::ImportInvalid { .. }), "{err}");
                    if let Some(why) = why {
                        assert!(err.to_string().contains(why), "{:.300}", err.to_string());
                    }
                }
            })
            .unwrap()
            .join()
            .expect("no stack overflow");
    }
}

/// Attributes Graphviz would act on (links, files, fonts, render size) are
/// exported under the `nmcp_` prefix, which Graphviz ignores, and come back under
/// their own names; drawing attributes keep their names.
#[test]
fn dot_export_never_hands_graphviz_an_active_attribute() {
    let mut net = Network::new();
    let active = map(json!({
        "URL": "javascript:alert(1)", "href": "file:///etc/passwd", "image": "/etc/passwd",
        "shapefile": "/etc/shadow", "fontpath": "/root", "stylesheet": "http://x/y.css",
        "size": "100000,100000", "nmcp_kept": 1, "color": "red", "label": "L"
    }));
    net.add_node_with(NodeSpec {
        id: "a".into(),
        data: None,
        attributes: active.clone(),
    })
    .unwrap();
    net.add_node("b").unwrap();
    net.add_edge_with(EdgeSpec {
        source: "a".into(),
        target: "b".into(),
        weight: 1.0,
        attributes: map(json!({"labelURL": "javascript:x", "style": "dashed"})),
    })
    .unwrap();
    let text = export(&net, Format::Dot, None);
    for name in [
        "URL",
        "href",
        "image",
        "shapefile",
        "fontpath",
        "stylesheet",
        "size",
        "labelURL",
    ] {
        assert!(
            !text.contains(&format!("\"{name}\"=")),
            "{name} written as a Graphviz attribute:\n{text}"
        );
        assert!(
            text.contains(&format!("\"nmcp_{name}\"=")),
            "{name} missing:\n{text}"
        );
    }
    assert!(
        text.contains("\"color\"=\"red\"") && text.contains("\"style\"=\"dashed\""),
        "{text}"
    );
    let back = round_trip(&net, Format::Dot);
    assert_eq!(nodes_of(&back), nodes_of(&net));
    assert_eq!(edges_of(&back), edges_of(&net));
}

/// A syntax error deep inside nested subgraphs makes the grammar retry each
/// level's alternatives (2^depth work); the parse is bounded by the size of the
/// document instead, and answers with an error. (Found by fuzzing: 74 bytes took
/// minutes.)
#[test]
fn dot_backtracking_is_bounded_by_the_document_size() {
    let found = "digraph {\n// c\rsvbgaM\u{90}dM\u{90}ig{{{{{{{{{{{{{{{{{{{{{\u{7f}\u{7f}\u{7f}ldigrapaaaaara";
    let deep_error = format!("digraph {{ {} = {} }}", "{".repeat(60), "}".repeat(60));
    let unclosed = format!("digraph {{ {} a \"open", "subgraph {".repeat(100));
    for document in [found.to_string(), deep_error, unclosed] {
        let err = parse(Format::Dot, &document).unwrap_err();
        assert_eq!(err.code(), "invalid_import", "{err}");
    }
}

/// `{a1 … a3000} -> {b1 … b3000}` stands for 9,000,000 edges: they are counted
/// before they are made, and the document is refused at the cap.
#[test]
fn dot_expansion_is_counted_against_the_cap_before_it_is_made() {
    let side = |p: &str| {
        (0..3000)
            .map(|i| format!("{p}{i}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let document = format!("digraph {{ {{{}}} -> {{{}}} }}", side("a"), side("b"));
    let err = crate::interchange::parse_bounded(Format::Dot, &document, 1_000_000).unwrap_err();
    assert_eq!(err.code(), "limit_exceeded");
    assert!(err.to_string().contains("--max-import-edges"), "{err}");
    let small = "digraph { {a b} -> {c d} }";
    assert_eq!(
        crate::interchange::parse_bounded(Format::Dot, small, 4)
            .unwrap()
            .edges
            .len(),
        4
    );
    assert!(crate::interchange::parse_bounded(Format::Dot, small, 3).is_err());
    // The cap holds for every format.
    let csv = "source,target\na,b\nb,c\n";
    assert!(crate::interchange::parse_bounded(Format::EdgeListCsv, csv, 1).is_err());
}

#[test]
fn edge_list_csv_round_trips_edges() {
    let net = sample();
    let text = export(&net, Format::EdgeListCsv, None);
    assert!(text.starts_with("source,target,weight,edge_id,flag,label,n,relation,x\n"));
    let copy = round_trip(&net, Format::EdgeListCsv);
    let expected: Vec<EdgeRow> = edges_of(&net)
        .into_iter()
        .map(|(s, t, w, attrs)| (s, t, w, without_nulls(attrs)))
        .collect();
    assert_eq!(edges_of(&copy), expected);
    // Nodes come from the endpoints, in order of first appearance.
    let ids: Vec<&str> = copy.node_ids().collect();
    assert_eq!(
        ids,
        ["a b", "quote\"d", "ünï©ødé ✓", "back\\slash\\", "end"]
    );
}

/// The duplicate-column check is one pass with a hash set: a header of 300,000
/// columns (a quadratic check would compare 4.5e10 pairs, minutes of CPU) is read
/// at once, and a repeated name is still found, wherever it is.
#[test]
fn edge_list_csv_header_check_is_linear() {
    let columns: Vec<String> = (0..300_000).map(|i| format!("c{i}")).collect();
    let row = format!("a,b{}", ",".repeat(columns.len()));
    let wide = format!("source,target,{}\n{row}\n", columns.join(","));
    assert_eq!(parse(Format::EdgeListCsv, &wide).unwrap().edges.len(), 1);
    let repeated = format!("source,target,{},c7\n{row},\n", columns.join(","));
    let err = parse(Format::EdgeListCsv, &repeated).unwrap_err();
    assert!(err.to_string().contains("'c7' appears twice"), "{err}");
}

#[test]
fn edge_list_csv_infers_types() {
    let text =
        "target,source,weight,edge_id,a,b,c,d\nx,y,,9,true,42,-1.5,\"0042, text\"\ny,x,2,,,,1e3,\n";
    let graph = parse(Format::EdgeListCsv, text).unwrap();
    assert_eq!(
        (
            graph.edges[0].source.as_str(),
            graph.edges[0].target.as_str()
        ),
        ("y", "x")
    );
    assert_eq!(graph.edges[0].weight, 1.0);
    assert_eq!(
        Value::Object(graph.edges[0].attributes.clone()),
        json!({"a": true, "b": 42, "c": -1.5, "d": "0042, text"})
    );
    assert_eq!(
        Value::Object(graph.edges[1].attributes.clone()),
        json!({"c": 1000.0})
    );
    assert_eq!(graph.edges[1].weight, 2.0);
}

#[test]
fn mermaid_uses_safe_ids_and_escaped_labels() {
    let text = export(&sample(), Format::Mermaid, None);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "%% networks-mcp export: A --> B means A depends on B"
    );
    assert_eq!(lines[1], "flowchart LR");
    assert_eq!(lines[3], "  n1[\"quote#quot;d\"]");
    assert_eq!(lines[6], "  n4[\"end\"]");
    assert!(lines.contains(&"  n0 -->|\"depends on (2.5)\"| n1"));
    assert!(
        lines.contains(&"  n0 --> n1"),
        "weight 1 and no relation: no label"
    );
    assert!(lines.contains(&"  n2 -->|\"-0.5\"| n2"), "self-loop");
    assert!(lines.contains(&"  n3 -->|\"we#96;ird#124;rel (1e-7)\"| n4"));
    for line in &lines[1..] {
        let label_quotes = line.matches('"').count();
        assert!(label_quotes == 0 || label_quotes == 2, "{line}");
    }
}

#[test]
fn mermaid_export_reads_back_exactly() {
    let mut net = sample();
    // Relations that look like the export's other label forms.
    for (i, relation) in ["2", "x (3)", "(", "1e5", "+1", " 5", "a\u{FB02}\u{B6}b"]
        .into_iter()
        .enumerate()
    {
        let weight = if i % 2 == 0 { 1.0 } else { 4.5 };
        net.add_edge_with(
            EdgeSpec::new("a b", "end")
                .with_weight(weight)
                .with_attribute("relation", relation),
        )
        .unwrap();
    }
    let text = export(&net, Format::Mermaid, None);
    let copy = round_trip(&net, Format::Mermaid);
    let ids = |n: &Network| n.node_ids().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(ids(&copy), ids(&net), "{text}");
    // What the export writes: endpoints, weight, and `relation` when a string.
    let shown = |n: &Network| {
        edges_of(n)
            .into_iter()
            .map(|(s, t, w, mut a)| {
                let relation = a
                    .remove("relation")
                    .filter(|r| r.as_str().is_some_and(|r| !r.is_empty()));
                (s, t, w, relation)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(shown(&copy), shown(&net), "{text}");
}

#[test]
fn cypher_escapes_strings_and_names() {
    let text = export(&sample(), Format::Cypher, None);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 10);
    assert!(lines.iter().all(|l| l.ends_with(';')));
    assert_eq!(
        lines[0],
        "MERGE (n:Node {id: 'a b'}) SET n.`color` = 'red', n.`rank` = 3, n.`score` = 1.5, n.`ok` = true;"
    );
    assert!(lines[1].contains("n.`data_json` = '{\"k\":[1,2],\"s\":\"x\"}'"));
    assert!(lines[2].contains("'line1\\nline2\\t\"q\" <&> \\'x\\' \\\\ `b` # | ;'"));
    assert!(lines[3].starts_with("MERGE (n:Node {id: 'back\\\\slash\\\\'})"));
    assert_eq!(
        lines[5],
        "MATCH (a:Node {id: 'a b'}), (b:Node {id: 'quote\"d'}) CREATE (a)-[:`depends on` {edge_id: 0, weight: 2.5, `relation`: 'depends on'}]->(b);"
    );
    assert!(lines[6].contains("CREATE (a)-[:EDGE {edge_id: 1, weight: 1.0}]->(b);"));
    assert!(lines[8].contains("[:`we``ird|rel` {edge_id: 3, weight: 1e-7,"));

    // openCypher has no `+` in exponents; integers beyond i64 become floats.
    let mut net = Network::new();
    net.add_node("a").unwrap();
    net.add_edge_with(EdgeSpec {
        source: "a".into(),
        target: "a".into(),
        weight: 1e300,
        attributes: map(json!({"big": u64::MAX})),
    })
    .unwrap();
    let text = export(&net, Format::Cypher, None);
    assert!(
        text.contains("{edge_id: 0, weight: 1e300, `big`: 18446744073709551616.0}"),
        "{text}"
    );
}

#[test]
fn only_exports_the_induced_subgraph() {
    let net = sample();
    let only: HashSet<_> = ["a b", "quote\"d"]
        .into_iter()
        .map(|id| net.index_of(id).unwrap())
        .collect();
    for format in Format::EXPORTABLE.into_iter().filter(|f| f.can_import()) {
        let text = export(&net, format, Some(&only));
        let graph = parse(format, &text).unwrap();
        assert_eq!(graph.edges.len(), 2, "{format:?}");
        assert!(
            graph
                .edges
                .iter()
                .all(|e| e.source == "a b" && e.target == "quote\"d")
        );
        if format != Format::EdgeListCsv {
            let ids: Vec<&str> = graph.nodes.iter().map(|n| n.id.as_str()).collect();
            assert_eq!(ids, ["a b", "quote\"d"], "{format:?}");
        }
    }
    let mermaid = export(&net, Format::Mermaid, Some(&only));
    assert_eq!(mermaid.lines().count(), 6);
    let cypher = export(&net, Format::Cypher, Some(&only));
    assert_eq!(cypher.lines().count(), 4);
}

fn location(result: Result<ImportedGraph>) -> String {
    match result {
        Err(Error::ImportInvalid { location, .. }) => location.unwrap_or_default(),
        other => panic!("expected invalid_import, got {other:?}"),
    }
}

#[test]
fn parse_errors_name_where() {
    let at = location(parse(Format::NodeLinkJson, "{\"nodes\": [\n  {\"id\": }]}"));
    assert_eq!(at, "line 2, column 10");
    let at = location(parse(
        Format::NodeLinkJson,
        r#"{"nodes": [{"id": "a"}, {"name": "b"}]}"#,
    ));
    assert_eq!(at, "nodes[1].id");
    let at = location(parse(
        Format::NodeLinkJson,
        r#"{"nodes": [{"id": "a", "tags": ["x"]}], "edges": []}"#,
    ));
    assert_eq!(at, "nodes[0].tags");
    let at = location(parse(
        Format::NodeLinkJson,
        r#"{"nodes": [], "links": [{"source": "a", "target": "b", "weight": "heavy"}]}"#,
    ));
    assert_eq!(at, "links[0].weight");
    let at = location(parse(
        Format::NodeLinkJson,
        r#"{"nodes": [{"id": "a"}], "nodes": [{"id": "b"}]}"#,
    ));
    assert_eq!(at, "nodes");

    let at = location(parse(
        Format::Graphml,
        "<graphml>\n<graph>\n<node id=\"a\"></edge>\n</graph></graphml>",
    ));
    assert!(at.starts_with("line 3, column"), "{at}");
    let at = location(parse(
        Format::Graphml,
        "<graphml><key id=\"d0\" for=\"node\" attr.name=\"n\" attr.type=\"int\"/>\n<graph>\n<node id=\"a\"/>\n  <node id=\"b\"><data key=\"d0\">x</data></node></graph></graphml>",
    ));
    assert!(at.starts_with("line 4, column"), "{at}");
    assert!(at.ends_with("(graphml/graph/node[1]/data)"), "{at}");

    let at = location(parse(Format::Dot, "digraph {\n  a -> ;\n}"));
    assert!(at.starts_with("line 2, column"), "{at}");

    let at = location(parse(
        Format::EdgeListCsv,
        "source,target,weight\na,b,1\na,c,x\n",
    ));
    assert_eq!(at, "row 3, column 'weight'");
    let at = location(parse(Format::EdgeListCsv, "from,to\na,b\n"));
    assert_eq!(at, "row 1");

    let err = parse(Format::Graphml, "<graphml><graph><node/></graph></graphml>").unwrap_err();
    let message = err.to_string();
    assert!(
        message.starts_with("could not import graphml at line 1, column 17"),
        "{message}"
    );
    assert!(message.ends_with("nothing was imported."), "{message}");
    let object = err.to_object();
    assert_eq!(object["code"], json!("invalid_import"));
    assert_eq!(object["format"], json!("graphml"));
    assert!(object["location"].as_str().unwrap().contains("node[0]"));
}

#[test]
fn apply_is_all_or_nothing() {
    let mut net = sample();
    let before = (nodes_of(&net), edges_of(&net));
    let bad_edge = ImportedGraph {
        description: Some("other".into()),
        nodes: vec![NodeSpec {
            id: "new".into(),
            data: None,
            attributes: Map::new(),
        }],
        edges: vec![
            EdgeSpec {
                source: "new".into(),
                target: "a b".into(),
                weight: 1.0,
                attributes: Map::new(),
            },
            EdgeSpec {
                source: "new".into(),
                target: "fresh".into(),
                weight: f64::NAN,
                attributes: Map::new(),
            },
        ],
        ..ImportedGraph::default()
    };
    let err = apply(&mut net, bad_edge).unwrap_err();
    assert!(
        matches!(err, Error::InvalidBatchItem { ref field, index: 1, .. } if field == "edges"),
        "{err:?}"
    );
    let bad_node = ImportedGraph {
        description: None,
        nodes: vec![
            NodeSpec {
                id: "ok".into(),
                data: None,
                attributes: Map::new(),
            },
            NodeSpec {
                id: "bad".into(),
                data: None,
                attributes: map(json!({"nested": {"x": 1}})),
            },
        ],
        edges: vec![],
        ..ImportedGraph::default()
    };
    let err = apply(&mut net, bad_node).unwrap_err();
    assert!(
        matches!(err, Error::InvalidBatchItem { ref field, index: 1, .. } if field == "nodes"),
        "{err:?}"
    );
    assert_eq!((nodes_of(&net), edges_of(&net)), before);
    assert_eq!(net.description(), Some("a test\nnetwork <&>"));
}

#[test]
fn apply_keeps_existing_nodes_and_adds_every_edge() {
    let mut net = Network::new();
    net.add_node_with(NodeSpec {
        id: "a".into(),
        data: Some(json!(1)),
        attributes: map(json!({"keep": true})),
    })
    .unwrap();
    let text = r#"{"nodes": [{"id": "a", "keep": false}, {"id": "b"}, {"id": "b"}],
                   "edges": [{"source": "a", "target": "b"}, {"source": "a", "target": "b"}, {"source": "b", "target": "c"}]}"#;
    let outcome = apply(&mut net, parse(Format::NodeLinkJson, text).unwrap()).unwrap();
    assert_eq!(
        outcome,
        ImportOutcome {
            nodes_created: 2,
            nodes_existing: 2,
            edges_created: 3
        }
    );
    assert_eq!(
        net.node("a").unwrap().attributes.get("keep"),
        Some(&json!(true))
    );
    assert_eq!(net.node_ids().collect::<Vec<_>>(), ["a", "b", "c"]);
    assert_eq!(net.edge_count(), 3);
}

#[test]
fn empty_network_exports_and_reimports() {
    let net = Network::new();
    for format in Format::EXPORTABLE {
        let text = export(&net, format, None);
        if format.can_import() && format != Format::EdgeListCsv {
            let graph = parse(format, &text).unwrap();
            assert!(
                graph.nodes.is_empty() && graph.edges.is_empty(),
                "{format:?}"
            );
        }
    }
}

/// Integers just past 64 bits at both ends, and their neighbours that read as the
/// same `f64`.
const BIG: [&str; 4] = [
    "18446744073709551616",
    "18446744073709551617",
    "-9223372036854775809",
    "-9223372036854775810",
];

#[test]
fn integers_past_64_bits_keep_their_exact_text_as_ids_and_values_in_every_format() {
    let [a, b, c, d] = BIG;
    let exact = |text: &str| Value::String(text.into());
    // Node-link JSON: numeric ids, endpoints, attribute values and data.
    let document = format!(
        r#"{{"nodes": [{{"id": {a}, "big": {c}, "small": -5, "text": "{b}", "data": {{"n": [{d}, 1.5]}}}}, {{"id": {b}}}],
            "edges": [{{"source": {a}, "target": {b}, "weight": 100000000000000000000, "big": {d}}}]}}"#
    );
    let graph = parse(Format::NodeLinkJson, &document).unwrap();
    let ids: Vec<&str> = graph.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, [a, b]);
    assert_eq!(graph.nodes[0].attributes["big"], exact(c));
    assert_eq!(graph.nodes[0].attributes["small"], json!(-5));
    assert_eq!(graph.nodes[0].attributes["text"], exact(b));
    assert_eq!(graph.nodes[0].data, Some(json!({"n": [d, 1.5]})));
    let edge = &graph.edges[0];
    assert_eq!((edge.source.as_str(), edge.target.as_str()), (a, b));
    assert_eq!(edge.weight, 1e20, "a weight is a float, as every weight is");
    assert_eq!(edge.attributes["big"], exact(d));
    let mut net = Network::new();
    apply(&mut net, graph).unwrap();
    assert_eq!((net.node_count(), net.edge_count()), (2, 1), "no self-loop");

    // CSV: ids are text; a cell is inferred by the shared rule.
    let csv = format!("source,target,big,small\n{a},{b},{c},7\n{c},{d},{d},8\n");
    let graph = parse(Format::EdgeListCsv, &csv).unwrap();
    assert_eq!(graph.edges[1].source, c);
    assert_eq!(graph.edges[0].attributes["big"], exact(c));
    assert_eq!(graph.edges[1].attributes["big"], exact(d));
    assert_eq!(graph.edges[0].attributes["small"], json!(7));

    // DOT: numerals as ids, attribute values and inside data.
    let dot = format!(
        "digraph {{ {a} [big={c}, data=\"[{d}]\"]; {a} -> {b} [big={d}, small=3]; {c} -> {d} }}"
    );
    let graph = parse(Format::Dot, &dot).unwrap();
    let ids: Vec<&str> = graph.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, [a, b, c, d]);
    assert_eq!(graph.nodes[0].attributes["big"], exact(c));
    assert_eq!(graph.nodes[0].data, Some(json!([d])));
    assert_eq!(graph.edges[0].attributes["big"], exact(d));
    assert_eq!(graph.edges[0].attributes["small"], json!(3));

    // GraphML: a `long` key past 64 bits, and data_json.
    let graphml = format!(
        r#"<graphml><key id="k" for="node" attr.name="big" attr.type="long"/>
        <key id="data_json" for="node" attr.name="data_json" attr.type="string"/>
        <graph><node id="{a}"><data key="k">{c}</data><data key="data_json">{{"n": {d}}}</data></node>
        <node id="{b}"><data key="k">12</data></node><edge source="{a}" target="{b}"/></graph></graphml>"#
    );
    let graph = parse(Format::Graphml, &graphml).unwrap();
    assert_eq!(graph.nodes[0].attributes["big"], exact(c));
    assert_eq!(graph.nodes[0].data, Some(json!({"n": d})));
    assert_eq!(graph.nodes[1].attributes["big"], json!(12));
    let mut net = Network::new();
    apply(&mut net, graph).unwrap();
    assert_eq!((net.node_count(), net.edge_count()), (2, 1));
}

#[test]
fn exact_json_touches_only_values_and_keeps_the_documents_error_positions() {
    let [a, ..] = BIG;
    // Past 64 bits only: the largest u64 and the smallest i64 stay numbers.
    let (value, quoted) = values::parse_json_exact(
        r#"[18446744073709551615, -9223372036854775808, 1.8446744073709551616e19, "18446744073709551616"]"#,
    )
    .unwrap();
    assert!(!quoted);
    assert_eq!(value[0], json!(u64::MAX));
    assert_eq!(value[1], json!(i64::MIN));
    assert!(value[2].is_f64());
    // An escaped quote does not end a string; a number past f64's range is kept too.
    let long = "9".repeat(400);
    let (value, quoted) =
        values::parse_json_exact(&format!(r#"{{"s": "\" {a}", "n": {long}}}"#)).unwrap();
    assert!(quoted);
    assert_eq!(value, json!({"s": format!("\" {a}"), "n": long}));
    // A number where a key belongs stays an error, at the document's own position.
    let bad = format!("{{\"x\": {a},\n {a}: 1}}");
    let e = values::parse_json_exact(&bad).unwrap_err();
    assert_eq!((e.line(), e.column()), (2, 2), "{e}");
    let e = parse(Format::NodeLinkJson, &format!("{{\"nodes\": [{a}, }}")).unwrap_err();
    assert!(e.to_string().contains("line 1, column"), "{e}");
}

/// A GraphML document of `nodes` bare nodes and a key `key` whose `<default>`
/// is `default_bytes` long: about 1 MB standing for nodes × default_bytes if
/// the default were copied onto each node.
fn amplifying_graphml(key: &str, nodes: usize, default_bytes: usize) -> String {
    let mut doc = format!(
        r#"<graphml><key id="{key}" for="node" attr.name="{key}" attr.type="string"><default>"{}"</default></key><graph>"#,
        "x".repeat(default_bytes)
    );
    for i in 0..nodes {
        doc.push_str(&format!("<node id=\"{i}\"/>"));
    }
    doc.push_str("</graph></graphml>");
    doc
}

#[test]
fn a_graphml_attribute_default_is_kept_once_and_counted_once() {
    // 50,000 × 60 KB would be 3 GB from a 1 MB document; kept once, it fits
    // in twice the document beside the nodes themselves.
    let document = amplifying_graphml("big", 50_000, 60_000);
    assert!(document.len() < 1_100_000);
    let nodes = 50_000 * (crate::network::estimate::NODE_BYTES + 5);
    let limits = Limits {
        max_import_bytes: nodes + 2 * document.len(),
        ..Limits::default()
    };
    let graph = parse_limited(Format::Graphml, &document, &limits).unwrap();
    assert_eq!(graph.nodes.len(), 50_000);
    assert!(graph.nodes.iter().all(|n| n.attributes.is_empty()));
    assert_eq!(
        graph.node_defaults["big"].as_str().map(str::len),
        Some(60_002)
    );
    let mut net = Network::new();
    crate::interchange::apply(&mut net, graph).unwrap();
    let value = |id: &str| net.node(id).and_then(|n| n.attributes.get("big").cloned());
    assert_eq!(value("0"), value("49999"));
    assert!(net.estimated_bytes() < nodes + 2 * document.len());
}

#[test]
fn a_graphml_data_default_copied_onto_every_node_is_counted_and_refused_by_name() {
    // A node's data is its own: a `data_json` default is copied onto each node.
    let limits = Limits {
        max_import_bytes: 16 << 20,
        ..Limits::default()
    };
    let document = amplifying_graphml("data_json", 50_000, 60_000);
    let e = parse_limited(Format::Graphml, &document, &limits).unwrap_err();
    assert_eq!(e.code(), "limit_exceeded");
    let message = e.to_string();
    for needle in [
        "graphml import",
        "key 'data_json'",
        "60002-byte <default>",
        "node[",
        "--max-import-memory",
    ] {
        assert!(message.contains(needle), "{needle}: {message}");
    }
    // The same document with a short default is well within the bound.
    let graph = parse_limited(
        Format::Graphml,
        &amplifying_graphml("data_json", 50_000, 10),
        &limits,
    )
    .unwrap();
    assert_eq!(graph.nodes.len(), 50_000);
    assert_eq!(graph.nodes[0].data, Some(json!("x".repeat(10))));
}

#[test]
fn a_dot_edge_statement_is_counted_once_per_edge_it_expands_to_before_any_is_made() {
    let side = |p: &str| {
        (0..300)
            .map(|i| format!("{p}{i}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let big = "y".repeat(10_000);
    // 90,000 edges × 10 KB of attributes: 900 MB from a 14 KB document. Refused
    // under the default bound before a single edge exists.
    let document = format!(
        "digraph {{ {{{}}} -> {{{}}} [big=\"{big}\"] }}",
        side("a"),
        side("b")
    );
    let e = parse_limited(Format::Dot, &document, &Limits::default()).unwrap_err();
    assert_eq!(e.code(), "limit_exceeded");
    let message = e.to_string();
    for needle in [
        "dot import",
        "edge statement from 'a0' to 'b0'",
        "90000 edge(s)",
        "--max-import-memory",
    ] {
        assert!(message.contains(needle), "{needle}: {message}");
    }
    // A chain copies its attributes onto every step too.
    let chain: Vec<String> = (0..2_000).map(|i| format!("n{i}")).collect();
    let chain = format!("digraph {{ {} [big=\"{big}\"] }}", chain.join(" -> "));
    let limits = Limits {
        max_import_bytes: 8 << 20,
        ..Limits::default()
    };
    assert_eq!(
        parse_limited(Format::Dot, &chain, &limits)
            .unwrap_err()
            .code(),
        "limit_exceeded"
    );
    // Default statements are not copied at all, so they cost nothing.
    let defaults = format!(
        "digraph {{ node [big=\"{big}\"]; edge [big=\"{big}\"]; {} }}",
        (0..2_000)
            .map(|i| format!("m{i} -> m{}", i + 1))
            .collect::<Vec<_>>()
            .join("; ")
    );
    let graph = parse_limited(Format::Dot, &defaults, &limits).unwrap();
    assert!(graph.nodes.iter().all(|n| n.attributes.is_empty()));
    assert!(graph.edges.iter().all(|e| e.attributes.is_empty()));
}

#[test]
fn every_format_counts_what_it_makes_against_the_import_bound() {
    let limits = Limits {
        max_import_bytes: 64 << 10,
        ..Limits::default()
    };
    let rows = 2_000;
    let mut net = Network::new();
    for i in 0..rows {
        let (a, b) = (format!("a{i}"), format!("b{i}"));
        net.add_node(&a).unwrap();
        net.add_node(&b).unwrap();
        net.add_edge(&a, &b, 1.0).unwrap();
    }
    for format in Format::EXPORTABLE.into_iter().filter(|f| f.can_import()) {
        let text = export(&net, format, None);
        let e = parse_limited(format, &text, &limits).unwrap_err();
        assert_eq!(e.code(), "limit_exceeded", "{format:?}");
        assert!(e.to_string().contains(format.name()), "{format:?}: {e}");
        assert!(parse_limited(format, &text, &Limits::default()).is_ok());
    }
}

/// `a0 & … & a2999 --> b0 & … & b2999` stands for 9,000,000 edges: counted
/// before they are made, and refused at the cap.
#[test]
fn mermaid_groups_are_counted_against_the_cap_before_they_are_made() {
    let side = |p: &str| {
        (0..3000)
            .map(|i| format!("{p}{i}"))
            .collect::<Vec<_>>()
            .join(" & ")
    };
    let document = format!("flowchart LR\n{} --> {}\n", side("a"), side("b"));
    let err = crate::interchange::parse_bounded(Format::Mermaid, &document, 1_000_000).unwrap_err();
    assert_eq!(err.code(), "limit_exceeded");
    assert!(err.to_string().contains("--max-import-edges"), "{err}");
    let small = "flowchart LR\n  a & b --> c & d\n";
    let graph = crate::interchange::parse_bounded(Format::Mermaid, small, 4).unwrap();
    assert_eq!(graph.edges.len(), 4);
    assert!(crate::interchange::parse_bounded(Format::Mermaid, small, 3).is_err());
    // The memory the pairs take is counted as they are made, too.
    let labelled = format!(
        "flowchart LR\n{} -->|{}| {}\n",
        side("a")
            .replacen("a0", "x", 1)
            .split(" & ")
            .take(300)
            .collect::<Vec<_>>()
            .join(" & "),
        "l".repeat(10_000),
        side("b")
            .split(" & ")
            .take(300)
            .collect::<Vec<_>>()
            .join(" & ")
    );
    let limits = Limits {
        max_import_bytes: 64 << 20,
        ..Limits::default()
    };
    let err = crate::interchange::parse_limited(Format::Mermaid, &labelled, &limits).unwrap_err();
    assert_eq!(err.code(), "limit_exceeded");
    assert!(err.to_string().contains("mermaid"), "{err}");
}

/// Documents built to make a careless lexer quadratic, or its reader recurse
/// without bound: each is read or refused in time linear in its size.
#[test]
fn mermaid_reading_is_linear_and_bounded_on_hostile_documents() {
    let n = 200_000;
    let documents = [
        format!("flowchart LR\n{}A --> B\n", " ".repeat(n)),
        format!("flowchart LR\n{}\n", "&".repeat(n)),
        format!("flowchart LR\nA{} --> B\n", "@".repeat(n)),
        format!("flowchart LR\n{} direction TB\n", "a ".repeat(n / 2)),
        format!("flowchart LR\nA[{}\n", "x".repeat(n)),
        format!("flowchart LR\n{}\n", "\"".repeat(n)),
        format!("flowchart LR\n{}", "subgraph s\n".repeat(n / 16)),
        format!("flowchart LR\n{}", "A --> ".repeat(n / 8)),
        format!("flowchart LR\n{}B\n", "A & ".repeat(n / 8)),
        format!("flowchart LR\nA@{{ {} }}\n", "k: v, ".repeat(n / 8)),
        format!("{}flowchart LR\n", "%%{init: {}}%%\n".repeat(n / 16)),
        format!("flowchart LR\n{}", "%% comment\n".repeat(n / 16)),
        format!("flowchart LR\nA -- {} --> B\n", "x-".repeat(n / 2)),
        format!("flowchart LR\n{}", "}    \n".repeat(n / 8)),
        format!("flowchart LR\n{}", "#quot;".repeat(n / 8)),
    ];
    for document in documents {
        let started = std::time::Instant::now();
        let result = parse(Format::Mermaid, &document);
        let took = started.elapsed();
        assert!(
            took < std::time::Duration::from_secs(5),
            "{} bytes took {took:?}: {:?}",
            document.len(),
            result.as_ref().err()
        );
        if let Err(e) = result {
            assert!(
                matches!(e.code(), "invalid_import" | "limit_exceeded"),
                "{e}"
            );
        }
    }
    // Subgraphs nested past the bound are refused, never a stack overflow.
    let deep = format!(
        "flowchart LR\n{}A\n{}",
        "subgraph s\n".repeat(200),
        "end\n".repeat(200)
    );
    let err = parse(Format::Mermaid, &deep).unwrap_err();
    assert!(err.to_string().contains("nested subgraphs"), "{err}");
    let ok = format!(
        "flowchart LR\n{}A\n{}",
        "subgraph s\n".repeat(100),
        "end\n".repeat(100)
    );
    assert!(parse(Format::Mermaid, &ok).is_ok());
}

/// Each reader of another tool's plan names the line and column (or the
/// element path) of what is wrong.
#[test]
fn plans_from_other_tools_report_where_they_are_broken() {
    let cases = [
        (
            Format::Mermaid,
            "flowchart LR\n  A -->\n",
            "line 3, column 1",
        ),
        (
            Format::Mermaid,
            "flowchart LR\n  A --> B\n  C[x\n",
            "line 3, column 4",
        ),
        (
            Format::MemoryJsonl,
            "\n{\"type\":\"entity\",\"name\":1.5.2}\n",
            "line 2, column",
        ),
        (
            Format::MemoryJsonl,
            "{\"type\":\"entity\"}\n",
            "line 1, field \"name\"",
        ),
        (Format::BeadsJsonl, "[1]\n", "line 1, column 1"),
        (
            Format::BeadsJsonl,
            "{\"id\":\"a\",\"labels\":\"x\"}\n",
            "line 1, field \"labels\"",
        ),
        (Format::TaskmasterJson, "{\"tasks\": 3}", "tasks"),
        (
            Format::TaskmasterJson,
            "{\"master\": {\"tasks\": [{\"id\": 1, \"dependencies\": [[1]]}]}}",
            "master.tasks[0].dependencies[0]",
        ),
        (
            Format::TaskmasterJson,
            "{\"tasks\": [{\"id\": 1, \"subtasks\": [{\"title\": \"x\"}]}]}",
            "tasks[0].subtasks[0].id",
        ),
    ];
    for (format, document, location) in cases {
        let err = parse(format, document).unwrap_err();
        assert_eq!(err.code(), "invalid_import", "{format:?}: {err}");
        assert!(err.to_string().contains(location), "{format:?}: {err}");
    }
}

/// The readers of other tools' plans count what they make against the import
/// memory bound too.
#[test]
fn plans_from_other_tools_count_what_they_make() {
    let limits = Limits {
        max_import_bytes: 64 << 10,
        ..Limits::default()
    };
    let memory: String = (0..2000)
        .map(|i| format!("{{\"type\":\"entity\",\"name\":\"e{i}\",\"entityType\":\"t\",\"observations\":[\"{i}\"]}}\n"))
        .collect();
    let beads: String = (0..2000)
        .map(|i| format!("{{\"id\":\"bd-{i}\",\"title\":\"t\",\"dependencies\":[{{\"depends_on_id\":\"bd-0\",\"type\":\"blocks\"}}]}}\n"))
        .collect();
    let tasks = json!({"tasks": (0..2000).map(|i| json!({"id": i, "title": "t", "dependencies": [0]})).collect::<Vec<_>>()}).to_string();
    for (format, document) in [
        (Format::MemoryJsonl, memory),
        (Format::BeadsJsonl, beads),
        (Format::TaskmasterJson, tasks),
    ] {
        let e = parse_limited(format, &document, &limits).unwrap_err();
        assert_eq!(e.code(), "limit_exceeded", "{format:?}");
        assert!(e.to_string().contains(format.name()), "{format:?}: {e}");
        assert!(parse_limited(format, &document, &Limits::default()).is_ok());
    }
}

/// Found by fuzzing: a lexical error inside text Mermaid's preparation rewrote
/// (here a `%%` line and a multi-byte character) mapped back into the middle of
/// a character of the document, and slicing there panicked.
#[test]
fn a_mermaid_error_inside_rewritten_text_names_a_real_place() {
    let document = "flowchart LR\n    A[First] -----\ntitle: Release plan\n---\n%%\u{8a}ini> B\n   \0\0\0t:\0 \0";
    let err = parse(Format::Mermaid, document).unwrap_err();
    assert_eq!(err.code(), "invalid_import");
    let accented = "flowchart LR\n  A --> B\n  é%%{x}%%ü°\n";
    let _ = parse(Format::Mermaid, accented);
}

/// Node-link documents for the streamed readers: edges before nodes, "links"
/// and "edges", duplicates, unlisted endpoints and faults.
const NODE_LINK_CASES: [&str; 12] = [
    r#"{"graph": {"description": "d"}, "nodes": [{"id": "a", "k": 1}, {"id": "b"}, {"id": "a", "k": 2}],
        "edges": [{"source": "a", "target": "b", "weight": 2, "relation": "r"}, {"source": "b", "target": "z"}]}"#,
    // Edges first: an endpoint listed later as a node keeps its attributes.
    r#"{"edges": [{"source": "a", "target": "b"}, {"source": "c", "target": "a"}],
        "nodes": [{"id": "b", "tag": "listed"}, {"id": "a", "data": {"x": [1]}}]}"#,
    // "links" first, "edges" after: "edges" wins; "links" alone is read.
    r#"{"nodes": [{"id": "a"}], "links": [{"source": "a", "target": "q"}], "edges": [{"source": "a", "target": "e"}]}"#,
    r#"{"nodes": [{"id": 1}, {"id": 2.5}], "links": [{"source": 1, "target": 2.5, "key": 0}]}"#,
    r#"{"nodes": [], "edges": []}"#,
    // Faults: each both ways, the same error.
    r#"{"nodes": [{"id": "a", "bad key\u0001": 1}], "edges": []}"#,
    r#"{"nodes": [{"id": "a"}], "edges": [{"source": "a", "target": ""}]}"#,
    r#"{"nodes": [{"id": "a"}], "edges": [{"source": "a", "target": "b", "weight": "x"}]}"#,
    r#"{"nodes": [{"id": "a", "tags": [1]}]}"#,
    r#"{"edges": []}"#,
    r#"{"nodes": [{"id": "a"}, ]}"#,
    r#"[]"#,
];

/// CSV edge lists for the streamed readers: weights given, empty and absent,
/// attributes inferred, repeated endpoints, self-loops, a BOM, and faults.
const CSV_CASES: [&str; 9] = [
    "source,target,weight,relation\na,b,2,r\nb,z,,\na,b,1.5,\nz,z,0,self\n",
    "\u{FEFF}target,source,k\nb,a,true\nc,a,12345678901234567890123\nq,b,x\n",
    "source,target\n",
    "source,target\nb,q\na,b\n",
    // Faults: each both ways, the same error.
    "source,target,weight\na,b,x\n",
    "source,target\na,\n",
    "source,source,target\na,b,c\n",
    "from,to\na,b\n",
    "source,target,\"bad key\u{1}\"\na,b,1\n",
];

/// Memory server JSONL for the streamed readers: entities first (as the
/// server writes them), relations before and between entities, an entity
/// written with escapes, repeated names, unlisted ends, skipped lines, faults.
const MEMORY_CASES: [&str; 10] = [
    concat!(
        r#"{"type":"entity","name":"Ada","entityType":"person","observations":["wrote"]}"#,
        "\n",
        r#"{"type":"entity","name":"Engine","entityType":"machine","observations":[]}"#,
        "\n\n",
        r#"{"type":"relation","from":"Ada","to":"Engine","relationType":"described"}"#,
        "\r\n",
        r#"{"type":"relation","from":"Engine","to":"Loom","relationType":"inspired_by"}"#,
        "\n",
    ),
    // A relation before the entities it names: they keep their attributes.
    concat!(
        r#"{"type":"relation","from":"a","to":"b","relationType":"r"}"#,
        "\n",
        r#"{"type":"entity","name":"b","entityType":"listed"}"#,
        "\n",
        r#"{"type":"relation","from":"b","to":"c"}"#,
        "\n",
        r#"{"type":"entity","name":"a","observations":["x"]}"#,
        "\n",
        r#"{"type":"relation","from":"c","to":"a","relationType":"back"}"#,
    ),
    // The type written with escapes, after a relation that names the entity.
    concat!(
        r#"{"type":"relation","from":"x","to":"y"}"#,
        "\n",
        r#"{"type":"\u0065ntity","name":"y","entityType":"escaped"}"#,
        "\n",
        r#"{"type":"relation","from":"y","to":"x"}"#,
    ),
    concat!(
        "\u{FEFF}",
        r#"{"type":"entity","name":"a","entityType":"one"}"#,
        "\n",
        r#"{"type":"entity","name":"a","entityType":"two"}"#,
        "\n",
        r#"{"type":"memory","name":"skipped"}"#,
        "\n",
        r#"{"type":"relation","from":"a","to":"a","relationType":"self"}"#,
    ),
    "",
    // Faults: each both ways, the same error.
    concat!(
        r#"{"type":"entity","name":"a"}"#,
        "\n",
        r#"{"type":"relation","from":"a","to":""}"#,
    ),
    concat!(
        r#"{"type":"relation","from":"a","to":"b"}"#,
        "\n",
        r#"{"type":"relation","from":"a""#,
    ),
    r#"{"type":"entity","entityType":"nameless"}"#,
    r#"{"type":"relation","from":"a","to":"b","relationType":7}"#,
    "[1, 2]",
];

/// Every document of the streamed readers' cases, with its format.
fn streamed_cases() -> Vec<(Format, &'static str)> {
    NODE_LINK_CASES
        .iter()
        .map(|&d| (Format::NodeLinkJson, d))
        .chain(CSV_CASES.iter().map(|&d| (Format::EdgeListCsv, d)))
        .chain(MEMORY_CASES.iter().map(|&d| (Format::MemoryJsonl, d)))
        .collect()
}

/// A network built as its node-link document is read ([`build_streamed`]) and one
/// parsed whole and then applied: the same nodes, edges, counts, reading and
/// description, or the same error, for documents that test the order of the
/// arrays, duplicates, unlisted endpoints, `"links"`, the arrows and bad items.
#[test]
fn node_link_built_as_read_equals_parsed_then_applied() {
    for (format, document) in streamed_cases() {
        for arrows in [None, Some(Arrows::Before)] {
            let limits = Limits::default();
            let mut built = Network::new();
            let as_read = build_streamed(format, document, &limits, arrows, &mut built);
            let mut applied = Network::new();
            let whole = parse_reading(format, document, &limits, arrows).and_then(|graph| {
                let reading = graph.reading.clone();
                apply(&mut applied, graph).map(|outcome| (outcome, reading))
            });
            match (as_read, whole) {
                (Ok(b), Ok((outcome, reading))) => {
                    assert_eq!(b.outcome, outcome, "{document}");
                    assert_eq!(b.reading, reading, "{document}");
                    assert_eq!(nodes_of(&built), nodes_of(&applied), "{document}");
                    assert_eq!(edges_of(&built), edges_of(&applied), "{document}");
                    assert_eq!(built.description(), applied.description(), "{document}");
                }
                (Err(b), Err(w)) => assert_eq!(b.to_string(), w.to_string(), "{document}"),
                (b, w) => panic!(
                    "{document}: built as read {:?}, parsed whole {:?}",
                    b.map(|b| b.outcome),
                    w.map(|w| w.0)
                ),
            }
        }
    }
}

/// The guess that sizes a network's edges before a node-link document is read
/// counts the edges a document gives, is not raised by a value that reads
/// "target", and never exceeds what the text has room for.
#[test]
fn node_link_estimates_count_items_and_stay_within_the_text() {
    use crate::interchange::import::node_link::{estimated_edges, estimated_nodes};
    let document = r#"{"nodes":[{"id":"a","role":"target"},{"id":"b"}],
        "edges":[{"source":"a","target":"b"},{"source":"b","target":"a"},{"source":"a","target":"a"}]}"#;
    assert_eq!(estimated_edges(document), 3);
    assert_eq!(estimated_edges(""), 0);
    let hostile = "\"source\"\"target\"".repeat(1000);
    assert_eq!(estimated_edges(&hostile), hostile.len() / 26);
    assert!(estimated_edges(&hostile) < 1000);
    assert_eq!(estimated_nodes(document), 2);
    let ids = "\"id\"".repeat(1000);
    assert_eq!(estimated_nodes(&ids), ids.len() / 9);
    // Never more nodes than the import's memory bound could make.
    let tight = Limits {
        max_import_bytes: 10 * crate::network::estimate::NODE_BYTES,
        ..Limits::default()
    };
    assert_eq!(
        super::estimated_nodes(Format::NodeLinkJson, &ids, &tight),
        10
    );
    // A document sized by the guess builds the same network as one grown item
    // by item.
    let limits = Limits::default();
    let mut sized = Network::new();
    sized.reserve(
        super::estimated_nodes(Format::NodeLinkJson, document, &limits),
        super::estimated_edges(Format::NodeLinkJson, document, &limits),
    );
    build_streamed(Format::NodeLinkJson, document, &limits, None, &mut sized).unwrap();
    let mut grown = Network::new();
    apply(&mut grown, parse(Format::NodeLinkJson, document).unwrap()).unwrap();
    assert_eq!(edges_of(&sized), edges_of(&grown));
    assert_eq!(nodes_of(&sized), nodes_of(&grown));
}

/// Built as read, a document past the network's caps is refused as the
/// caps say, whichever items pass them.
#[test]
fn node_link_built_as_read_keeps_the_caps() {
    let nodes: Vec<String> = (0..10).map(|i| format!("{{\"id\": \"n{i}\"}}")).collect();
    let edges: Vec<String> = (0..10)
        .map(|i| format!("{{\"source\": \"n{i}\", \"target\": \"m{i}\"}}"))
        .collect();
    let document = format!(
        "{{\"nodes\": [{}], \"edges\": [{}]}}",
        nodes.join(","),
        edges.join(",")
    );
    let cases = [
        (
            Limits {
                max_nodes: 9,
                ..Limits::default()
            },
            "--max-nodes",
        ),
        (
            Limits {
                max_nodes: 15,
                ..Limits::default()
            },
            "--max-nodes",
        ),
        (
            Limits {
                max_edges: 9,
                ..Limits::default()
            },
            "--max-import-edges",
        ),
        (
            Limits {
                max_import_edges: 9,
                ..Limits::default()
            },
            "--max-import-edges",
        ),
        (
            Limits {
                max_attributes: 0,
                ..Limits::default()
            },
            "",
        ),
    ];
    for (limits, flag) in cases {
        let mut net = Network::new();
        let error = build_streamed(Format::NodeLinkJson, &document, &limits, None, &mut net)
            .err()
            .map(|e| e.to_string());
        if flag.is_empty() {
            assert_eq!(error, None, "no attributes: nothing to refuse");
        } else {
            let error = error.expect("refused");
            assert!(error.contains(flag), "{flag}: {error}");
        }
    }
}

/// A merge read twice (checked whole, then read into the network) leaves the
/// same network, outcome and reading as the document parsed whole and applied,
/// over existing nodes (kept as they are), edges and description; and a
/// document with a fault is refused by the check with the same error, before
/// the network changes.
#[test]
fn node_link_merged_as_read_equals_parsed_then_applied() {
    let mut base = Network::new();
    base.add_node_with(NodeSpec {
        id: "a".into(),
        data: None,
        attributes: map(json!({"k": "old"})),
    })
    .unwrap();
    base.add_nodes(["b", "q"]).unwrap();
    base.add_edge("a", "b", 3.0).unwrap();
    let mut described = base.clone();
    described.set_description(Some("kept".into()));
    for (format, document) in streamed_cases() {
        for start in [&base, &described] {
            for arrows in [None, Some(Arrows::Before)] {
                let limits = Limits::default();
                let mut merged = start.clone();
                let as_read = check_streamed(format, document, &limits, arrows, Some(start))
                    .and_then(|checked| {
                        assert!(checked.fits(&limits, &merged));
                        build_streamed(format, document, &limits, arrows, &mut merged)
                    });
                let mut applied = start.clone();
                let whole = parse_reading(format, document, &limits, arrows).and_then(|graph| {
                    let reading = graph.reading.clone();
                    apply(&mut applied, graph).map(|outcome| (outcome, reading))
                });
                match (as_read, whole) {
                    (Ok(b), Ok((outcome, reading))) => {
                        assert_eq!(b.outcome, outcome, "{document}");
                        assert_eq!(b.reading, reading, "{document}");
                        assert_eq!(nodes_of(&merged), nodes_of(&applied), "{document}");
                        assert_eq!(edges_of(&merged), edges_of(&applied), "{document}");
                        assert_eq!(merged.description(), applied.description(), "{document}");
                    }
                    (Err(b), Err(w)) => {
                        assert_eq!(b.to_string(), w.to_string(), "{document}");
                        assert_eq!(merged.version(), start.version(), "{document}");
                        assert_eq!(nodes_of(&merged), nodes_of(start), "{document}");
                    }
                    (b, w) => panic!(
                        "{document}: merged as read {:?}, parsed whole {:?}",
                        b.map(|b| b.outcome),
                        w.map(|w| w.0)
                    ),
                }
            }
        }
    }
}

/// What the check counts is an upper bound on what the document adds: every
/// listed node and both ends of every edge, its edges, and its bytes.
#[test]
fn a_checked_document_counts_its_items_and_bytes() {
    let document = r#"{"nodes": [{"id": "a", "k": "v"}, {"id": "a"}],
        "edges": [{"source": "a", "target": "b", "relation": "r"}]}"#;
    let limits = Limits::default();
    let checked = check_streamed(Format::NodeLinkJson, document, &limits, None, None).unwrap();
    assert_eq!((checked.nodes, checked.edges), (2, 1));
    let graph = parse_reading(Format::NodeLinkJson, document, &limits, None).unwrap();
    let expected: usize = graph
        .nodes
        .iter()
        .map(|n| crate::network::estimate::node_item_bytes(&n.id, &n.attributes, n.data.as_ref()))
        .chain(
            graph
                .edges
                .iter()
                .map(|e| crate::network::estimate::edge_item_bytes(&e.attributes)),
        )
        .sum();
    assert_eq!(checked.bytes, expected);
    let mut net = Network::new();
    // Two listed nodes and two ends: four at most.
    let tight = Limits {
        max_nodes: 3,
        ..Limits::default()
    };
    assert!(!checked.fits(&tight, &net));
    let room = Limits {
        max_nodes: 4,
        max_edges: 1,
        ..Limits::default()
    };
    assert!(checked.fits(&room, &net));
    net.add_nodes(["x", "y"]).unwrap();
    net.add_edge("x", "y", 1.0).unwrap();
    assert!(!checked.fits(&room, &net), "one edge already there");
}

/// Edges between `n` existing nodes `v0..v{n}` as a node-link document, each
/// with a relation, then `tail` (more items, or nothing) inside the edge array.
fn edges_document(n: usize, edges: usize, tail: &str) -> String {
    let items: Vec<String> = (0..edges)
        .map(|i| {
            format!(
                r#"{{"source": "v{}", "target": "v{}", "weight": {}, "relation": "{}"}}"#,
                i % n,
                (i * 7 + 1) % n,
                i % 5,
                ["depends", "suggests"][i % 2]
            )
        })
        .collect();
    format!(
        r#"{{"graph": {{"description": "edges"}}, "nodes": [], "edges": [{}{tail}]}}"#,
        items.join(",")
    )
}

/// A merge of edges between nodes the network holds, read in one pass
/// ([`extend_streamed`]), leaves the network the long way (checked, then
/// built) leaves: the same nodes, edges, ids, versions, outcome and reading.
/// Any document it cannot take whole (a node, an endpoint the network lacks, a
/// bad item past the first chunks, refused memory) leaves the network exactly
/// as it was, down to the id the next edge gets, for the long way to merge.
#[test]
fn edges_merged_in_one_pass_equal_the_long_way_or_change_nothing() {
    let mut start = Network::new();
    start.add_nodes((0..50).map(|i| format!("v{i}"))).unwrap();
    start.add_edge("v1", "v2", 1.0).unwrap();
    let big = 3 * 4096 + 17;
    let cases = [
        (edges_document(50, big, ""), true),
        (edges_document(50, 3, ""), true),
        (r#"{"nodes": [], "edges": []}"#.to_string(), true),
        // Not edges alone between known nodes, or a fault past the first chunks.
        (
            edges_document(50, big, r#", {"source": "v1", "target": "new"}"#),
            false,
        ),
        (
            edges_document(
                50,
                big,
                r#", {"source": "v1", "target": "v2", "weight": "x"}"#,
            ),
            false,
        ),
        (edges_document(50, big, r#", {"source": "v1"}"#), false),
        (edges_document(50, big, ",]"), false),
        (
            r#"{"edges": [{"source": "v1", "target": "v3"}], "nodes": [{"id": "v9", "k": 1}]}"#
                .to_string(),
            false,
        ),
    ];
    for (document, whole) in &cases {
        for arrows in [None, Some(Arrows::Before)] {
            let limits = Limits::default();
            let mut reserved = 0usize;
            let mut one_pass = start.clone();
            let extended = extend_streamed(
                Format::NodeLinkJson,
                document,
                &limits,
                arrows,
                &mut one_pass,
                &mut |bytes| {
                    reserved += bytes;
                    Ok(())
                },
            );
            assert_eq!(extended.is_some(), *whole, "{}", &document[..80]);
            let mut long_way = start.clone();
            let built = check_streamed(
                Format::NodeLinkJson,
                document,
                &limits,
                arrows,
                Some(&start),
            )
            .and_then(|checked| {
                if extended.is_some() {
                    assert_eq!(reserved, checked.bytes, "memory promised as checked");
                }
                build_streamed(
                    Format::NodeLinkJson,
                    document,
                    &limits,
                    arrows,
                    &mut long_way,
                )
            });
            let expected = if extended.is_some() {
                &long_way
            } else {
                &start
            };
            assert_eq!(nodes_of(&one_pass), nodes_of(expected));
            assert_eq!(edges_of(&one_pass), edges_of(expected));
            assert_eq!(one_pass.version(), expected.version());
            assert_eq!(one_pass.description(), expected.description());
            if let Some(extended) = extended {
                let built = built.unwrap();
                assert_eq!(extended.outcome, built.outcome);
                assert_eq!(extended.reading, built.reading);
            }
            let next = |mut net: Network| net.add_edge("v3", "v4", 1.0).unwrap();
            assert_eq!(next(one_pass), next(expected.clone()), "the next edge's id");
        }
    }
}

/// Memory refused for a chunk, or the call's budget stopping the read, undoes
/// every edge the run had added.
#[test]
fn an_edge_run_stopped_midway_is_undone() {
    let mut start = Network::new();
    start.add_nodes((0..50).map(|i| format!("v{i}"))).unwrap();
    let document = edges_document(50, 5 * 4096, "");
    let limits = Limits::default();
    let mut refused = start.clone();
    let mut chunks = 0;
    let extended = extend_streamed(
        Format::NodeLinkJson,
        &document,
        &limits,
        None,
        &mut refused,
        &mut |_| {
            chunks += 1;
            if chunks == 3 {
                Err(Error::Internal {
                    message: "no memory".into(),
                })
            } else {
                Ok(())
            }
        },
    );
    assert!(extended.is_none());
    assert_eq!(chunks, 3);
    assert_eq!(
        (refused.edge_count(), refused.version()),
        (0, start.version())
    );

    let mut stopped = start.clone();
    let budget = crate::budget::Budget::unlimited().with_max_steps(3 * 4096);
    let outcome = budget.run(|| {
        extend_streamed(
            Format::NodeLinkJson,
            &document,
            &limits,
            None,
            &mut stopped,
            &mut |_| Ok(()),
        )
        .is_some()
    });
    assert!(outcome.is_err(), "the budget stops the read");
    assert_eq!(
        (stopped.edge_count(), stopped.version()),
        (0, start.version())
    );
    assert_eq!(edges_of(&stopped), edges_of(&start));
}

/// An import past the edge bound says how its edges were counted only where a
/// statement makes many (DOT subgraphs, Mermaid's `&`): a CSV's refusal does
/// not send the reader looking for subgraphs it never wrote.
#[test]
fn the_edge_bound_explains_its_counting_only_where_statements_multiply() {
    let csv = "source,target\na,b\nb,c\nc,d\n";
    let error = parse_bounded(Format::EdgeListCsv, csv, 2)
        .unwrap_err()
        .to_string();
    assert!(error.contains("--max-import-edges"), "{error}");
    assert!(!error.contains("DOT") && !error.contains("pair"), "{error}");

    let dot = "digraph { {a b} -> {c d} }";
    let error = parse_bounded(Format::Dot, dot, 3).unwrap_err().to_string();
    assert!(
        error.contains("DOT subgraphs counts one edge per pair"),
        "{error}"
    );

    let mermaid = "flowchart TD\n  a & b --> c & d\n";
    let error = parse_bounded(Format::Mermaid, mermaid, 3)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("joined by & counts one edge per pair"),
        "{error}"
    );
}

/// A CSV edge list is read into a new network as it goes: its endpoints made
/// in order of first appearance, each row an edge; merged into a network that
/// holds every endpoint, it goes in in one pass, and undone whole when a row
/// names a node the network lacks.
#[test]
fn a_csv_edge_list_is_built_and_merged_as_read() {
    let limits = Limits::default();
    let mut built = Network::new();
    let done =
        build_streamed(Format::EdgeListCsv, CSV_CASES[0], &limits, None, &mut built).unwrap();
    assert_eq!(
        (done.outcome.nodes_created, done.outcome.edges_created),
        (3, 4)
    );
    let ids: Vec<&str> = built
        .graph()
        .node_weights()
        .map(|n| n.id.as_str())
        .collect();
    assert_eq!(ids, ["a", "b", "z"]);

    let mut held = Network::new();
    held.add_nodes(["a", "b", "q"]).unwrap();
    let before = held.version();
    let mut reserve = |_: usize| Ok(());
    let merged = extend_streamed(
        Format::EdgeListCsv,
        CSV_CASES[3],
        &limits,
        None,
        &mut held,
        &mut reserve,
    )
    .expect("every endpoint is held: one pass");
    assert_eq!(merged.outcome.edges_created, 2);
    assert_eq!(held.edge_count(), 2);
    let mut short = Network::new();
    short.add_nodes(["a", "b"]).unwrap();
    let version = short.version();
    assert!(
        extend_streamed(
            Format::EdgeListCsv,
            CSV_CASES[3],
            &limits,
            None,
            &mut short,
            &mut reserve
        )
        .is_none(),
        "q is missing: the long way"
    );
    assert_eq!((short.edge_count(), short.version()), (0, version));
    assert!(held.version() > before);
}

/// The guess that sizes a new network's edges before a CSV edge list is read
/// is its lines less the header: never more than the text holds, nor the
/// import's edge limit; its nodes are not guessed (an edge list names them
/// any number of times), so nothing is reserved for them.
#[test]
fn csv_estimates_stay_within_the_text_and_the_limits() {
    use crate::interchange::import::csv::estimated_edges;
    assert_eq!(estimated_edges("source,target\na,b\nb,c\n"), 2);
    assert_eq!(estimated_edges(""), 0);
    assert_eq!(estimated_edges("source,target"), 0);
    let newlines = "\n".repeat(10_000);
    assert_eq!(estimated_edges(&newlines), 9_999);
    let tight = Limits {
        max_import_edges: 100,
        ..Limits::default()
    };
    assert_eq!(
        super::estimated_edges(Format::EdgeListCsv, &newlines, &tight),
        100
    );
    assert_eq!(
        super::estimated_nodes(Format::EdgeListCsv, &newlines, &tight),
        0
    );
}

/// A memory graph larger than a chunk, built as read, equals it parsed whole
/// and applied, whether its entities come first (each relation stored as
/// read), after thousands of relations that name them, or written with
/// escapes: an entity named by an earlier relation keeps its attributes.
#[test]
fn a_memory_graph_is_built_as_read_wherever_its_entities_are() {
    let relations = |from: usize, count: usize| -> String {
        (from..from + count)
            .map(|i| {
                format!(
                    "{{\"type\":\"relation\",\"from\":\"n{}\",\"to\":\"n{}\",\"relationType\":\"r{}\"}}\n",
                    i % 700,
                    (i * 7 + 3) % 700,
                    i % 3
                )
            })
            .collect()
    };
    let entities = |from: usize, count: usize, escaped: bool| -> String {
        let kind = if escaped { "\\u0065ntity" } else { "entity" };
        (from..from + count)
            .map(|i| {
                format!("{{\"type\":\"{kind}\",\"name\":\"n{i}\",\"entityType\":\"t{i}\",\"observations\":[\"o{i}\"]}}\n")
            })
            .collect()
    };
    let documents = [
        entities(0, 700, false) + &relations(0, 9000),
        relations(0, 9000) + &entities(0, 700, false) + &relations(9000, 100),
        entities(0, 300, false) + &relations(0, 9000) + &entities(300, 400, true),
    ];
    let limits = Limits::default();
    for document in &documents {
        let mut built = Network::new();
        let as_read =
            build_streamed(Format::MemoryJsonl, document, &limits, None, &mut built).unwrap();
        let mut applied = Network::new();
        let graph = parse_reading(Format::MemoryJsonl, document, &limits, None).unwrap();
        let outcome = apply(&mut applied, graph).unwrap();
        assert_eq!(as_read.outcome, outcome);
        assert_eq!(outcome.nodes_existing, 0, "every entity named once");
        assert_eq!(nodes_of(&built), nodes_of(&applied));
        assert_eq!(edges_of(&built), edges_of(&applied));
        assert_eq!(built.node_count(), 700);
    }
    use crate::interchange::import::memory::{estimated_edges, estimated_nodes};
    assert_eq!(estimated_nodes(&documents[1]), 700);
    assert_eq!(estimated_edges(&documents[1]), 9100);
    let hostile = "\"relation\"\"entity\"".repeat(1000);
    assert!(estimated_edges(&hostile) <= hostile.len() / 16);
    assert!(estimated_nodes(&hostile) <= hostile.len() / 16);
}

/// A node or edge that a line-based document gives wrong (an empty id, a bad
/// attribute key) is refused at its line or row, where the document can be
/// fixed, not by its place among the items read; the same whether the
/// document is parsed whole or built as it is read.
#[test]
fn an_item_fault_in_a_line_based_document_names_its_line() {
    let cases = [
        (Format::EdgeListCsv, "source,target\na,b\nc,\n", "row 3"),
        (
            Format::EdgeListCsv,
            "source,target,\"bad\u{1}key\"\na,b,1\n",
            "row 2",
        ),
        (
            Format::MemoryJsonl,
            "{\"type\":\"entity\",\"name\":\"a\"}\n\n{\"type\":\"relation\",\"from\":\"a\",\"to\":\"\"}\n",
            "line 3",
        ),
        (
            Format::MemoryJsonl,
            "{\"type\":\"relation\",\"from\":\"a\",\"to\":\"b\"}\n{\"type\":\"entity\",\"name\":\"\"}\n",
            "line 2",
        ),
        (
            Format::BeadsJsonl,
            "{\"id\":\"a\"}\n{\"id\":\"\",\"dependencies\":[{\"depends_on_id\":\"a\"}]}\n",
            "line 2, field \"id\"",
        ),
        (
            Format::BeadsJsonl,
            "{\"id\":\"a\",\"dependencies\":[{\"depends_on_id\":\"a\"},{\"depends_on_id\":\"\"}]}\n",
            "line 1, field \"dependencies[1]\"",
        ),
    ];
    let limits = Limits::default();
    for (format, document, location) in cases {
        let parsed = parse(format, document).unwrap_err();
        assert_eq!(parsed.code(), "invalid_import", "{format:?}: {parsed}");
        assert!(
            parsed.to_string().contains(&format!("at {location}:")),
            "{format:?}: {parsed}"
        );
        if builds_as_read(format) {
            let built = build_streamed(format, document, &limits, None, &mut Network::new())
                .err()
                .expect("refused as read");
            assert_eq!(built.to_string(), parsed.to_string());
        }
    }
}
