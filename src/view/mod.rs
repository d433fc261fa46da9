//! The read-only web view (`/ui` in HTTP mode), minus the HTTP: the layered layout
//! (`layout.rs`) and the JSON the page fetches (`model.rs`).
//!
//! The layout is computed here, in Rust, so that the page is a small file of our
//! own (no JavaScript layout library, nothing to bundle) and a plain `cargo install`
//! serves a working view. It sits beside [`crate::network`], not inside it: it is
//! presentation, and `network/` stays pure graph algorithms.

pub(crate) mod layout;
pub(crate) mod model;
