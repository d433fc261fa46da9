//! Fuzzes recovery from journal and snapshot bytes; the harness and its
//! invariants are `networks_mcp::fuzzing::recovery`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| networks_mcp::fuzzing::recovery(data));
