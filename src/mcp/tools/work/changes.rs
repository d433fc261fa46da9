//! `network_changes`: what changed in a network since a version, from the
//! window of recent changes the network keeps ([`Network::changes_since`]), so
//! that an agent coming back to a shared plan reads only the news.
//!
//! The list is append-only while the window covers `since_version`, so its
//! cursor names a change's position, not a version of the network: it survives
//! writes made between pages, and the changes they made come after the ones
//! already listed. A cursor whose change has left the window answers what the
//! window still holds, marked incomplete.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::mcp::page::{Page, State, halve_map, shrink_to};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success, check_limit};
use crate::network::{ChangeKind, ChangeRecord, Network};

/// The most changes one page lists.
pub const MAX_CHANGES_LIMIT: usize = 1_000;

fn default_changes_limit() -> usize {
    100
}

/// Parameters of `network_changes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangesParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Changes after this version.
    #[schemars(range(min = 0))]
    pub since_version: u64,
    /// Changes per page.
    #[serde(default = "default_changes_limit")]
    #[schemars(range(min = 1, max = MAX_CHANGES_LIMIT))]
    pub limit: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// One change, with the version it made.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ChangeOut {
    /// The version the change made.
    pub version: u64,
    /// node_added, node_removed, node_changed, edge_added, edge_removed, description_changed or nonblocking_relations_changed.
    pub change: String,
    /// The node added, removed or changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_id: Option<String>,
    /// The edge added or removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edge_id: Option<u64>,
    /// Its source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Its target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Its weight.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight: Option<f64>,
    /// The changed keys' values before (null: absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attributes_before: Option<Map<String, Value>>,
    /// Their values after (null: absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attributes_after: Option<Map<String, Value>>,
    /// Whether the node's data changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_changed: Option<bool>,
    /// Some changed keys were left out to keep the reply small (read the node).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<bool>,
}

impl From<ChangeRecord> for ChangeOut {
    fn from(record: ChangeRecord) -> Self {
        let mut out = ChangeOut {
            version: record.version,
            change: String::new(),
            node_id: None,
            edge_id: None,
            source: None,
            target: None,
            weight: None,
            attributes_before: None,
            attributes_after: None,
            data_changed: None,
            cut: None,
        };
        let change = match record.change {
            ChangeKind::NodeAdded { node_id } => {
                out.node_id = Some(node_id);
                "node_added"
            }
            ChangeKind::NodeRemoved { node_id } => {
                out.node_id = Some(node_id);
                "node_removed"
            }
            ChangeKind::EdgeAdded {
                edge_id,
                source,
                target,
                weight,
            } => {
                (out.edge_id, out.source, out.target, out.weight) =
                    (Some(edge_id), Some(source), Some(target), Some(weight));
                "edge_added"
            }
            ChangeKind::EdgeRemoved {
                edge_id,
                source,
                target,
                weight,
            } => {
                (out.edge_id, out.source, out.target, out.weight) =
                    (Some(edge_id), Some(source), Some(target), Some(weight));
                "edge_removed"
            }
            ChangeKind::NodeChanged {
                node_id,
                attributes_before,
                attributes_after,
                data_changed,
            } => {
                out.node_id = Some(node_id);
                out.attributes_before = Some(attributes_before);
                out.attributes_after = Some(attributes_after);
                out.data_changed = Some(data_changed);
                "node_changed"
            }
            ChangeKind::DescriptionChanged => "description_changed",
            ChangeKind::NonblockingRelationsChanged => "nonblocking_relations_changed",
        };
        out.change = change.to_string();
        out
    }
}

/// Result of `network_changes`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ChangesOutput {
    /// "success".
    pub status: Success,
    /// The network's version now: your next since_version.
    pub version: u64,
    /// Every change after this version is kept; past since_version, `more` says how to catch up.
    pub oldest_version: u64,
    /// This page of changes, oldest first.
    #[schemars(schema_with = "change_list_schema")]
    pub changes: Vec<ChangeOut>,
    /// How many changes the list holds, over all pages.
    pub total: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

/// The schema of `changes`: objects, their fields described in the tool's
/// spec (a typed item schema would cost the tool list some 400 bytes).
fn change_list_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "array", "items": {"type": "object"}})
}

fn changes(ctx: &ToolContext<'_>, p: ChangesParams) -> Result<ChangesOutput> {
    let limit = check_limit(p.limit, MAX_CHANGES_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        let version = net.version();
        if p.since_version > version {
            return Err(Error::InvalidValue {
                field: "since_version".into(),
                reason: format!(
                    "{} is past the network's version {version}: it was not read from this network as it is now (a network deleted and created again starts again at version 0). Read the network again and pass its version ({version})",
                    p.since_version
                ),
            });
        }
        let listed = net.changes_since(p.since_version);
        crate::budget::charge(listed.len() as u64);
        // Positions, not versions, name the state a cursor continues: see the module docs.
        let state = State {
            name: net.name(),
            instance: net.instance(),
            version: 0,
        };
        let mut page = Page::open_on(
            ctx,
            state,
            "network_changes",
            p.since_version,
            p.cursor.as_deref(),
            limit,
            MAX_CHANGES_LIMIT,
        )
        .map_err(|e| match e {
            Error::CursorStale { .. } => Error::CursorStale {
                network: net.name().to_string(),
                made_at: p.since_version,
                now: version,
            },
            other => other,
        })?;
        let first = listed.first_position();
        // A cursor whose change is still kept missed nothing: the changes
        // before it were on earlier pages.
        let resumed = p.cursor.is_some() && page.offset as u64 >= first;
        if !resumed {
            page.offset = first as usize;
        }
        let complete = listed.complete() || resumed;
        let from = page.offset as u64;
        let items = page.fill_cut(
            listed
                .iter_from(from)
                .take(limit)
                .map(ChangeOut::from),
            cut_change,
        );
        let end = listed.end_position();
        let shown_to = from + items.len() as u64;
        let total = listed.len();
        let next_cursor = page.next(shown_to < end);
        let mut paging = Paging {
            truncated: next_cursor.is_some(),
            more: next_cursor.as_ref().map(|_| {
                let at = from - first;
                let longer = if limit < MAX_CHANGES_LIMIT {
                    format!("; raise limit (at most {MAX_CHANGES_LIMIT}) for longer pages")
                } else {
                    String::new()
                };
                format!(
                    "Changes {}-{} of {total} shown. For the next page, repeat the call with cursor set to next_cursor (changes made meanwhile come after these){longer}.",
                    at + 1,
                    at + items.len() as u64,
                )
            }),
            next_cursor,
        };
        if !complete {
            // The changes left out are before the list, not after it.
            paging.truncated = true;
            paging.add_note(catch_up(net, p.since_version, listed.oldest_version()));
        }
        Ok(ChangesOutput {
            status: Success::Success,
            version,
            oldest_version: listed.oldest_version(),
            changes: items,
            total,
            paging,
        })
    })
}

/// What an incomplete answer tells its reader to do.
fn catch_up(net: &Network, since: u64, oldest: u64) -> String {
    let window = net.change_window();
    format!(
        "Incomplete: the changes between versions {since} and {oldest} are no longer kept (a network keeps its last {} changes): the list starts after version {oldest}. To catch up, read the network again (network_plan_progress, network_list_nodes), or compare it with a copy you made with network_copy at your version: network_diff with network_name set to the copy and other set to this network (algorithms toolset). Then pass this reply's version as since_version.",
        window.max_records
    )
}

/// A change larger than a whole page alone: its attribute maps halved until it
/// fits, and marked.
fn cut_change(mut change: ChangeOut, bytes: usize) -> ChangeOut {
    change.cut = Some(true);
    shrink_to(&mut change, bytes, |c| {
        let before = c.attributes_before.as_mut().is_some_and(halve_map);
        let after = c.attributes_after.as_mut().is_some_and(halve_map);
        before || after
    });
    change
}

/// `network_changes`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_changes",
            title: "Changes since a version",
            description: "What changed after since_version, oldest first: nodes and edges added or removed, attributes before and after.",
            toolset: Toolset::Work,
            effect: Effect::Read,
            long_running: false,
        },
        changes,
    )
}
