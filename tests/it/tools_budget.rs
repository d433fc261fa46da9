//! The tool list is read by a model before every conversation, so its size is a
//! budget: the whole `tools/list` result, and the part a model reads (names,
//! descriptions, input schemas). BENCHMARKS.md records the counts.

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{NetworksServer, ServerOptions, Toolset};
use serde_json::json;

/// The whole `tools/list` result, as compact JSON.
const WHOLE_LIST_BUDGET: usize = 40 * 1024;
/// Names, descriptions and input schemas, as compact JSON.
const MODEL_READ_BUDGET: usize = 24 * 1024;

/// The opt-in `work` toolset on its own, as compact JSON: what a worker adds.
/// 16 KiB since `network_why_blocked` (2.2 KB) and the history tool joined the
/// five claim tools; each shares the four plan parameters. 17 KiB since epics
/// and exclusion groups (`parent_attribute` and `exclusion_attribute` on six
/// tools, `complete_parents`, `epic_node_id`, and the counts and ids they add to
/// replies; BENCHMARKS.md has the bytes).
const WORK_TOOLSET_BUDGET: usize = 17 * 1024;
/// The opt-in `algorithms` toolset on its own, as compact JSON.
const ALGORITHMS_TOOLSET_BUDGET: usize = 17 * 1024;

/// The sizes of the tool list with `options`' toolsets.
fn sizes_with(options: ServerOptions) -> (usize, usize) {
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options);
    let tools = server.listed_tools();
    let whole = serde_json::to_string(&json!({ "tools": tools }))
        .unwrap()
        .len();
    let read: usize = tools
        .iter()
        .map(|tool| {
            serde_json::to_string(&json!({
                "name": tool.name,
                "description": tool.description,
                "input_schema": tool.input_schema,
            }))
            .unwrap()
            .len()
        })
        .sum();
    (whole, read)
}

/// The default tool list.
fn sizes() -> (usize, usize) {
    sizes_with(ServerOptions::default())
}

#[test]
fn tools_list_fits_its_budget() {
    let (whole, read) = sizes();
    eprintln!(
        "tools/list: {whole} bytes whole, {read} bytes of names, descriptions and input schemas"
    );
    assert!(
        whole <= WHOLE_LIST_BUDGET,
        "tools/list is {whole} bytes, over its budget of {WHOLE_LIST_BUDGET}: share schema definitions or trim prose"
    );
    assert!(
        read <= MODEL_READ_BUDGET,
        "names, descriptions and input schemas are {read} bytes, over their budget of {MODEL_READ_BUDGET}"
    );
}

#[test]
fn the_work_toolset_fits_its_budget() {
    let (whole, read) = sizes_with(ServerOptions {
        toolsets: [Toolset::Work].into_iter().collect(),
        ..ServerOptions::default()
    });
    eprintln!("work toolset: {whole} bytes whole, {read} bytes read by a model");
    assert!(
        whole <= WORK_TOOLSET_BUDGET,
        "the work toolset is {whole} bytes, over its budget of {WORK_TOOLSET_BUDGET}"
    );
}

#[test]
fn the_algorithms_toolset_fits_its_budget() {
    let (whole, read) = sizes_with(ServerOptions {
        toolsets: [Toolset::Algorithms].into_iter().collect(),
        ..ServerOptions::default()
    });
    eprintln!("algorithms toolset: {whole} bytes whole, {read} bytes read by a model");
    assert!(
        whole <= ALGORITHMS_TOOLSET_BUDGET,
        "the algorithms toolset is {whole} bytes, over its budget of {ALGORITHMS_TOOLSET_BUDGET}"
    );
}
