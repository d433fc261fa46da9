//! [`NetworkRegistry`]: the named networks of one server.
//!
//! Design: a map from name to a shared [`NetworkLock`], behind one reader-writer
//! lock. Each network has its own lock, so a long read of one network (a traversal
//! of a million nodes) never blocks calls on another network, and readers of the
//! same network run in parallel. The map's lock is held only to find, add or remove
//! a handle (never while a network lock is awaited), so it is never contended for
//! long; a sharded map would buy nothing here and would cost the core nine crates.
//! The locks are the standard library's: a panic while one is held does not poison
//! it for everyone else (the guards ignore poisoning, as `parking_lot`'s do).

use std::collections::BTreeMap;
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::error::{Error, Result};
use crate::network::{Network, validate};

/// One network behind its own reader-writer lock.
#[derive(Debug, Default)]
pub struct NetworkLock(RwLock<Network>);

impl NetworkLock {
    /// Wraps a network.
    pub fn new(network: Network) -> Self {
        NetworkLock(RwLock::new(network))
    }

    /// Shared access; blocks while a writer holds the lock.
    pub fn read(&self) -> RwLockReadGuard<'_, Network> {
        self.0.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Exclusive access; blocks while anyone else holds the lock.
    pub fn write(&self) -> RwLockWriteGuard<'_, Network> {
        self.0.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// The network, unwrapped.
    pub fn into_inner(self) -> Network {
        self.0.into_inner().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A shared handle to one network.
pub type SharedNetwork = Arc<NetworkLock>;

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
    /// Its version ([`Network::version`]).
    pub version: u64,
}

/// The named networks of one server, safe to share between tasks and threads.
#[derive(Debug, Default)]
pub struct NetworkRegistry {
    networks: RwLock<BTreeMap<String, SharedNetwork>>,
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
        let mut networks = self.map_mut();
        if networks.contains_key(name) {
            return Ok(CreateOutcome::Duplicate);
        }
        crate::limits::Limits {
            max_networks,
            ..crate::limits::Limits::default()
        }
        .check_networks(networks.len())?;
        let mut network = Network::named(name);
        network.set_description(description);
        networks.insert(name.to_string(), Arc::new(NetworkLock::new(network)));
        Ok(CreateOutcome::Created)
    }

    /// Registers a whole network under `name`, replacing none: an existing name is an error.
    pub fn insert(&self, name: &str, mut network: Network) -> Result<()> {
        validate::id("network_name", name)?;
        let mut networks = self.map_mut();
        if networks.contains_key(name) {
            return Err(Error::InvalidValue {
                field: "network_name".into(),
                reason: format!("a network named '{name}' already exists"),
            });
        }
        network.set_name(name);
        networks.insert(name.to_string(), Arc::new(NetworkLock::new(network)));
        Ok(())
    }

    /// Makes this registry hold exactly what `other` holds: networks missing from
    /// `other` are removed, and every other network's content is replaced under its
    /// own write lock (so a reader holding a handle sees the old or the new network,
    /// never a mix). Used to roll back to the durable state after a failed write.
    pub fn replace_all(&self, other: NetworkRegistry) {
        let other = other
            .networks
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let mut networks = self.map_mut();
        networks.retain(|name, _| other.contains_key(name));
        for (name, network) in other {
            let network = Arc::try_unwrap(network)
                .map_or_else(|shared| shared.read().clone(), NetworkLock::into_inner);
            match networks.get(&name) {
                Some(slot) => *slot.write() = network,
                None => {
                    networks.insert(name, Arc::new(NetworkLock::new(network)));
                }
            }
        }
    }

    /// The network called `name`, or [`Error::NetworkNotFound`] listing the existing names.
    pub fn get(&self, name: &str) -> Result<SharedNetwork> {
        if let Some(network) = self.map().get(name) {
            return Ok(Arc::clone(network));
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

    /// Removes a network, returning it if it existed.
    pub fn delete(&self, name: &str) -> Result<Option<SharedNetwork>> {
        validate::id("network_name", name)?;
        Ok(self.map_mut().remove(name))
    }

    /// Removes a network if `check` passes on it, returning it if it was removed.
    /// The check and the removal happen under the network's write lock, so no
    /// write lands between them.
    pub fn delete_checked(
        &self,
        name: &str,
        check: impl FnOnce(&Network) -> Result<()>,
    ) -> Result<Option<SharedNetwork>> {
        validate::id("network_name", name)?;
        let Some(network) = self.map().get(name).cloned() else {
            return Ok(None);
        };
        let guard = network.write();
        check(&guard)?;
        let mut map = self.map_mut();
        // Another call may have deleted it, or put a new network there, meanwhile.
        let removed = match map.get(name) {
            Some(current) if Arc::ptr_eq(current, &network) => map.remove(name),
            _ => None,
        };
        drop(map);
        drop(guard);
        Ok(removed)
    }

    /// The registered names, sorted.
    pub fn names(&self) -> Vec<String> {
        self.map().keys().cloned().collect()
    }

    /// The number of registered networks.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Whether no network is registered.
    pub fn is_empty(&self) -> bool {
        self.map().is_empty()
    }

    /// A summary of every network, sorted by name.
    pub fn list(&self) -> Vec<NetworkSummary> {
        // Take the handles first so that the map's lock is not held while a network
        // lock is awaited.
        let handles: Vec<(String, SharedNetwork)> = self
            .map()
            .iter()
            .map(|(name, network)| (name.clone(), Arc::clone(network)))
            .collect();
        handles
            .into_iter()
            .map(|(name, network)| {
                let network = network.read();
                NetworkSummary {
                    name,
                    description: network.description().map(str::to_string),
                    nodes: network.node_count(),
                    edges: network.edge_count(),
                    version: network.version(),
                }
            })
            .collect()
    }

    fn map(&self) -> RwLockReadGuard<'_, BTreeMap<String, SharedNetwork>> {
        self.networks.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn map_mut(&self) -> RwLockWriteGuard<'_, BTreeMap<String, SharedNetwork>> {
        self.networks
            .write()
            .unwrap_or_else(PoisonError::into_inner)
    }
}
