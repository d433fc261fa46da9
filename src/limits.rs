//! Configurable caps that keep one client from exhausting the server. Every cap
//! is checked before anything changes, and a hit is an error object naming the
//! limit and the flag that raises it.

use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// The deepest nesting of arrays and objects accepted in a node's `data` value
/// (a scalar is depth 0, `[1]` depth 1). It sits well below the 128 levels that
/// serde_json reads back, so every accepted value still parses once the journal
/// record or the snapshot wraps it in a few more levels: anything acknowledged can
/// be read back. Not configurable: the on-disk formats depend on it.
pub const MAX_VALUE_DEPTH: usize = 64;

/// The bytes of a reply kept for what is not a page's items: the JSON-RPC
/// envelope, the result's own fields and its notes. A page's items get
/// `max_reply_bytes` minus this ([`Limits::reply_item_bytes`]).
pub const REPLY_ENVELOPE_BYTES: usize = 16 * 1024;

/// The least `--max-reply-bytes` accepted: room for the envelope and a page of
/// items (a 256-byte id costs at most a few KB on the wire, escaped twice).
pub const MIN_REPLY_BYTES: usize = 4 * REPLY_ENVELOPE_BYTES;

/// The caps. `Limits::default()` is what the server uses unless flags say otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Networks per server (`--max-networks`).
    pub max_networks: usize,
    /// Nodes per network (`--max-nodes`).
    pub max_nodes: usize,
    /// Edges per network (`--max-edges`).
    pub max_edges: usize,
    /// Attributes per node or edge (`--max-attributes`).
    pub max_attributes: usize,
    /// Bytes of one node's or edge's attributes as JSON (`--max-attribute-bytes`).
    pub max_attribute_bytes: usize,
    /// Bytes of one node's `data` as JSON (`--max-data-bytes`).
    pub max_data_bytes: usize,
    /// Edges one import may produce (`--max-import-edges`), counted while the
    /// document is read, so a small DOT document whose subgraph endpoints expand to
    /// millions of edges is refused before it takes the memory.
    pub max_import_edges: usize,
    /// Bytes of one tool reply on the wire (`--max-reply-bytes`): `structuredContent`,
    /// its text copy and any document. A page stops at it and says so; an item
    /// larger alone is cut and marked; a reply that still would not fit is
    /// refused with `limit_exceeded`.
    pub max_reply_bytes: usize,
    /// Bytes one import may materialise (`--max-import-memory`), estimated as the
    /// document is read ([`crate::network::estimate`]): nodes, edges, ids,
    /// attributes and data, with every value a GraphML `<default>` or a DOT edge
    /// statement copies onto many items counted once per copy, before the copies
    /// are made.
    pub max_import_bytes: usize,
    /// Bytes all networks together may hold, estimated
    /// ([`Network::estimated_bytes`](crate::network::Network::estimated_bytes)),
    /// checked by the calls that make a network's worth at once: copies and
    /// imports (`--max-memory`).
    pub max_memory: usize,
}

/// `n` GiB, or as many bytes as `usize` holds on a smaller target.
const fn gib(n: u64) -> usize {
    let bytes = n << 30;
    if bytes > usize::MAX as u64 {
        usize::MAX
    } else {
        bytes as usize
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_networks: 1_000,
            max_nodes: 10_000_000,
            max_edges: 50_000_000,
            max_attributes: 64,
            max_attribute_bytes: 64 * 1024,
            max_data_bytes: 1024 * 1024,
            max_import_edges: 4_000_000,
            max_reply_bytes: 8 * 1024 * 1024,
            // A document is at most 16 MiB over the wire by default
            // (`--max-body-bytes`) and materialises a few times its size when
            // nothing in it is copied; 512 MiB leaves room for a document of the
            // fixed 256 MiB import cap read from a file (`--load`) or a larger
            // body, and refuses a key `<default>` or an edge statement that would
            // multiply a small document into gigabytes.
            max_import_bytes: gib(1) / 2,
            // Generous: room for one network at the node and edge caps (about 4
            // GiB of bare records) and as much again in copies, so no ordinary use
            // meets it, while a loop of copies or imports stops well before a
            // typical host runs out. Set it to about half the host's memory.
            max_memory: gib(8),
        }
    }
}

fn exceeded(what: String, limit: usize, flag: &str) -> Error {
    Error::LimitExceeded {
        what,
        limit: limit as u64,
        hint: format!("The server operator can raise it with {flag}."),
    }
}

impl Limits {
    /// The error for an import that would produce more than `limit` edges.
    pub fn import_edges_exceeded(limit: usize) -> Error {
        exceeded("this import's edges".into(), limit, "--max-import-edges")
    }

    /// [`Limits::import_edges_exceeded`] for a format in which one statement
    /// makes many edges: `counting` says how they are counted.
    pub fn import_edges_exceeded_counting(limit: usize, counting: &str) -> Error {
        exceeded(
            format!("this import's edges ({counting})"),
            limit,
            "--max-import-edges",
        )
    }

    /// The error for an import whose materialised memory would pass `limit`
    /// bytes: `format` is its format's name and `cause` what in the document
    /// multiplied, or where the count passed the limit.
    pub fn import_memory_exceeded(format: &str, cause: &str, limit: usize) -> Error {
        Error::LimitExceeded {
            what: format!(
                "the memory this {format} import would take ({cause}; estimated as the document is read, every node, edge, id, attribute and data value, each copy of a default counted)"
            ),
            limit: limit as u64,
            hint: "Shorten or drop the value that is copied onto many items, or split the document and import the parts with mode \"merge\". The server operator can raise the bound with --max-import-memory.".into(),
        }
    }

    /// Checks that networks estimated at `current` bytes can take `added` more
    /// (`what` names the call that would add them).
    pub fn check_memory(&self, current: usize, added: usize, what: &str) -> Result<()> {
        if current.saturating_add(added) > self.max_memory {
            return Err(Error::LimitExceeded {
                what: format!(
                    "{what} (an estimated {added} bytes, on top of the {current} bytes all networks hold)"
                ),
                limit: self.max_memory as u64,
                hint: "Delete networks that are no longer needed (`NetworkRegistry::delete`), or copy or import a part (an induced or neighbourhood copy with `Network::extract`, a smaller document). The server operator can raise the bound with --max-memory.".into(),
            });
        }
        Ok(())
    }

    /// No caps at all: for replaying writes that were already acknowledged under
    /// whatever caps were in force then (a restart with lower caps must not drop them).
    pub fn unlimited() -> Self {
        Limits {
            max_networks: usize::MAX,
            max_nodes: usize::MAX,
            max_edges: usize::MAX,
            max_attributes: usize::MAX,
            max_attribute_bytes: usize::MAX,
            max_data_bytes: usize::MAX,
            max_import_edges: usize::MAX,
            max_import_bytes: usize::MAX,
            max_memory: usize::MAX,
            max_reply_bytes: usize::MAX,
        }
    }

    /// The bytes a page's items may take: the reply bound less the envelope.
    pub fn reply_item_bytes(&self) -> usize {
        self.max_reply_bytes.saturating_sub(REPLY_ENVELOPE_BYTES)
    }

    /// The error for a reply of `bytes` bytes that is over the bound even after
    /// its pages and items were cut.
    pub fn reply_exceeded(&self, tool: &str, bytes: usize) -> Error {
        Error::LimitExceeded {
            what: format!("the reply of {tool} ({bytes} bytes on the wire)"),
            limit: self.max_reply_bytes as u64,
            hint: format!(
                "Ask for less in one call: a smaller limit, a narrower query, or a part of the network copied with `Network::extract`. The server operator can raise --max-reply-bytes (at least {MIN_REPLY_BYTES})."
            ),
        }
    }

    /// Checks one more network.
    pub fn check_networks(&self, existing: usize) -> Result<()> {
        if existing >= self.max_networks {
            return Err(exceeded(
                format!("creating a network (there are {existing})"),
                self.max_networks,
                "--max-networks",
            ));
        }
        Ok(())
    }

    /// Checks that `current + added` nodes fit.
    pub fn check_nodes(&self, current: usize, added: usize) -> Result<()> {
        if current.saturating_add(added) > self.max_nodes {
            return Err(exceeded(
                format!("adding {added} node(s) to {current}"),
                self.max_nodes,
                "--max-nodes",
            ));
        }
        Ok(())
    }

    /// Checks that `current + added` edges fit.
    pub fn check_edges(&self, current: usize, added: usize) -> Result<()> {
        if current.saturating_add(added) > self.max_edges {
            return Err(exceeded(
                format!("adding {added} edge(s) to {current}"),
                self.max_edges,
                "--max-edges",
            ));
        }
        Ok(())
    }

    /// Checks one item's attributes and data payload.
    pub fn check_item(&self, attributes: &Map<String, Value>, data: Option<&Value>) -> Result<()> {
        let bytes = if attributes.is_empty() {
            0
        } else {
            json_map_bytes(attributes)
        };
        self.check_item_sized(attributes.len(), bytes, data)
    }

    /// [`Limits::check_item`] for attributes already measured: `count` of
    /// them, `bytes` long as a JSON object (0 when there are none).
    pub fn check_item_sized(&self, count: usize, bytes: usize, data: Option<&Value>) -> Result<()> {
        if count > self.max_attributes {
            return Err(exceeded(
                format!("{count} attributes on one item"),
                self.max_attributes,
                "--max-attributes",
            ));
        }
        if bytes > self.max_attribute_bytes {
            return Err(exceeded(
                format!("{bytes} bytes of attributes on one item"),
                self.max_attribute_bytes,
                "--max-attribute-bytes",
            ));
        }
        if let Some(data) = data {
            let bytes = json_bytes(data);
            if bytes > self.max_data_bytes {
                return Err(exceeded(
                    format!("{bytes} bytes of data on one node"),
                    self.max_data_bytes,
                    "--max-data-bytes",
                ));
            }
        }
        Ok(())
    }
}

/// The length of `value` serialized as compact JSON, counted while serializing
/// without building the text (a value that cannot be serialized counts what was
/// written before it failed). Every item of an import is measured, so no text
/// is allocated for it.
pub fn json_bytes(value: &Value) -> usize {
    counted(|count| serde_json::to_writer(count, value))
}

/// [`json_bytes`] of a map of attributes, as one JSON object.
pub fn json_map_bytes(map: &Map<String, Value>) -> usize {
    counted(|count| serde_json::to_writer(count, map))
}

/// [`json_bytes`] of a string (quoted and escaped).
pub fn json_str_bytes(text: &str) -> usize {
    counted(|count| serde_json::to_writer(count, text))
}

/// Bytes written by `write`, which writes JSON into a counter.
fn counted(write: impl FnOnce(&mut ByteCount) -> serde_json::Result<()>) -> usize {
    let mut count = ByteCount(0);
    let _ = write(&mut count);
    count.0
}

/// A writer that keeps only how many bytes it was given.
struct ByteCount(usize);

impl std::io::Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.saturating_add(buf.len());
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
