//! Fuzzes the go_mod_graph reader through `network_import`; the harness and its
//! invariants are `networks_mcp::fuzzing::import`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| networks_mcp::fuzzing::import("go_mod_graph", data));
