//! The graph core's property tests, in one binary. They use the core alone, so
//! they also run with `--no-default-features`.

mod numbered;

mod layers;

mod prop_adjacency;
mod prop_centrality;
mod prop_communities;
mod prop_hierarchy;
mod prop_kernels;
mod prop_network_core;
mod prop_ordering_cycles;
mod prop_relations;
#[cfg(feature = "search")]
mod prop_search;
mod prop_simple_paths;
mod prop_subgraph_diff;
mod prop_topology;
mod prop_traversal_paths;
mod prop_work;
mod speaks_no_tools;
