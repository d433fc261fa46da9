//! Fuzzes `network_query`'s parser and engine (`networks_mcp::query::run`); the
//! harness and its invariants are `networks_mcp::fuzzing::query`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| networks_mcp::fuzzing::query(data));
