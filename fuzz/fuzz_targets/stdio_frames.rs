//! Fuzzes the stdio frame reader; the harness and its invariants are
//! `networks_mcp::fuzzing::stdio_frames`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| networks_mcp::fuzzing::stdio_frames(data));
