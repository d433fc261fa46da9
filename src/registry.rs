//! [`NetworkRegistry`]: the named networks of one server.
//!
//! Design: a [`DashMap`] from name to a shared [`NetworkLock`]. Each network has
//! its own reader-writer lock, so a long read of one network (a traversal of a
//! million nodes) never blocks calls on another network, and readers of the same
//! network run in parallel. The map is sharded, so finding a handle never waits
//! for a call on another network; its shard guards are held only to find, add or
//! remove a handle, never while a network lock is awaited.
//!
//! Waiting for a network's lock is bounded by the caller's [`Budget`](crate::budget::Budget)
//! ([`wait_for`](crate::budget::wait_for)), so a cancelled call or one past its
//! deadline stops waiting. The locks are `parking_lot`'s: fair (a
//! waiting writer is not starved by a stream of readers), and a panic while one is
//! held does not poison it for everyone else. A call that has waited 100 ms counts as
//! one of the network's waiters, and is refused (`server_busy`) past the cap
//! its budget sets, so calls waiting for one held network cannot take every
//! thread of the server.
//!
//! A durable write takes its network's write lock *before* the journal's order
//! lock ([`NetworkLock::hold`]): the lock is kept by the thread and lent to the
//! first read or write of that network the tool body makes. So a write waiting
//! for a network held by a long read waits holding nothing that writes to other
//! networks need.
//!
//! Each network's name, description, size and version are also kept beside its
//! lock, refreshed when a write guard is dropped, so that listing the networks
//! never waits for a long call on one of them.

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use dashmap::DashMap;
use dashmap::mapref::entry::Entry;
use parking_lot::lock_api::ArcRwLockWriteGuard;
use parking_lot::{Mutex, RawRwLock, RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::error::{Error, Result};
use crate::network::{Network, validate};

/// One network behind its own reader-writer lock, with a summary readable
/// without that lock.
#[derive(Debug, Default)]
pub struct NetworkLock {
    network: Arc<RwLock<Network>>,
    summary: LockFreeSummary,
    /// Calls waiting for the lock now (see [`crate::budget::max_waiters`]).
    waiting: AtomicUsize,
    /// The network's estimated bytes when last counted, for a count of all
    /// networks that must not wait for this one ([`NetworkLock::try_read`]).
    estimated: AtomicUsize,
}

/// What [`NetworkRegistry::list`] shows of a network, as of its last write.
#[derive(Debug, Default)]
struct LockFreeSummary {
    nodes: AtomicU64,
    edges: AtomicU64,
    version: AtomicU64,
    description: Mutex<Option<String>>,
}

impl LockFreeSummary {
    fn refresh(&self, network: &Network) {
        self.nodes
            .store(network.node_count() as u64, Ordering::Release);
        self.edges
            .store(network.edge_count() as u64, Ordering::Release);
        self.version.store(network.version(), Ordering::Release);
        let description = network.description();
        let mut held = self.description.lock();
        if held.as_deref() != description {
            *held = description.map(str::to_string);
        }
    }
}

/// How long a call waits for a network's lock before it counts as one of the
/// network's waiters (and may be refused past the cap).
const WAIT_GRACE: Duration = Duration::from_millis(100);

/// How long a call waits for a network's lock on the thread it runs on before
/// that thread is handed over for a longer wait ([`crate::budget::blocking`]):
/// about what a single write holds it.
const SHORT_WAIT: Duration = Duration::from_micros(50);

/// A write lock owned by a thread rather than borrowed from the network.
type OwnedWrite = ArcRwLockWriteGuard<RawRwLock, Network>;

/// The network whose write lock this thread took ahead of a durable write
/// ([`NetworkLock::hold`]): lent to the first read or write of that network on
/// this thread, and given back when that guard drops.
struct Held {
    lock: *const RwLock<Network>,
    guard: Option<OwnedWrite>,
}

thread_local! {
    static HELD: RefCell<Option<Held>> = const { RefCell::new(None) };
}

/// Takes the lock this thread holds for `lock`, if it holds it and has not
/// lent it out already.
fn borrow_held(lock: &Arc<RwLock<Network>>) -> Option<OwnedWrite> {
    HELD.with(|held| {
        let mut held = held.borrow_mut();
        let held = held.as_mut()?;
        if std::ptr::eq(held.lock, Arc::as_ptr(lock)) {
            held.guard.take()
        } else {
            None
        }
    })
}

/// Gives a lent lock back to this thread's hold; drops it (unlocking) when the
/// hold has ended meanwhile.
fn return_held(guard: OwnedWrite) {
    let lock = Arc::as_ptr(ArcRwLockWriteGuard::rwlock(&guard));
    HELD.with(|held| {
        if let Some(held) = held.borrow_mut().as_mut()
            && std::ptr::eq(held.lock, lock)
            && held.guard.is_none()
        {
            held.guard = Some(guard);
        }
    });
}

/// A network's write lock taken ahead of a durable write, before the journal's
/// order lock ([`NetworkLock::hold`]); released when dropped.
pub struct Holding(());

impl Drop for Holding {
    fn drop(&mut self) {
        // The guard, if it is not lent out, unlocks here.
        HELD.with(|held| drop(held.borrow_mut().take()));
    }
}

impl NetworkLock {
    /// Wraps a network.
    pub fn new(network: Network) -> Self {
        let summary = LockFreeSummary::default();
        summary.refresh(&network);
        NetworkLock {
            network: Arc::new(RwLock::new(network)),
            summary,
            waiting: AtomicUsize::new(0),
            estimated: AtomicUsize::new(0),
        }
    }

    /// Shared access if it is free now (or lent by this thread's hold); never
    /// waits, and never counts as a waiter.
    pub fn try_read(&self) -> Option<NetworkReadGuard<'_>> {
        if let Some(guard) = borrow_held(&self.network) {
            return Some(NetworkReadGuard(ReadInner::Held(Some(guard))));
        }
        self.network
            .try_read()
            .map(|guard| NetworkReadGuard(ReadInner::Own(guard)))
    }

    /// How many calls wait for this network's lock now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Acquire)
    }

    /// The network's estimated bytes when last counted (0 before that).
    pub fn last_estimate(&self) -> usize {
        self.estimated.load(Ordering::Relaxed)
    }

    /// Records the network's estimated bytes, as counted now.
    pub fn set_estimate(&self, bytes: usize) {
        self.estimated.store(bytes, Ordering::Relaxed);
    }

    /// Waits for the lock with `attempt`: at once when it is free; else as one
    /// of the calls waiting for it, refused ([`crate::budget::refuse_busy`])
    /// when as many as may wait already do.
    fn wait<G>(&self, mut attempt: impl FnMut(Duration) -> Option<G>) -> G {
        if let Some(guard) = attempt(Duration::ZERO) {
            return guard;
        }
        // Another small call holds the lock for microseconds: wait that long
        // where we are. Handing the thread over (`budget::blocking`) for so
        // short a wait starts threads that then contend for two cores, and a
        // holder the system deschedules keeps every waiter for a time slice.
        if let Some(guard) = attempt(SHORT_WAIT) {
            return guard;
        }
        crate::budget::blocking(|| self.wait_held(attempt))
    }

    /// The rest of [`NetworkLock::wait`], once the lock was found taken.
    fn wait_held<G>(&self, mut attempt: impl FnMut(Duration) -> Option<G>) -> G {
        // Writes queued behind one another (a client with many calls in flight)
        // hold the lock microseconds each: such a wait is not one for a held
        // network, and is neither counted nor refused.
        if let Some(guard) = attempt(WAIT_GRACE) {
            return guard;
        }
        let before = self.waiting.fetch_add(1, Ordering::AcqRel);
        let _waiting = Waiting(&self.waiting);
        if let Some(max) = crate::budget::max_waiters()
            && before >= max
        {
            crate::budget::refuse_busy(before);
        }
        crate::budget::wait_for(attempt)
    }

    /// Shared access; waits while a writer holds the lock (see the module docs
    /// for how a budget bounds the wait).
    pub fn read(&self) -> NetworkReadGuard<'_> {
        if let Some(guard) = borrow_held(&self.network) {
            return NetworkReadGuard(ReadInner::Held(Some(guard)));
        }
        NetworkReadGuard(ReadInner::Own(
            self.wait(|slice| self.network.try_read_for(slice)),
        ))
    }

    /// Exclusive access; waits while anyone else holds the lock (see the module
    /// docs for how a budget bounds the wait).
    pub fn write(&self) -> NetworkWriteGuard<'_> {
        let guard = match borrow_held(&self.network) {
            Some(guard) => WriteInner::Held(Some(guard)),
            None => WriteInner::Own(self.wait(|slice| self.network.try_write_for(slice))),
        };
        NetworkWriteGuard {
            guard,
            summary: &self.summary,
        }
    }

    /// Takes the write lock for the calling thread until the returned
    /// [`Holding`] drops, lending it to the first read or write of this network
    /// on this thread meanwhile. A durable write holds its network this way
    /// before it waits for the journal's order lock, so that it never waits for
    /// a network while holding what writes to every other network need.
    pub fn hold(&self) -> Holding {
        let guard = self.wait(|slice| self.network.try_write_arc_for(slice));
        HELD.with(|held| {
            *held.borrow_mut() = Some(Held {
                lock: Arc::as_ptr(&self.network),
                guard: Some(guard),
            });
        });
        Holding(())
    }

    /// Whether this thread holds this network's lock by [`NetworkLock::hold`].
    pub fn is_held_here(&self) -> bool {
        HELD.with(|held| {
            held.borrow()
                .as_ref()
                .is_some_and(|held| std::ptr::eq(held.lock, Arc::as_ptr(&self.network)))
        })
    }

    /// Shared access for a snapshot: granted beside other readers even while a
    /// writer waits (a fair read would queue behind it, and that writer may be
    /// waiting for a long read to end).
    #[cfg_attr(not(feature = "storage"), allow(dead_code))]
    pub(crate) fn read_for_snapshot(&self) -> NetworkReadGuard<'_> {
        if let Some(guard) = borrow_held(&self.network) {
            return NetworkReadGuard(ReadInner::Held(Some(guard)));
        }
        NetworkReadGuard(ReadInner::Own(self.network.read_recursive()))
    }

    /// The network, unwrapped.
    pub fn into_inner(self) -> Network {
        match Arc::try_unwrap(self.network) {
            Ok(lock) => lock.into_inner(),
            Err(shared) => shared.read().clone(),
        }
    }

    fn summary(&self, name: String) -> NetworkSummary {
        let summary = &self.summary;
        NetworkSummary {
            name,
            description: summary.description.lock().clone(),
            nodes: summary.nodes.load(Ordering::Acquire) as usize,
            edges: summary.edges.load(Ordering::Acquire) as usize,
            version: summary.version.load(Ordering::Acquire),
        }
    }
}

/// One call's place among those waiting for a network, given up however the
/// wait ends (with the lock, or unwound by its budget).
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A network's lock, taken by this guard or lent by this thread's hold.
enum ReadInner<'a> {
    Own(RwLockReadGuard<'a, Network>),
    Held(Option<OwnedWrite>),
}

/// Shared access to one network.
pub struct NetworkReadGuard<'a>(ReadInner<'a>);

impl Deref for NetworkReadGuard<'_> {
    type Target = Network;
    fn deref(&self) -> &Network {
        match &self.0 {
            ReadInner::Own(guard) => guard,
            ReadInner::Held(guard) => guard.as_ref().expect("held until dropped"),
        }
    }
}

impl Drop for NetworkReadGuard<'_> {
    fn drop(&mut self) {
        if let ReadInner::Held(guard) = &mut self.0
            && let Some(guard) = guard.take()
        {
            return_held(guard);
        }
    }
}

enum WriteInner<'a> {
    Own(RwLockWriteGuard<'a, Network>),
    Held(Option<OwnedWrite>),
}

/// Exclusive access to one network; when dropped, refreshes the summary that
/// [`NetworkRegistry::list`] reads without the lock.
pub struct NetworkWriteGuard<'a> {
    guard: WriteInner<'a>,
    summary: &'a LockFreeSummary,
}

impl Deref for NetworkWriteGuard<'_> {
    type Target = Network;
    fn deref(&self) -> &Network {
        match &self.guard {
            WriteInner::Own(guard) => guard,
            WriteInner::Held(guard) => guard.as_ref().expect("held until dropped"),
        }
    }
}

impl DerefMut for NetworkWriteGuard<'_> {
    fn deref_mut(&mut self) -> &mut Network {
        match &mut self.guard {
            WriteInner::Own(guard) => guard,
            WriteInner::Held(guard) => guard.as_mut().expect("held until dropped"),
        }
    }
}

impl Drop for NetworkWriteGuard<'_> {
    fn drop(&mut self) {
        self.summary.refresh(self);
        if let WriteInner::Held(guard) = &mut self.guard
            && let Some(guard) = guard.take()
        {
            return_held(guard);
        }
    }
}

/// Bytes promised to a network being made ([`NetworkRegistry::reserve_bytes`]),
/// given back when dropped.
#[derive(Debug)]
pub struct Reservation {
    reserved: Arc<AtomicUsize>,
    bytes: usize,
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.reserved.fetch_sub(self.bytes, Ordering::AcqRel);
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
    networks: DashMap<String, SharedNetwork>,
    /// The number of networks, kept beside the map: its own `len` visits every
    /// shard, and a create must compare the count while it holds one.
    count: AtomicUsize,
    /// Bytes promised to copies and imports being made, not registered yet
    /// ([`NetworkRegistry::reserve_bytes`]).
    reserved: Arc<AtomicUsize>,
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
        // The entry holds the name's shard, so two creates of one name cannot both
        // succeed; the count is checked inside it (the map's own `len` would wait
        // for the shard held here).
        match self.networks.entry(name.to_string()) {
            Entry::Occupied(_) => Ok(CreateOutcome::Duplicate),
            Entry::Vacant(slot) => {
                let mut network = Network::named(name);
                network.set_description(description);
                let existing = self.count.fetch_add(1, Ordering::AcqRel);
                if existing >= max_networks {
                    self.count.fetch_sub(1, Ordering::AcqRel);
                    crate::limits::Limits {
                        max_networks,
                        ..crate::limits::Limits::default()
                    }
                    .check_networks(existing)?;
                }
                slot.insert(Arc::new(NetworkLock::new(network)));
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
                self.count.fetch_add(1, Ordering::AcqRel);
                slot.insert(Arc::new(NetworkLock::new(network)));
                Ok(())
            }
        }
    }

    /// Makes this registry hold exactly what `other` holds: networks missing from
    /// `other` are removed, and every other network's content is replaced under its
    /// own write lock (so a reader holding a handle sees the old or the new network,
    /// never a mix). Used to roll back to the durable state after a failed write.
    pub fn replace_all(&self, other: NetworkRegistry) {
        self.networks
            .retain(|name, _| other.networks.contains_key(name));
        for (name, network) in other.networks {
            let network = Arc::try_unwrap(network)
                .map_or_else(|shared| shared.read().clone(), NetworkLock::into_inner);
            let current = self.networks.get(&name).map(|slot| Arc::clone(&slot));
            match current {
                Some(slot) => *slot.write() = network,
                None => {
                    self.networks
                        .insert(name, Arc::new(NetworkLock::new(network)));
                }
            }
        }
        self.count.store(self.networks.len(), Ordering::Release);
    }

    /// The network called `name`, or [`Error::NetworkNotFound`] listing the existing names.
    pub fn get(&self, name: &str) -> Result<SharedNetwork> {
        if let Some(network) = self.networks.get(name) {
            return Ok(Arc::clone(&network));
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
        let removed = self.networks.remove(name).map(|(_, network)| network);
        if removed.is_some() {
            self.count.fetch_sub(1, Ordering::AcqRel);
        }
        Ok(removed)
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
        let Some(network) = self.networks.get(name).map(|slot| Arc::clone(&slot)) else {
            return Ok(None);
        };
        let guard = network.write();
        check(&guard)?;
        // Another call may have deleted it, or put a new network there, meanwhile.
        let removed = self
            .networks
            .remove_if(name, |_, current| Arc::ptr_eq(current, &network))
            .map(|(_, network)| network);
        if removed.is_some() {
            self.count.fetch_sub(1, Ordering::AcqRel);
        }
        drop(guard);
        Ok(removed)
    }

    /// The registered names, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.networks.iter().map(|e| e.key().clone()).collect();
        names.sort_unstable();
        names
    }

    /// Reserves `bytes` for a network being made, atomically against every other
    /// reservation: refused (`Err` with the bytes already promised) when
    /// `held` (what the registered networks hold) plus what is promised plus
    /// `bytes` passes `max`. The reservation lasts until dropped; keep it until
    /// the network is registered (it is then counted twice for a moment, never
    /// less than once).
    pub fn reserve_bytes(
        &self,
        held: usize,
        bytes: usize,
        max: usize,
    ) -> Result<Reservation, usize> {
        self.reserved
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |promised| {
                let total = held.saturating_add(promised).saturating_add(bytes);
                (total <= max).then(|| promised.saturating_add(bytes))
            })
            .map(|_| Reservation {
                reserved: Arc::clone(&self.reserved),
                bytes,
            })
    }

    /// Every network's name and handle, sorted by name.
    pub fn handles(&self) -> Vec<(String, SharedNetwork)> {
        let mut handles: Vec<(String, SharedNetwork)> = self
            .networks
            .iter()
            .map(|e| (e.key().clone(), Arc::clone(e.value())))
            .collect();
        handles.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        handles
    }

    /// Whether the registry holds exactly `handles` (the same names, each the
    /// same network, not one deleted and made again).
    pub fn holds_exactly(&self, handles: &[(String, SharedNetwork)]) -> bool {
        handles.len() == self.networks.len()
            && handles.iter().all(|(name, network)| {
                self.networks
                    .get(name)
                    .is_some_and(|current| Arc::ptr_eq(&current, network))
            })
    }

    /// The number of registered networks.
    pub fn len(&self) -> usize {
        self.count.load(Ordering::Acquire)
    }

    /// Whether no network is registered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A summary of every network, sorted by name, as of each one's last write:
    /// read without the networks' locks, so a long call on one network never
    /// holds the list up.
    pub fn list(&self) -> Vec<NetworkSummary> {
        let mut summaries: Vec<NetworkSummary> = self
            .networks
            .iter()
            .map(|entry| entry.value().summary(entry.key().clone()))
            .collect();
        summaries.sort_unstable_by(|a, b| a.name.cmp(&b.name));
        summaries
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::budget::{Budget, Stop};

    #[test]
    fn listing_never_waits_for_a_held_network() {
        let registry = NetworkRegistry::new();
        registry.create("busy", Some("held".into())).unwrap();
        registry
            .write("busy", |net| net.add_node("a").map(|_| ()))
            .unwrap();
        let network = registry.get("busy").unwrap();
        let guard = network.write();
        let list = registry.list();
        assert_eq!(list.len(), 1);
        assert_eq!(
            (list[0].nodes, list[0].description.as_deref()),
            (1, Some("held"))
        );
        drop(guard);
    }

    #[test]
    fn a_lock_wait_ends_with_the_budget() {
        let registry = NetworkRegistry::new();
        registry.create("busy", None).unwrap();
        let network = registry.get("busy").unwrap();
        let guard = network.write();
        let budget = Budget::unlimited().with_timeout(Duration::from_millis(50));
        let waited = budget.run(|| registry.read("busy", |net| Ok(net.node_count())));
        assert!(matches!(waited, Err(Stop::DeadlineExceeded { .. })));
        drop(guard);
        assert_eq!(
            budget.run(|| registry.len()),
            Err(Stop::DeadlineExceeded {
                allowed: Duration::from_millis(50)
            })
        );
        let fresh = Budget::unlimited().with_timeout(Duration::from_secs(5));
        assert_eq!(
            fresh.run(|| registry.read("busy", |net| Ok(net.node_count()))),
            Ok(Ok(0))
        );
    }

    #[test]
    fn reservations_never_promise_more_than_the_bound_together() {
        let registry = NetworkRegistry::new();
        let first = registry.reserve_bytes(100, 400, 1_000).expect("fits");
        assert_eq!(registry.reserve_bytes(100, 600, 1_000).unwrap_err(), 400);
        let second = registry
            .reserve_bytes(100, 500, 1_000)
            .expect("fits beside the first");
        drop(first);
        assert!(registry.reserve_bytes(100, 400, 1_000).is_ok());
        drop(second);
        assert!(registry.reserve_bytes(0, 1_000, 1_000).is_ok());
    }

    #[test]
    fn racing_creates_never_pass_the_network_cap() {
        let registry = std::sync::Arc::new(NetworkRegistry::new());
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let registry = std::sync::Arc::clone(&registry);
                std::thread::spawn(move || {
                    (0..50)
                        .filter(|i| {
                            registry
                                .create_bounded(&format!("n{t}-{i}"), None, 100)
                                .is_ok()
                        })
                        .count()
                })
            })
            .collect();
        let created: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
        assert_eq!(created, 100);
        assert_eq!(registry.len(), 100);
        assert_eq!(registry.names().len(), 100);
    }
}
