//! The window of recent changes a [`Network`] keeps: what changed since a
//! version, for a reader that comes back to a shared network and wants only
//! the news.
//!
//! Every change of content goes through the one change path
//! ([`Network::change`] and the content setters of `structure.rs`, the updates
//! of `edit.rs`, [`Network::set_description`]); each records what it did here,
//! with the version it made, as it counts that version. Nothing else writes a
//! network, so nothing is missed.
//!
//! The cost of a write is O(its size): an added node or edge is kept as its
//! index or id alone (no allocation), and its ids, endpoints and weight are read
//! when the window is read (an edge's endpoints never change; a node's index is
//! taken again by a later node only after a removal, which the window holds with
//! the id). A removal keeps the ids it removed; a change of attributes keeps the
//! changed keys with their values before and after, a string value longer than
//! [`MAX_RECORDED_VALUE_BYTES`] cut (marked as [`crate::error::clip`] marks it);
//! a change of data keeps only that it changed.
//!
//! The window is bounded ([`ChangeWindow`]: records and bytes); the oldest
//! versions leave it first, each version whole, so that it always holds every
//! change after [`Changes::oldest_version`]. A reader asking from before that
//! learns so ([`Changes::complete`]) and must read the network again (or compare
//! it with a copy it made earlier).

use std::collections::VecDeque;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use hashbrown::HashMap;
use petgraph::stable_graph::NodeIndex;
use serde_json::{Map, Value};

use super::estimate::attribute_bytes;
use super::{Attributes, EdgeId, Network};
use crate::error::{Error, Result};

/// The longest string value, in bytes, that a change of attributes records
/// whole; a longer one is recorded cut, ending in `… (N bytes in all)`.
pub const MAX_RECORDED_VALUE_BYTES: usize = 256;

/// How much a network's window of recent changes holds: at most `max_records`
/// records and about `max_bytes` bytes; past either, the oldest versions leave.
/// `max_records: 0` keeps nothing (and costs nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangeWindow {
    /// The most change records kept.
    pub max_records: usize,
    /// The most bytes they may take (estimated as [`Network::estimated_bytes`] does).
    pub max_bytes: usize,
}

impl ChangeWindow {
    /// The default: the last 10,000 changes, within 4 MiB.
    pub const DEFAULT: ChangeWindow = ChangeWindow {
        max_records: 10_000,
        max_bytes: 4 << 20,
    };

    /// A window that keeps nothing.
    pub const OFF: ChangeWindow = ChangeWindow {
        max_records: 0,
        max_bytes: 0,
    };
}

/// The window new networks get ([`ChangeWindow::set_default`]).
static DEFAULT_RECORDS: AtomicUsize = AtomicUsize::new(ChangeWindow::DEFAULT.max_records);
static DEFAULT_BYTES: AtomicUsize = AtomicUsize::new(ChangeWindow::DEFAULT.max_bytes);

impl ChangeWindow {
    /// Sets the window every network made from now on in this process gets
    /// (a server's `--change-window`); networks made before keep theirs.
    pub fn set_default(window: ChangeWindow) {
        DEFAULT_RECORDS.store(window.max_records, Ordering::Relaxed);
        DEFAULT_BYTES.store(window.max_bytes, Ordering::Relaxed);
    }
}

impl Default for ChangeWindow {
    /// [`ChangeWindow::DEFAULT`], unless the program set another with
    /// [`ChangeWindow::set_default`].
    fn default() -> Self {
        ChangeWindow {
            max_records: DEFAULT_RECORDS.load(Ordering::Relaxed),
            max_bytes: DEFAULT_BYTES.load(Ordering::Relaxed),
        }
    }
}

/// What one change did.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "change", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum ChangeKind {
    /// A node was added.
    NodeAdded {
        /// Its id.
        node_id: String,
    },
    /// A node was removed (its edges' removals are recorded before it, at the same version).
    NodeRemoved {
        /// Its id.
        node_id: String,
    },
    /// An edge was added.
    EdgeAdded {
        /// Its id.
        edge_id: EdgeId,
        /// Its source node's id.
        source: String,
        /// Its target node's id.
        target: String,
        /// Its weight.
        weight: f64,
    },
    /// An edge was removed.
    EdgeRemoved {
        /// Its id.
        edge_id: EdgeId,
        /// Its source node's id.
        source: String,
        /// Its target node's id.
        target: String,
        /// Its weight.
        weight: f64,
    },
    /// A node's attributes or data changed.
    NodeChanged {
        /// Its id.
        node_id: String,
        /// The changed keys' values before (`null`: absent).
        attributes_before: Map<String, Value>,
        /// Their values after (`null`: absent).
        attributes_after: Map<String, Value>,
        /// Whether its data changed (the data itself is not recorded).
        data_changed: bool,
    },
    /// The network's description changed.
    DescriptionChanged,
    /// The network's non-blocking relation types changed.
    NonblockingRelationsChanged,
}

/// One change and the version it made.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChangeRecord {
    /// The version the change made (the network's version right after it).
    pub version: u64,
    /// What it did.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub change: ChangeKind,
}

/// A window of changes in plain data, as a snapshot keeps it
/// ([`Network::history_data`], [`Network::restore_history`]).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HistoryData {
    /// Every change after this version is in `records`.
    pub oldest_version: u64,
    /// The changes, oldest first.
    pub records: Vec<ChangeRecord>,
}

/// A change as the window keeps it: the common cases without allocating.
#[derive(Debug, Clone)]
pub(super) enum Entry {
    /// The node now (or until its removal) at this index was added.
    NodeAdded(NodeIndex),
    /// The node at this index, with this id, was removed.
    NodeRemoved(NodeIndex, Box<str>),
    /// The edge with this id was added (its endpoints are read from the graph,
    /// or from its removal's record).
    EdgeAdded(EdgeId),
    /// Anything else, kept whole.
    Kept(Box<ChangeKind>),
}

impl Entry {
    /// A change of a node's attributes and data, its keys diffed: O(attributes).
    pub(super) fn node_changed(
        id: &str,
        before: &Attributes,
        after: &Attributes,
        data_changed: bool,
    ) -> Entry {
        let mut attributes_before = Map::new();
        let mut attributes_after = Map::new();
        for (key, old) in before.iter() {
            let new = after.get(key);
            if new != Some(old) {
                attributes_before.insert(key.to_string(), recorded(old));
                attributes_after.insert(key.to_string(), new.map(recorded).unwrap_or(Value::Null));
            }
        }
        for (key, new) in after.iter() {
            if before.get(key).is_none() {
                attributes_before.insert(key.to_string(), Value::Null);
                attributes_after.insert(key.to_string(), recorded(new));
            }
        }
        Entry::Kept(Box::new(ChangeKind::NodeChanged {
            node_id: id.to_string(),
            attributes_before,
            attributes_after,
            data_changed,
        }))
    }

    /// Whether this is a plain addition: one record of its own version that
    /// holds no text ([`History::begin_run`]).
    #[inline(always)]
    fn is_plain_addition(&self) -> bool {
        matches!(self, Entry::NodeAdded(_) | Entry::EdgeAdded(_))
    }

    /// What the entry holds, in bytes, estimated.
    #[inline]
    fn bytes(&self) -> usize {
        match self {
            Entry::NodeAdded(_) | Entry::EdgeAdded(_) => std::mem::size_of::<Record>(),
            _ => self.bytes_slow(),
        }
    }

    /// [`Entry::bytes`] for the entries that hold text.
    #[inline(never)]
    fn bytes_slow(&self) -> usize {
        let text = match self {
            Entry::NodeAdded(_) | Entry::EdgeAdded(_) => 0,
            Entry::NodeRemoved(_, id) => id.len(),
            Entry::Kept(kind) => {
                std::mem::size_of::<ChangeKind>()
                    + match &**kind {
                        ChangeKind::NodeAdded { node_id } | ChangeKind::NodeRemoved { node_id } => {
                            node_id.len()
                        }
                        ChangeKind::EdgeAdded { source, target, .. }
                        | ChangeKind::EdgeRemoved { source, target, .. } => {
                            source.len() + target.len()
                        }
                        ChangeKind::NodeChanged {
                            node_id,
                            attributes_before,
                            attributes_after,
                            ..
                        } => {
                            node_id.len()
                                + attributes_before
                                    .iter()
                                    .chain(attributes_after)
                                    .map(|(k, v)| attribute_bytes(k, v))
                                    .sum::<usize>()
                        }
                        ChangeKind::DescriptionChanged
                        | ChangeKind::NonblockingRelationsChanged => 0,
                    }
            }
        };
        std::mem::size_of::<Record>() + text
    }
}

/// A value as a change records it: a long string cut.
fn recorded(value: &Value) -> Value {
    match value {
        Value::String(text) if text.len() > MAX_RECORDED_VALUE_BYTES => {
            let mut end = MAX_RECORDED_VALUE_BYTES;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            Value::String(format!("{}… ({} bytes in all)", &text[..end], text.len()))
        }
        other => other.clone(),
    }
}

#[derive(Debug, Clone)]
struct Record {
    version: u64,
    entry: Entry,
}

/// The window itself: a field of [`Network`].
#[derive(Debug, Clone, Default)]
pub(super) struct History {
    records: VecDeque<Record>,
    /// The position of `records[0]` among every record ever kept by this
    /// network in this process: positions name records across evictions.
    first_position: u64,
    /// Every change after this version is in `records`.
    oldest_version: u64,
    bytes: usize,
    window: ChangeWindow,
    /// How many of the next pushes, the first of a run announced by
    /// [`History::begin_run`], would leave the window before the run ends:
    /// they are counted as they come instead of kept and then dropped.
    passing: usize,
}

impl History {
    /// Records `entry`, made by `version`, then drops the oldest versions past
    /// the bounds. O(1) amortized, plus the entry's size.
    ///
    /// Always inlined, for its fast path only: the usual case of a full
    /// window, one add after another, where the oldest record (a plain
    /// addition alone in its version) makes room for this one and the bytes
    /// held stay the same. At a call site that pushes anything else, the
    /// first test is known false and only the call to the general path is
    /// left. As the general path (push, then trim) without its bookkeeping:
    /// that was a sixth of a single `add_edge`'s instructions.
    #[inline(always)]
    pub(super) fn push(&mut self, version: u64, entry: Entry) {
        if entry.is_plain_addition()
            && self.passing == 0
            && self.records.len() == self.window.max_records
            && self.bytes <= self.window.max_bytes
            && let Some(front) = self.records.front()
            && front.entry.is_plain_addition()
            && front.version != version
            && self
                .records
                .get(1)
                .is_none_or(|next| next.version != front.version)
        {
            let dropped = front.version;
            // A plain addition holds no heap data: forgetting it frees nothing,
            // and skips its drop glue's call.
            std::mem::forget(self.records.pop_front());
            self.records.push_back(Record { version, entry });
            self.first_position += 1;
            self.oldest_version = self.oldest_version.max(dropped);
            return;
        }
        self.push_slow(version, entry);
    }

    /// [`History::push`] past its fast path.
    #[inline(never)]
    fn push_slow(&mut self, version: u64, entry: Entry) {
        if self.passing > 0 {
            // As pushed, then dropped by a later push of the run.
            debug_assert!(entry.is_plain_addition());
            self.passing -= 1;
            self.first_position += 1;
            self.oldest_version = self.oldest_version.max(version);
            return;
        }
        if self.window.max_records == 0 {
            self.oldest_version = version;
            return;
        }
        self.push_and_trim(version, entry);
    }

    /// [`History::push`]'s general path: keep the record, then drop the oldest
    /// versions past the bounds.
    fn push_and_trim(&mut self, version: u64, entry: Entry) {
        self.bytes = self.bytes.saturating_add(entry.bytes());
        self.records.push_back(Record { version, entry });
        if self.records.len() > self.window.max_records || self.bytes > self.window.max_bytes {
            self.trim();
        }
    }

    /// Announces a run of `count` pushes to come, each of a plain addition
    /// ([`Entry::NodeAdded`] or [`Entry::EdgeAdded`]) at its own version, the
    /// first at `version + 1`, the next one higher, and so on: a bulk insert. When
    /// the run is longer than the window holds, the window ends holding only the
    /// run's last records, so what it held before is dropped now and the run's
    /// first records are counted as they come instead of kept and dropped one by
    /// one (O(1) each, no record written). The window after the run is exactly
    /// what pushing each one would leave. Finish with [`History::end_run`].
    pub(super) fn begin_run(&mut self, version: u64, count: usize) {
        // Each record of the run is alone in its version only while versions
        // do not saturate.
        let distinct = version
            .checked_add(count as u64)
            .is_some_and(|last| last < u64::MAX);
        if self.window.max_records == 0 || !distinct {
            return;
        }
        // The run's records all weigh this much, and every record at least this.
        let size = std::mem::size_of::<Record>();
        let fits = self.window.max_records.min(self.window.max_bytes / size);
        if count <= fits {
            return;
        }
        // The last `fits` records of the run fill the window: nothing older stays.
        if let Some(last) = self.records.back() {
            self.oldest_version = self.oldest_version.max(last.version);
        }
        self.forget_records();
        self.passing = count - fits;
    }

    /// Ends a run begun by [`History::begin_run`].
    pub(super) fn end_run(&mut self) {
        debug_assert_eq!(self.passing, 0, "a run pushed fewer records than announced");
        self.passing = 0;
    }

    /// Drops every record, counting them as dropped.
    fn forget_records(&mut self) {
        self.first_position += self.records.len() as u64;
        self.records.clear();
        self.bytes = 0;
    }

    /// Drops the oldest versions, each whole, until the window fits its bounds.
    #[inline(never)]
    fn trim(&mut self) {
        while self.records.len() > self.window.max_records || self.bytes > self.window.max_bytes {
            let Some(version) = self.records.front().map(|r| r.version) else {
                break;
            };
            while let Some(record) = self.records.front()
                && record.version == version
            {
                self.bytes = self.bytes.saturating_sub(record.entry.bytes());
                self.records.pop_front();
                self.first_position += 1;
            }
            self.oldest_version = self.oldest_version.max(version);
        }
    }

    /// Forgets everything: the network's past before `version` is unknown.
    pub(super) fn forget(&mut self, version: u64) {
        self.forget_records();
        self.oldest_version = version;
    }

    /// The estimated bytes the window holds.
    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }
}

/// The changes made after a version, as [`Network::changes_since`] answers:
/// read lazily from the window, oldest first.
#[derive(Debug)]
pub struct Changes<'a> {
    net: &'a Network,
    /// Index in the window of the first change listed.
    start: usize,
    complete: bool,
    /// Where each removed node index and edge id was removed, in the listed part.
    removals: OnceLock<Removals>,
}

#[derive(Debug, Default)]
struct Removals {
    nodes: HashMap<NodeIndex, Vec<usize>>,
    edges: HashMap<EdgeId, usize>,
}

impl<'a> Changes<'a> {
    /// Whether every change after the version asked for is listed: false when
    /// older changes left the window, and the list starts after
    /// [`Changes::oldest_version`] instead.
    pub fn complete(&self) -> bool {
        self.complete
    }

    /// Every change after this version is in the window.
    pub fn oldest_version(&self) -> u64 {
        self.net.history.oldest_version
    }

    /// How many changes are listed.
    pub fn len(&self) -> usize {
        self.net.history.records.len() - self.start
    }

    /// Whether no change is listed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The position of the first change listed: positions name changes across
    /// writes and evictions for as long as this network lives in this process
    /// (a cursor can hold one).
    pub fn first_position(&self) -> u64 {
        self.net.history.first_position + self.start as u64
    }

    /// The position one past the last change listed.
    pub fn end_position(&self) -> u64 {
        self.net.history.first_position + self.net.history.records.len() as u64
    }

    /// The listed changes, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = ChangeRecord> + '_ {
        self.iter_from(self.first_position())
    }

    /// The listed changes from position `position` on (from the first listed,
    /// if it is before it). O(1) to start, O(its size) per change, after one
    /// pass over the listed changes the first time one needs a removal's record.
    pub fn iter_from(&self, position: u64) -> impl Iterator<Item = ChangeRecord> + '_ {
        let history = &self.net.history;
        let from = position
            .saturating_sub(history.first_position)
            .min(history.records.len() as u64) as usize;
        (from.max(self.start)..history.records.len()).map(move |at| self.resolve(at))
    }

    fn removals(&self) -> &Removals {
        self.removals.get_or_init(|| {
            let mut removals = Removals::default();
            for (at, record) in self.net.history.records.iter().enumerate().skip(self.start) {
                match &record.entry {
                    Entry::NodeRemoved(ix, _) => removals.nodes.entry(*ix).or_default().push(at),
                    Entry::Kept(kind) => {
                        if let ChangeKind::EdgeRemoved { edge_id, .. } = &**kind {
                            removals.edges.insert(*edge_id, at);
                        }
                    }
                    _ => {}
                }
            }
            removals
        })
    }

    /// The change at index `at` of the window, with its ids read.
    fn resolve(&self, at: usize) -> ChangeRecord {
        let record = &self.net.history.records[at];
        let change = match &record.entry {
            Entry::NodeAdded(ix) => {
                // The node's id is that of its removal, if a later change removed
                // the node at this index; otherwise the node's at it now.
                let removed = self.removals().nodes.get(ix).and_then(|list| {
                    let next = list.partition_point(|&r| r <= at);
                    list.get(next)
                });
                let node_id = match removed.map(|&r| &self.net.history.records[r].entry) {
                    Some(Entry::NodeRemoved(_, id)) => id.to_string(),
                    _ => self
                        .net
                        .graph
                        .node_weight(*ix)
                        .map(|n| n.id.to_string())
                        .unwrap_or_default(),
                };
                ChangeKind::NodeAdded { node_id }
            }
            Entry::NodeRemoved(_, id) => ChangeKind::NodeRemoved {
                node_id: id.to_string(),
            },
            Entry::EdgeAdded(edge_id) => match self.net.edge(*edge_id) {
                Some(edge) => ChangeKind::EdgeAdded {
                    edge_id: *edge_id,
                    source: edge.source.to_string(),
                    target: edge.target.to_string(),
                    weight: edge.weight,
                },
                None => {
                    let removal = self
                        .removals()
                        .edges
                        .get(edge_id)
                        .map(|&r| &self.net.history.records[r].entry);
                    match removal {
                        Some(Entry::Kept(kind)) => match &**kind {
                            ChangeKind::EdgeRemoved {
                                source,
                                target,
                                weight,
                                ..
                            } => ChangeKind::EdgeAdded {
                                edge_id: *edge_id,
                                source: source.clone(),
                                target: target.clone(),
                                weight: *weight,
                            },
                            _ => unknown_edge(*edge_id),
                        },
                        _ => unknown_edge(*edge_id),
                    }
                }
            },
            Entry::Kept(kind) => (**kind).clone(),
        };
        ChangeRecord {
            version: record.version,
            change,
        }
    }
}

/// An added edge whose endpoints are known nowhere: cannot happen (a removal
/// after an addition is in the window whenever the addition is), but a wrong
/// answer beats a panic.
fn unknown_edge(edge_id: EdgeId) -> ChangeKind {
    ChangeKind::EdgeAdded {
        edge_id,
        source: String::new(),
        target: String::new(),
        weight: f64::NAN,
    }
}

impl Network {
    /// The changes made after `version`, oldest first, from the window of
    /// recent changes this network keeps ([`ChangeWindow`], by default the last
    /// 10,000 within 4 MiB): nodes and edges added and removed, attributes
    /// changed (the keys, with their values before and after), data and
    /// description changed, each with the version it made. Several changes can
    /// share a version (a node removed with its edges).
    ///
    /// When changes after `version` have left the window, the answer is not
    /// [`complete`](Changes::complete): it lists what the window holds, from
    /// [`oldest_version`](Changes::oldest_version) on, and the reader must read
    /// the network again for what it missed. A `version` at or past the
    /// network's own lists nothing. O(1), then O(size) per change read.
    ///
    /// ```
    /// use networks_mcp::network::{AttributeUpdate, ChangeKind, Network};
    /// use serde_json::{Map, json};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["build", "test"])?;
    /// let seen = net.version();
    /// net.add_edge("test", "build", 1.0)?;
    /// let mut done = Map::new();
    /// done.insert("status".into(), json!("done"));
    /// net.update_node("build", None, Some(done), AttributeUpdate::Merge, &[])?;
    ///
    /// let changes = net.changes_since(seen);
    /// assert!(changes.complete());
    /// let records: Vec<_> = changes.iter().collect();
    /// assert_eq!(records.len(), 2);
    /// assert_eq!(records[0].version, seen + 1);
    /// assert!(matches!(&records[0].change, ChangeKind::EdgeAdded { source, .. } if source == "test"));
    /// let ChangeKind::NodeChanged { node_id, attributes_before, attributes_after, .. } = &records[1].change else {
    ///     panic!("a change of attributes");
    /// };
    /// assert_eq!(node_id, "build");
    /// assert_eq!((&attributes_before["status"], &attributes_after["status"]), (&json!(null), &json!("done")));
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn changes_since(&self, version: u64) -> Changes<'_> {
        let history = &self.history;
        let complete = version >= history.oldest_version;
        let after = version.max(history.oldest_version);
        let start = history.records.partition_point(|r| r.version <= after);
        Changes {
            net: self,
            start,
            complete,
            removals: OnceLock::new(),
        }
    }

    /// The bounds of this network's window of recent changes.
    pub fn change_window(&self) -> ChangeWindow {
        self.history.window
    }

    /// Sets the bounds of the window of recent changes; a smaller window drops
    /// the oldest versions now. Not a change of content.
    pub fn set_change_window(&mut self, window: ChangeWindow) {
        self.history.window = window;
        if window.max_records == 0 {
            self.history.forget(self.version);
        } else {
            self.history.trim();
        }
    }

    /// Forgets the window: changes before the current version are unknown from
    /// now on (a copy's past is its original's). Not a change of content.
    pub(crate) fn forget_history(&mut self) {
        self.history.forget(self.version);
    }

    /// The window of recent changes in plain data, each change read, for a
    /// snapshot. O(window).
    pub fn history_data(&self) -> HistoryData {
        let changes = self.changes_since(self.history.oldest_version);
        HistoryData {
            oldest_version: self.history.oldest_version,
            records: changes.iter().collect(),
        }
    }

    /// Puts back a window saved by [`Network::history_data`] on the network it
    /// was taken from, as restored at the same version: checked as strictly as
    /// a snapshot's content (versions in order, after `oldest_version` and not
    /// past the network's; flat attribute values), then trimmed to this
    /// network's [`ChangeWindow`]. Not a change of content.
    pub fn restore_history(&mut self, data: HistoryData) -> Result<()> {
        let invalid = |reason: String| Error::InvalidValue {
            field: "changes".into(),
            reason,
        };
        if data.oldest_version > self.version {
            return Err(invalid(format!(
                "oldest_version {} is past the network's version {}",
                data.oldest_version, self.version
            )));
        }
        let mut last = data.oldest_version;
        for record in &data.records {
            if record.version <= data.oldest_version
                || record.version < last
                || record.version > self.version
            {
                return Err(invalid(format!(
                    "a change at version {} is out of order (after {last}, within {}..={})",
                    record.version, data.oldest_version, self.version
                )));
            }
            last = record.version;
            if let ChangeKind::NodeChanged {
                attributes_before,
                attributes_after,
                ..
            } = &record.change
            {
                super::validate::attributes("attributes_before", attributes_before)?;
                super::validate::attributes("attributes_after", attributes_after)?;
            }
        }
        self.history.forget(data.oldest_version);
        for record in data.records {
            let entry = Entry::Kept(Box::new(record.change));
            self.history.bytes = self.history.bytes.saturating_add(entry.bytes());
            self.history.records.push_back(Record {
                version: record.version,
                entry,
            });
        }
        self.history.trim();
        if self.history.window.max_records == 0 {
            self.history.forget(self.version);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(net: &Network, since: u64) -> Vec<String> {
        net.changes_since(since)
            .iter()
            .map(|r| match r.change {
                ChangeKind::NodeAdded { node_id } => format!("{} +{node_id}", r.version),
                ChangeKind::NodeRemoved { node_id } => format!("{} -{node_id}", r.version),
                ChangeKind::EdgeAdded {
                    edge_id,
                    source,
                    target,
                    ..
                } => format!("{} +{edge_id}:{source}>{target}", r.version),
                ChangeKind::EdgeRemoved {
                    edge_id,
                    source,
                    target,
                    ..
                } => format!("{} -{edge_id}:{source}>{target}", r.version),
                other => format!("{} {other:?}", r.version),
            })
            .collect()
    }

    #[test]
    fn added_nodes_and_edges_read_their_ids_even_after_removal_and_index_reuse() {
        let mut net = Network::new();
        net.add_nodes(["a", "b"]).unwrap();
        net.add_edge("a", "b", 1.0).unwrap();
        net.remove_node("a").unwrap();
        // Takes the index "a" had.
        net.add_node("c").unwrap();
        net.add_edge("c", "b", 2.0).unwrap();
        assert_eq!(
            lines(&net, 0),
            [
                "1 +a", "2 +b", "3 +0:a>b", "4 -0:a>b", "4 -a", "5 +c", "6 +1:c>b"
            ]
        );
        assert_eq!(lines(&net, 4), ["5 +c", "6 +1:c>b"]);
        assert!(net.changes_since(6).is_empty());
    }

    #[test]
    fn the_window_drops_whole_versions_and_says_from_where_it_is_complete() {
        let mut net = Network::new();
        net.set_change_window(ChangeWindow {
            max_records: 3,
            max_bytes: 1 << 20,
        });
        net.add_nodes(["a", "b", "c"]).unwrap();
        net.add_edge("a", "b", 1.0).unwrap();
        net.add_edge("c", "b", 1.0).unwrap();
        // Removing b removes two edges and b at one version: 3 records.
        net.remove_node("b").unwrap();
        let changes = net.changes_since(0);
        assert!(!changes.complete());
        assert_eq!(changes.oldest_version(), 5);
        assert_eq!(lines(&net, 0), ["6 -0:a>b", "6 -1:c>b", "6 -b"]);
        assert!(net.changes_since(5).complete());
        // A write larger than the window (d removed with three edges: four
        // records at version 11): nothing of it is kept, and the window says
        // it is complete only after it.
        net.add_node("d").unwrap();
        for _ in 0..3 {
            net.add_edge("d", "c", 1.0).unwrap();
        }
        net.remove_node("d").unwrap();
        assert_eq!(net.version(), 11);
        let changes = net.changes_since(10);
        assert!(!changes.complete() && changes.is_empty());
        assert_eq!(changes.oldest_version(), 11);
        assert!(net.changes_since(11).complete());
    }

    #[test]
    fn a_batch_longer_than_the_window_leaves_it_as_edge_by_edge_would() {
        use crate::network::MissingNodes;
        let windows = [
            ChangeWindow::DEFAULT,
            ChangeWindow {
                max_records: 5,
                max_bytes: 1 << 20,
            },
            ChangeWindow {
                max_records: 100,
                max_bytes: 3 * std::mem::size_of::<Record>() + 7,
            },
            ChangeWindow {
                max_records: 100,
                max_bytes: 1,
            },
            ChangeWindow::OFF,
        ];
        for window in windows {
            for batch in [0, 1, 3, 4, 5, 6, 12, 40] {
                let start = |net: &mut Network| {
                    net.set_change_window(window);
                    net.add_nodes(["a", "b", "c"]).unwrap();
                    net.add_edge("a", "b", 1.0).unwrap();
                    net.add_edge("c", "b", 1.0).unwrap();
                    // Three records at one version.
                    net.remove_node("c").unwrap();
                    net.add_node("c").unwrap();
                };
                let edges: Vec<(&str, &str, f64)> = (0..batch)
                    .map(|i| (["a", "b", "c"][i % 3], "b", i as f64))
                    .collect();
                let mut one_by_one = Network::new();
                start(&mut one_by_one);
                for &(s, t, w) in &edges {
                    one_by_one.add_edge(s, t, w).unwrap();
                }
                let mut bulk = Network::new();
                start(&mut bulk);
                bulk.add_edges(edges.iter().copied(), MissingNodes::Fail)
                    .unwrap();
                let case = format!("{window:?}, {batch} edges");
                assert_eq!(bulk.version(), one_by_one.version(), "{case}");
                assert_eq!(bulk.history_data(), one_by_one.history_data(), "{case}");
                assert_eq!(bulk.history.bytes, one_by_one.history.bytes, "{case}");
                for since in [0, 3, 6, one_by_one.version() - 1] {
                    let (x, y) = (bulk.changes_since(since), one_by_one.changes_since(since));
                    assert_eq!(
                        (x.complete(), x.oldest_version(), x.len()),
                        (y.complete(), y.oldest_version(), y.len()),
                        "{case}, since {since}"
                    );
                    assert_eq!(
                        (x.first_position(), x.end_position()),
                        (y.first_position(), y.end_position()),
                        "{case}, since {since}"
                    );
                }
                // And the window goes on as before after the batch.
                for net in [&mut bulk, &mut one_by_one] {
                    net.add_edge("a", "c", 1.0).unwrap();
                    net.remove_node("a").unwrap();
                }
                assert_eq!(bulk.history_data(), one_by_one.history_data(), "{case}");
                assert_eq!(
                    bulk.changes_since(0).end_position(),
                    one_by_one.changes_since(0).end_position(),
                    "{case}"
                );
            }
        }
    }

    /// `push`'s shortcut for a full window leaves it exactly as the general
    /// path would, across windows bounded by records and by bytes, versions of
    /// one or several records, and records that hold text.
    #[test]
    fn pushing_into_a_full_window_is_pushing_then_trimming() {
        let windows = [
            (1, 1 << 20),
            (2, 1 << 20),
            (5, 1 << 20),
            (8, 200),
            (64, 1 << 20),
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for (max_records, max_bytes) in windows {
            let window = ChangeWindow {
                max_records,
                max_bytes,
            };
            let mut fast = History::default();
            let mut general = History::default();
            fast.window = window;
            general.window = window;
            let mut version = 0;
            for step in 0..2_000u64 {
                // Mostly one plain addition per version, sometimes several
                // records at one version, sometimes a record holding text.
                let records = if next(8) == 0 { 1 + next(3) } else { 1 };
                version += 1;
                for k in 0..records {
                    let (kind, text) = (next(10), next(40) as usize);
                    let entry = || match kind {
                        0 => {
                            Entry::NodeRemoved(NodeIndex::new(k as usize), "x".repeat(text).into())
                        }
                        1..=4 => Entry::NodeAdded(NodeIndex::new(step as usize)),
                        _ => Entry::EdgeAdded(step),
                    };
                    fast.push(version, entry());
                    general.push_and_trim(version, entry());
                }
                let state = |h: &History| {
                    format!(
                        "{:?} {} {} {}",
                        h.records, h.first_position, h.oldest_version, h.bytes
                    )
                };
                assert_eq!(state(&fast), state(&general), "{window:?}, step {step}");
            }
        }
    }

    #[test]
    fn history_data_round_trips_and_bad_data_is_refused() {
        let mut net = Network::new();
        net.add_nodes(["a", "b"]).unwrap();
        net.add_edge("a", "b", 1.0).unwrap();
        let mut map = Map::new();
        map.insert("k".into(), Value::String("x".repeat(1000)));
        net.update_node(
            "a",
            None,
            Some(map),
            crate::network::AttributeUpdate::Merge,
            &[],
        )
        .unwrap();
        let data = net.history_data();
        let ChangeKind::NodeChanged {
            attributes_after, ..
        } = &data.records[3].change
        else {
            panic!("{data:?}");
        };
        assert!(
            attributes_after["k"]
                .as_str()
                .unwrap()
                .ends_with("(1000 bytes in all)")
        );
        let mut copy = Network::from_data("copy", net.to_data()).unwrap();
        // As a restore resumes the version (storage's `resume_version`).
        copy.version = net.version();
        copy.forget_history();
        copy.restore_history(data.clone()).unwrap();
        assert_eq!(copy.history_data(), data);
        let mut late = data.clone();
        late.records[0].version = 99;
        assert!(copy.restore_history(late).is_err());
        let mut early = data;
        early.oldest_version = 2;
        assert!(copy.restore_history(early).is_err());
    }
}
