//! The server's `instructions`: the preamble an LLM reads before any tool.

/// Where to start and the conventions every tool shares.
pub const INSTRUCTIONS: &str = "\
networks-mcp keeps named, directed, weighted graphs (\"networks\") in memory so you can plan with them. \
Start with network_list to see what exists, then network_create to make a network, then add nodes \
(network_add_node) and edges (network_add_edge), and ask questions such as network_get_neighbors. \
Edges point source -> target. In a dependency graph, an edge A -> B reads \"A depends on B\" \
(e.g. agents -> logging): direction \"out\" follows what a node depends on, \"in\" what depends on it. \
An edge's type is its attribute \"relation\" (e.g. blocks, related); without one it is plain. \
Tools that follow edges take relations (follow only these types) or ignore_relations (all but these), \
with \"\" for plain edges, and relation_attribute to read types from another attribute; without either \
they skip the network's nonblocking_relations (set by network_create, also on an existing network). \
network_ready_nodes and network_claim_ready take order (\"insertion\" by default; \"priority\": by the number in \
priority_attribute, default \"priority\", lower first, tasks without one last; \"impact\": most direct dependents \
not done first; ties go to impact, then insertion) and a filter: match_attributes (all these values) and labels \
(all these in the comma-separated attribute \"labels\"). \
A node's attribute \"parent\" (or parent_attribute) names its epic: an epic waits on its children \
(network_ready_nodes and the work tools), network_plan_progress rolls counts up per epic, and network_topological_sort and network_critical_path \
take level \"epics\" to order whole epics. Tasks sharing a value of exclusion_attribute (default \"exclusion_group\") \
are claimed one at a time. \
Every tool that decides what is ready, blocked or left counts a node done when it has status \"done\" \
(or the done_attributes you give), and names its rule in done_rule. \
A success may carry warnings [{code, message}]: an input that matched nothing or an assumption; read them. \
Adding a node or creating a network that already exists is a no-op that answers status \"duplicate\". \
Every failure answers {\"status\": \"error\", \"error\": <what went wrong and how to fix it>, \"code\": <code>} \
and changes nothing. Destructive tools do nothing unless you pass confirm: true. \
Long answers come in pages: when a reply has next_cursor, repeat the call with cursor set to it. \
To show a network to a person, network_export with format \"mermaid\"; to load an existing graph \
(NetworkX JSON, GraphML, CSV, DOT) or a plan (Mermaid, Task Master, Beads, the memory server), network_import. Each network is also a resource network://{name}.";
