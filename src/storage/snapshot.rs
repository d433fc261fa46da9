//! The snapshot file: every network at one moment.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `NMCPSNAP` |
//! | 8..12 | format version, u32 LE (currently 1) |
//! | 12..16 | CRC-32 of the body |
//! | 16..24 | body length, u64 LE |
//! | 24.. | body: JSON `{"last_seq": …, "networks": [{"name": …, "version": …, "network": NetworkData, "changes": HistoryData}]}` |
//!
//! `changes` (the window of recent changes, `network_changes`) was added to
//! format 1 compatibly: a snapshot without it reads as a network whose window
//! starts at its version, and a build that predates it ignores it.

use serde::{Deserialize, Serialize};

use crate::network::Network;
use crate::network::history::HistoryData;
use crate::network::snapshot::NetworkData;
use crate::registry::NetworkRegistry;

/// File magic.
pub const MAGIC: &[u8; 8] = b"NMCPSNAP";
/// The format version written.
pub const VERSION: u32 = 1;
const HEADER: usize = 24;

#[derive(Serialize, Deserialize)]
struct Body {
    /// The sequence number of the last journal record this snapshot contains.
    #[serde(default)]
    last_seq: u64,
    networks: Vec<Entry>,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    name: String,
    network: NetworkData,
    /// The network's version, so that it never falls across a restart (a
    /// snapshot written before versions existed reads as 0).
    #[serde(default)]
    version: u64,
    /// The window of recent changes; absent in snapshots written before it
    /// existed (the window then starts at `version`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    changes: Option<HistoryData>,
}

/// Encodes every network of `registry`, sorted by name.
pub fn encode(registry: &NetworkRegistry, last_seq: u64) -> Vec<u8> {
    let handles = registry.handles();
    let guards: Vec<_> = handles.iter().map(|(_, n)| n.read()).collect();
    encode_networks(
        handles
            .iter()
            .map(|(name, _)| name.as_str())
            .zip(guards.iter().map(|g| &**g)),
        last_seq,
    )
}

/// Encodes these networks (name and network, sorted by name), as a snapshot
/// through journal record `last_seq`.
pub fn encode_networks<'a>(
    networks: impl Iterator<Item = (&'a str, &'a Network)>,
    last_seq: u64,
) -> Vec<u8> {
    let networks: Vec<Entry> = networks
        .map(|(name, network)| Entry {
            name: name.to_string(),
            network: network.to_data(),
            version: network.version(),
            changes: Some(network.history_data()),
        })
        .collect();
    let body = serde_json::to_vec(&Body { last_seq, networks }).unwrap_or_default();
    let mut bytes = Vec::with_capacity(HEADER + body.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
    bytes.extend_from_slice(&(body.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&body);
    bytes
}

/// Decodes a snapshot, or says at which offset and why it is damaged.
/// A decoded snapshot: the last journal sequence number it holds, and the networks.
pub type Decoded = (u64, Vec<(String, Network)>);

/// Decodes a snapshot; see [`Decoded`].
pub fn decode(bytes: &[u8]) -> Result<Decoded, (u64, String)> {
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err((
            0,
            "not a networks-mcp snapshot (bad magic or too short)".into(),
        ));
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let version = word(8);
    if version != VERSION {
        return Err((
            8,
            format!("format version {version}; this build reads version {VERSION}"),
        ));
    }
    let mut len = [0u8; 8];
    len.copy_from_slice(&bytes[16..24]);
    let len = u64::from_le_bytes(len) as usize;
    if bytes.len() != HEADER + len {
        return Err((
            16,
            format!(
                "body length {len} does not match the file size {}",
                bytes.len()
            ),
        ));
    }
    let body = &bytes[HEADER..];
    if crc32fast::hash(body) != word(12) {
        return Err((HEADER as u64, "body checksum does not match".into()));
    }
    let body: Body = serde_json::from_slice(body)
        .map_err(|e| (HEADER as u64, format!("body is not a valid snapshot: {e}")))?;
    let last_seq = body.last_seq;
    body.networks
        .into_iter()
        .map(|entry| {
            Network::from_data(&entry.name, entry.network)
                .and_then(|mut net| {
                    net.resume_version(entry.version);
                    if let Some(changes) = entry.changes {
                        net.restore_history(changes)?;
                    }
                    Ok((entry.name.clone(), net))
                })
                .map_err(|e| (HEADER as u64, format!("network '{}': {e}", entry.name)))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|networks| (last_seq, networks))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_keeps_each_network_version_so_it_never_falls() {
        let registry = NetworkRegistry::new();
        registry.create("plan", None).unwrap();
        registry
            .write("plan", |net| {
                net.add_nodes(["a", "b", "c"])?;
                net.remove_node("c")?;
                net.set_description(Some("kept".into()));
                Ok(())
            })
            .unwrap();
        let version = registry.read("plan", |net| Ok(net.version())).unwrap();
        let (_, networks) = decode(&encode(&registry, 7)).unwrap();
        let (name, restored) = &networks[0];
        assert_eq!(name, "plan");
        // Rebuilding from data alone would count 2 nodes and a description.
        assert!(version > 3);
        assert_eq!(restored.version(), version);
    }

    #[test]
    fn a_snapshot_keeps_the_window_of_recent_changes_and_an_old_one_reads_without_it() {
        let registry = NetworkRegistry::new();
        registry.create("plan", None).unwrap();
        registry
            .write("plan", |net| {
                net.add_nodes(["a", "b"])?;
                net.add_edge("a", "b", 1.0)?;
                net.remove_node("a")?;
                Ok(())
            })
            .unwrap();
        let (before, version) = registry
            .read("plan", |net| {
                Ok((
                    net.changes_since(0).iter().collect::<Vec<_>>(),
                    net.version(),
                ))
            })
            .unwrap();
        assert_eq!(before.len(), 5);
        let (_, networks) = decode(&encode(&registry, 7)).unwrap();
        let restored = &networks[0].1;
        let after: Vec<_> = restored.changes_since(0).iter().collect();
        assert_eq!(after, before);
        assert!(restored.changes_since(0).complete());

        // Format 1 as written before the window: the network reads, and its
        // window starts at its version.
        let body = br#"{"last_seq": 1, "networks": [{"name": "g", "version": 9, "network": {"description": null, "next_edge_id": 0, "nodes": [{"id": "a", "data": null, "attributes": {}}], "edges": []}}]}"#;
        let (_, networks) = decode(&framed(body)).unwrap();
        let net = &networks[0].1;
        assert_eq!(net.version(), 9);
        let changes = net.changes_since(3);
        assert!(!changes.complete() && changes.is_empty());
        assert_eq!(changes.oldest_version(), 9);
        assert!(net.changes_since(9).complete());
        assert!(version > 0);

        // A window that does not fit its network is refused, not skipped.
        let body = br#"{"last_seq": 1, "networks": [{"name": "g", "version": 2, "network": {"description": null, "next_edge_id": 0, "nodes": [], "edges": []}, "changes": {"oldest_version": 0, "records": [{"version": 5, "change": "description_changed"}]}}]}"#;
        let (_, reason) = decode(&framed(body)).map(|_| ()).unwrap_err();
        assert!(reason.contains("network 'g'"), "{reason}");
    }

    fn framed(body: &[u8]) -> Vec<u8> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&crc32fast::hash(body).to_le_bytes());
        bytes.extend_from_slice(&(body.len() as u64).to_le_bytes());
        bytes.extend_from_slice(body);
        bytes
    }

    #[test]
    fn a_version_at_the_top_of_the_range_reads_back_and_a_write_on_it_does_not_overflow() {
        let body = br#"{"last_seq": 1, "networks": [{"name": "g", "version": 18446744073709551615, "network": {"description": null, "next_edge_id": 0, "nodes": [], "edges": []}}]}"#;
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&crc32fast::hash(body).to_le_bytes());
        bytes.extend_from_slice(&(body.len() as u64).to_le_bytes());
        bytes.extend_from_slice(body);
        let (_, mut networks) = decode(&bytes).unwrap();
        let (_, net) = &mut networks[0];
        assert_eq!(net.version(), u64::MAX);
        net.add_node("a").unwrap();
        assert_eq!(net.version(), u64::MAX);
    }
}
