//! The server's `instructions`: the preamble an LLM reads before any tool, and the
//! one place where the parameters many tools share are explained.
//!
//! A host sends every listed tool's schema to the model on every turn, so a
//! meaning said in the schema of each of 20 tools is paid for 20 times. The
//! parameters in [`SHARED_PARAMETERS`] mean the same in every tool that has them:
//! their schemas carry no description (`schema::tidy_input` drops it) and the
//! instructions explain each once.

/// Parameters that mean the same in every tool, each explained once below.
pub const SHARED_PARAMETERS: [&str; 13] = [
    "cursor",
    "limit",
    "relations",
    "ignore_relations",
    "done",
    "done_attributes",
    "prerequisites",
    "order",
    "match_attributes",
    "labels",
    "worker",
    "attributes",
    "confirm",
];

/// Parameters that every tool they apply to accepts, explained here once and
/// left out of each schema: the write condition, and the names of the
/// attributes that hold a plan's conventions, whose defaults fit most plans.
pub const UNLISTED_PARAMETERS: [&str; 7] = [
    "if_version",
    "relation_attribute",
    "priority_attribute",
    "parent_attribute",
    "exclusion_attribute",
    "claim_attribute",
    "lease_attribute",
];

/// What every session reads first: what the server is, the conventions of every
/// reply, and the shared parameters.
const BODY: &str = "\
networks-mcp keeps named, directed, weighted graphs (\"networks\") for planning. \
An edge A -> B reads \"A depends on B\": direction \"out\" follows what a node depends on, \
\"in\" what depends on it. An edge's type is its attribute \"relation\" (e.g. blocks); without one it is plain. \
A node's attribute \"parent\" names its epic, which waits on its children.
Replies: a repeated create or add_node answers status \"duplicate\" and changes nothing. \
A failure answers {\"status\": \"error\", \"error\", \"code\"} and changes nothing. \
A success may carry warnings [{code, message}]: read them.
Shared parameters:
- attributes: flat maps of strings, numbers, booleans or null.
- limit, cursor: items per page; when a reply has next_cursor, call again with cursor set to it.
- confirm: true, or a destructive tool does nothing.
- relations / ignore_relations: follow only / all but these edge types (\"\" = plain); \
by default the network's nonblocking_relations are skipped.
- done (node IDs), done_attributes (default {\"status\": \"done\"}): what counts as done (replies say it in done_rule).
- prerequisites: \"out\" (default): A -> B means A needs B; \"in\": A comes before B; \"both\".
- order: \"insertion\" (default), \"priority\" (lower first; none last), \"impact\" (most dependents first); \
match_attributes (all these values) and labels (all these in the attribute \"labels\") filter.
- worker: your worker id, the same in every call; tasks sharing an exclusion_group are claimed one at a time.
Accepted by every tool they apply to, though not in its schema:
- if_version (writes): apply only at this network version.
- Attribute names: relation_attribute, priority_attribute, parent_attribute, exclusion_attribute, \
claim_attribute, lease_attribute (defaults relation, priority, parent, exclusion_group, claimed_by, lease_expires_ms).";

/// How a session that can turn toolsets on starts.
const START_SWITCHABLE: &str = "\
Start: network_list, network_create, network_add_node, network_add_edge. network_topological_sort, \
network_ready_nodes, network_why_blocked: what order, what can start, what waits. \
network_toolsets turns on more (batch edits, analysis, import/export, work queues, algorithms).\n";

/// How a session with a fixed tool list starts.
const START_FIXED: &str = "\
Start with network_list and network_create, then add nodes and edges (network_add_node, network_add_edge).\n";

/// The instructions for a server whose sessions turn toolsets on themselves
/// (`switchable`), or whose tool list `--toolsets` fixed.
pub fn instructions(switchable: bool) -> String {
    let start = if switchable {
        START_SWITCHABLE
    } else {
        START_FIXED
    };
    format!("{start}{BODY}")
}
