//! Fuzzes argument decoding and every tool through the dispatch chokepoint; the
//! harness and its invariants are `networks_mcp::fuzzing::dispatch`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| networks_mcp::fuzzing::dispatch(data));
