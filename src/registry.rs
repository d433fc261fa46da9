//! [`NetworkRegistry`]: the named networks of one server.
//!
//! Design: a [`DashMap`] from name to `Arc<RwLock<Network>>`. The map is sharded, and
//! each network has its own lock, so a long read of one network (a traversal of a
//! million nodes) never blocks calls on another network, and readers of the same
//! network run in parallel. Callers get the `Arc` out of the map and drop the map
//! guard at once; no map guard or network lock is ever held across an `.await`.

use std::sync::Arc;

use dashmap::DashMap;
use dashmap::mapref::entry::Entry;
use parking_lot::RwLock;

use crate::error::{Error, Result};
use crate::network::{Network, validate};

/// A shared handle to one network.
pub type SharedNetwork = Arc<RwLock<Network>>;

/// What [`NetworkRegistry::create`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreateOutcome {
    /// A new, empty network was registered.
    Created,
    /// A network of that name already existed; it was left untouched.
    Duplicate,
}

/// A summary line for [`NetworkRegistry::list`].
#[derive(Debug, Clone, PartialEq)]
pub struct NetworkSummary {
    /// The network's name.
    pub name: String,
    /// Its description, if any.
    pub description: Option<String>,
    /// Node count.
    pub nodes: usize,
    /// Edge count.
    pub edges: usize,
}

/// The named networks of one server, safe to share between tasks and threads.
#[derive(Debug, Default)]
pub struct NetworkRegistry {
    networks: DashMap<String, SharedNetwork>,
}

impl NetworkRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers an empty network. Idempotent: an existing name is left as it is
    /// (its description too) and reported as [`CreateOutcome::Duplicate`].
    pub fn create(&self, name: &str, description: Option<String>) -> Result<CreateOutcome> {
        self.create_bounded(name, description, usize::MAX)
    }

    /// Like [`NetworkRegistry::create`], but a new network beyond `max_networks`
    /// is refused with [`Error::LimitExceeded`].
    pub fn create_bounded(
        &self,
        name: &str,
        description: Option<String>,
        max_networks: usize,
    ) -> Result<CreateOutcome> {
        validate::id("network_name", name)?;
        if !self.networks.contains_key(name) {
            crate::limits::Limits {
                max_networks,
                ..crate::limits::Limits::default()
            }
            .check_networks(self.networks.len())?;
        }
        match self.networks.entry(name.to_string()) {
            Entry::Occupied(_) => Ok(CreateOutcome::Duplicate),
            Entry::Vacant(slot) => {
                let mut network = Network::named(name);
                network.set_description(description);
                slot.insert(Arc::new(RwLock::new(network)));
                Ok(CreateOutcome::Created)
            }
        }
    }

    /// Registers a whole network under `name`, replacing none: an existing name is an error.
    pub fn insert(&self, name: &str, mut network: Network) -> Result<()> {
        validate::id("network_name", name)?;
        match self.networks.entry(name.to_string()) {
            Entry::Occupied(_) => Err(Error::InvalidValue {
                field: "network_name".into(),
                reason: format!("a network named '{name}' already exists"),
            }),
            Entry::Vacant(slot) => {
                network.set_name(name);
                slot.insert(Arc::new(RwLock::new(network)));
                Ok(())
            }
        }
    }

    /// Makes this registry hold exactly what `other` holds: networks missing from
    /// `other` are removed, and every other network's content is replaced under its
    /// own write lock (so a reader holding a handle sees the old or the new network,
    /// never a mix). Used to roll back to the durable state after a failed write.
    pub fn replace_all(&self, other: NetworkRegistry) {
        let keep: std::collections::HashSet<String> = other.names().into_iter().collect();
        self.networks.retain(|name, _| keep.contains(name));
        for (name, network) in other.networks {
            let network = Arc::try_unwrap(network)
                .map(RwLock::into_inner)
                .unwrap_or_else(|shared| shared.read().clone());
            match self.networks.get(&name) {
                Some(slot) => *slot.value().write() = network,
                None => {
                    self.networks.insert(name, Arc::new(RwLock::new(network)));
                }
            }
        }
    }

    /// The network called `name`, or [`Error::NetworkNotFound`] listing the existing names.
    pub fn get(&self, name: &str) -> Result<SharedNetwork> {
        if let Some(entry) = self.networks.get(name) {
            return Ok(Arc::clone(entry.value()));
        }
        validate::id("network_name", name)?;
        Err(Error::NetworkNotFound {
            name: name.to_string(),
            available: self.names(),
        })
    }

    /// Runs `f` with shared access to one network.
    pub fn read<T>(&self, name: &str, f: impl FnOnce(&Network) -> Result<T>) -> Result<T> {
        let network = self.get(name)?;
        let guard = network.read();
        f(&guard)
    }

    /// Runs `f` with exclusive access to one network.
    pub fn write<T>(&self, name: &str, f: impl FnOnce(&mut Network) -> Result<T>) -> Result<T> {
        let network = self.get(name)?;
        let mut guard = network.write();
        f(&mut guard)
    }

    /// Removes a network. Returns whether it existed.
    pub fn delete(&self, name: &str) -> Result<Option<SharedNetwork>> {
        validate::id("network_name", name)?;
        Ok(self.networks.remove(name).map(|(_, network)| network))
    }

    /// The registered names, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.networks.iter().map(|e| e.key().clone()).collect();
        names.sort_unstable();
        names
    }

    /// The number of registered networks.
    pub fn len(&self) -> usize {
        self.networks.len()
    }

    /// Whether no network is registered.
    pub fn is_empty(&self) -> bool {
        self.networks.is_empty()
    }

    /// A summary of every network, sorted by name.
    pub fn list(&self) -> Vec<NetworkSummary> {
        // Take the handles first so that no map guard is held while a network lock is awaited.
        let mut handles: Vec<(String, SharedNetwork)> = self
            .networks
            .iter()
            .map(|e| (e.key().clone(), Arc::clone(e.value())))
            .collect();
        handles.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        handles
            .into_iter()
            .map(|(name, network)| {
                let network = network.read();
                NetworkSummary {
                    name,
                    description: network.description().map(str::to_string),
                    nodes: network.node_count(),
                    edges: network.edge_count(),
                }
            })
            .collect()
    }
}
