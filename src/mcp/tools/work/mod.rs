//! Executing a plan with several workers: claim ready tasks under leases,
//! complete, release or renew them, and see the progress. The logic is
//! [`crate::network::work`]; these tools read the server's clock and name things
//! for an agent.
//!
//! One file per tool, named after it; this module holds what they share: the
//! parameters that say where a plan keeps its state ([`work_params!`]), the
//! bounds on tasks and leases, and [`frees_work`], which tells the server when
//! a call made tasks ready.

mod changes;
mod claim_ready;
mod complete_claim;
mod plan_progress;
mod release_claim;
mod renew_claim;
mod why_blocked;

use serde_json::{Map, Value};

use crate::error::Result;
use crate::mcp::tool::ToolDef;
use crate::mcp::tools::common::check_range;
use crate::network::work::WorkAttributes;
use crate::network::{Direction, Network, validate};

/// The most tasks one complete, release or renew names.
pub const MAX_TASKS_PER_CALL: usize = 1_000;

/// The longest lease: a day. Longer work renews.
pub const MAX_LEASE_SECONDS: u64 = 86_400;

fn default_done() -> Map<String, Value> {
    WorkAttributes::default().done
}

fn default_claim_attribute() -> String {
    WorkAttributes::default().claimed_by
}

fn default_lease_attribute() -> String {
    WorkAttributes::default().lease_expires
}

fn default_parent_attribute() -> String {
    WorkAttributes::default().parent
}

fn default_exclusion_attribute() -> String {
    WorkAttributes::default().exclusion
}

fn default_out() -> Direction {
    Direction::Out
}

fn default_lease_seconds() -> u64 {
    600
}

/// Declares a work tool's parameters: its own fields, then the network and the
/// six that say where the plan keeps its state (the same in every work tool).
macro_rules! work_params {
    // A tool that follows edges (claim, complete, progress) also takes the
    // relation filter.
    (relations; $(#[$meta:meta])* pub struct $name:ident { $($body:tt)* }) => {
        work_params! {
            @struct $(#[$meta])* pub struct $name { $($body)* } {
                // The relation filter: described once, in the server instructions.
                #[serde(default)]
                pub relations: Option<Vec<String>>,
                #[serde(default)]
                pub ignore_relations: Option<Vec<String>>,
                #[serde(default)]
                pub relation_attribute: Option<String>,
            }
        }

        impl $name {
            /// The edges that make prerequisites in `net`: the call's filter,
            /// or all but the network's non-blocking relation types.
            fn relations(
                &self,
                net: &$crate::network::Network,
            ) -> $crate::error::Result<$crate::network::RelationFilter> {
                $crate::mcp::tools::common::relation_filter(
                    net,
                    self.relations.as_deref(),
                    self.ignore_relations.as_deref(),
                    self.relation_attribute.as_deref(),
                )
            }
        }
    };
    // A tool that only changes the claims it names (release, renew).
    ($(#[$meta:meta])* pub struct $name:ident { $($body:tt)* }) => {
        work_params! {
            @struct $(#[$meta])* pub struct $name { $($body)* } {}
        }

        impl $name {
            /// The edges that make prerequisites in `net`: all but its
            /// non-blocking relation types, as the claims were made.
            fn relations(
                &self,
                net: &$crate::network::Network,
            ) -> $crate::error::Result<$crate::network::RelationFilter> {
                Ok(net.default_relations())
            }
        }
    };
    (@struct $(#[$meta:meta])* pub struct $name:ident { $($body:tt)* } { $($extra:tt)* }) => {
        $(#[$meta])*
        #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            // Self-explanatory: left undescribed to keep tools/list small.
            pub network_name: String,
            $($body)*
            /// A task is done when it has all these attribute values; completing sets them.
            #[serde(default = "crate::mcp::tools::work::default_done")]
            #[schemars(schema_with = "crate::mcp::tools::common::flat_attributes_schema")]
            pub done_attributes: serde_json::Map<String, serde_json::Value>,
            /// Attribute naming the worker holding a task.
            #[serde(default = "crate::mcp::tools::work::default_claim_attribute")]
            pub claim_attribute: String,
            /// Attribute holding when a claim's lease ends (ms since the Unix epoch).
            #[serde(default = "crate::mcp::tools::work::default_lease_attribute")]
            pub lease_attribute: String,
            /// "out": A -> B means A needs B first. "in": A -> B means A comes before B.
            #[serde(default = "crate::mcp::tools::work::default_out")]
            pub prerequisites: $crate::network::Direction,
            // Parents and exclusion groups: described once, in the server instructions.
            #[serde(default = "crate::mcp::tools::work::default_parent_attribute")]
            pub parent_attribute: String,
            #[serde(default = "crate::mcp::tools::work::default_exclusion_attribute")]
            pub exclusion_attribute: String,
            $($extra)*
        }

        impl $name {
            /// Where the plan keeps its state, and the edges that make
            /// prerequisites in `net`.
            fn plan(
                &self,
                net: &$crate::network::Network,
            ) -> $crate::error::Result<$crate::network::work::WorkAttributes> {
                Ok($crate::network::work::WorkAttributes {
                    done: self.done_attributes.clone(),
                    claimed_by: self.claim_attribute.clone(),
                    lease_expires: self.lease_attribute.clone(),
                    prerequisites: self.prerequisites,
                    relations: self.relations(net)?,
                    parent: self.parent_attribute.clone(),
                    exclusion: self.exclusion_attribute.clone(),
                })
            }
        }
    };
}

// So that the tool files can import the macro by path: `use super::work_params`.
use work_params;

fn ids(net: &Network, nodes: &[petgraph::stable_graph::NodeIndex]) -> Vec<String> {
    nodes.iter().map(|&ix| net.id_at(ix).to_string()).collect()
}

/// The lists of one write reply (the tasks completed, released, renewed or
/// made ready), bounded together as a read's default page is: at most
/// [`crate::mcp::page::DEFAULT_ITEM_BYTES`] of ids, so that a write that
/// names or frees many tasks still answers in about 8 KB. A list cut says so
/// in the reply's `truncated` and `more`.
struct WriteLists<'n> {
    net: &'n Network,
    left: usize,
    cuts: Vec<String>,
}

impl<'n> WriteLists<'n> {
    fn new(net: &'n Network) -> Self {
        WriteLists {
            net,
            left: crate::mcp::page::DEFAULT_ITEM_BYTES,
            cuts: Vec::new(),
        }
    }

    /// The ids of `nodes`, at most `cap` of them, while they fit in the bytes
    /// left; a cut is noted as "`field` lists N of M `what`".
    fn ids(
        &mut self,
        field: &str,
        what: &str,
        nodes: &[petgraph::stable_graph::NodeIndex],
        cap: usize,
    ) -> Vec<String> {
        let (listed, cut) = crate::mcp::page::fit(
            nodes[..nodes.len().min(cap)]
                .iter()
                .map(|&ix| self.net.id_at(ix)),
            &mut self.left,
        );
        if cut || nodes.len() > cap {
            self.cuts.push(format!(
                "{field} lists {} of {} {what}",
                listed.len(),
                nodes.len()
            ));
        }
        listed.into_iter().map(String::from).collect()
    }

    /// Whether a list was cut.
    fn truncated(&self) -> bool {
        !self.cuts.is_empty()
    }

    /// When a list was cut: which, and `rest`, how to get the rest.
    fn more(&self, rest: &str) -> Option<String> {
        self.truncated().then(|| {
            format!(
                "The lists of this reply are bounded to about 8 KB: {}. {rest}",
                self.cuts.join("; ")
            )
        })
    }
}

fn lease_ms(seconds: u64) -> u64 {
    seconds.saturating_mul(1_000)
}

fn check_tasks(node_ids: &[String]) -> Result<Vec<&str>> {
    check_range("node_ids", node_ids.len(), MAX_TASKS_PER_CALL)?;
    for id in node_ids {
        validate::id("node_ids", id)?;
    }
    Ok(node_ids.iter().map(String::as_str).collect())
}

/// Whether a successful call of `tool` with `output` made tasks ready to
/// claim, so that subscribers of the plan's ready resource are told: a
/// completion that unblocked some, or a release.
pub fn frees_work(tool: &str, output: &Value) -> bool {
    match tool {
        "network_complete_claim" => output
            .get("newly_ready_count")
            .and_then(Value::as_u64)
            .is_some_and(|n| n > 0),
        "network_release_claim" => true,
        _ => false,
    }
}

/// The tools that let several workers execute one plan.
pub fn tools() -> Vec<ToolDef> {
    vec![
        claim_ready::tool(),
        complete_claim::tool(),
        release_claim::tool(),
        renew_claim::tool(),
        plan_progress::tool(),
        why_blocked::tool(),
        changes::tool(),
    ]
}
