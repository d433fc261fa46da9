//! The server's tests, in one binary (one link step): in-process MCP calls, the
//! built binary over stdio and HTTP, durability, hostile input, the specs and the
//! tool-list snapshots. Needs the `server` feature.

mod common;

#[global_allocator]
static ALLOCATOR: common::alloc::Counting = common::alloc::Counting;

mod algorithms;
mod algorithms_groups;
mod algorithms_hostile;
mod bad_input;
mod changes;
mod compute;
mod concurrency;
mod demo;
mod dependency_imports;
mod durability;
mod e2e_stdio;
mod epics;
mod files;
mod fuzz_corpus;
mod hostile_wire;
mod http;
mod http_slow_clients;
mod http_ui;
mod import_bounds;
mod mcp_analysis_tools;
mod mcp_core_tools;
mod mcp_edit_tools;
mod mcp_imports;
mod mcp_interchange_tools;
mod mcp_resources;
mod model_based;
mod numbers;
mod page_cache;
mod paging;
mod prop_interchange;
mod query;
mod query_functions;
mod query_planner;
mod reachable;
mod relations;
mod reply_bounds;
mod reply_sizes;
mod specs;
mod storage_faults;
mod tasks;
mod tools_budget;
mod tools_snapshot;
mod toolsets;
mod transcripts;
mod trust;
mod trust_imports;
mod trust_query;
mod versions;
mod vocabulary;
mod work;
mod work_bounds;
mod work_model;
