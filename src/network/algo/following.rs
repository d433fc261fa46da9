//! [`Following`]: a network seen through a [`RelationFilter`], with the
//! algorithms that follow edges answering on the edges the filter keeps.
//!
//! Each family adds its methods to `Following` in its own file; the methods of
//! [`Network`] are the same algorithms following every edge. The filter is
//! checked per edge while walking (see [`crate::network::relations`]), so a
//! filtered call costs what the unfiltered one does, plus one relation column
//! build per network version and attribute for whole-graph algorithms.

use crate::network::graph::{Network, RelationFilter};

/// A network whose algorithms follow only the edges a [`RelationFilter`] keeps:
/// the answers are those of the same algorithm on a copy of the network that
/// has every node and only the kept edges.
///
/// ```
/// use networks_mcp::network::{EdgeSpec, Network, Order, RelationFilter};
///
/// // "app" needs "lib"; "lib" is merely related to "app".
/// let mut net = Network::new();
/// net.add_nodes(["app", "lib"])?;
/// net.add_edge_with(EdgeSpec::new("app", "lib"))?;
/// net.add_edge_with(EdgeSpec::new("lib", "app").with_attribute("relation", "related"))?;
/// assert!(net.topological_sort(Order::Reverse).is_err()); // a cycle
/// let blocking = RelationFilter::except(["related"]);
/// let order = net.following(&blocking).topological_sort(Order::Reverse)?;
/// assert_eq!(net.ids(&order.order), ["lib", "app"]);
/// # Ok::<(), networks_mcp::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Following<'a> {
    pub(crate) net: &'a Network,
    pub(crate) filter: &'a RelationFilter,
}

impl<'a> Following<'a> {
    /// The network.
    pub fn network(&self) -> &'a Network {
        self.net
    }

    /// The filter.
    pub fn filter(&self) -> &'a RelationFilter {
        self.filter
    }
}

impl Network {
    /// This network seen through `filter`: its algorithms follow only the edges
    /// the filter keeps (see [`Following`]).
    pub fn following<'a>(&'a self, filter: &'a RelationFilter) -> Following<'a> {
        Following { net: self, filter }
    }
}
