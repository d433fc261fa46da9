//! Computed answers kept between the pages of one call, so that a later page of
//! a tool whose first page computes more than it returns (a diff, a ranking, a
//! partition, a search) costs O(page) instead of the whole computation again.
//!
//! Why a cache on the server and not state in the cursor: what these pages
//! continue is the whole answer (a multiset difference, a sort of every score,
//! a partition, every match ranked), which cannot be resumed from a few numbers;
//! a cursor carrying it would be as large as the answer. The cursor stays what
//! [`crate::mcp::page`] makes it (small, checked, naming the network's state),
//! and the cache is only ever a shortcut: an answer that was evicted is computed
//! again, with the same result.
//!
//! Correctness: an answer is keyed by the tool, the exact bytes of its
//! parameters other than `limit` and `cursor` (not a hash of them, so two
//! questions are never confused), and the (instance, version) of every network
//! it read. Versions rise with every change of content and instances are unique
//! per process (a copy gets its own), so a write makes every answer about the
//! old state unreachable: no key can name it again. Such answers are dropped as
//! soon as an answer about the new state of the same network is kept, or by
//! eviction. The cursor of a page made before the change is refused with
//! `cursor_stale` before the cache is asked (today's behaviour).
//!
//! Bounds: at most [`MAX_ENTRIES`] answers and [`MAX_BYTES`] bytes in all, as
//! estimated by each answer's [`Weigh`]; the least recently used answers are
//! evicted first, and an answer larger than the whole bound is not kept. Only an
//! answer with a page after the one just built is kept (a one-page answer would
//! never be read again). The lock is held to look up, insert and evict, never
//! while anything is computed.

use std::any::Any;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;

use crate::error::Result;
use crate::mcp::tool::ToolContext;
use crate::network::Network;

/// The most bytes all kept answers may take together (estimated).
pub(crate) const MAX_BYTES: usize = 64 << 20;
/// The most answers kept at once.
pub(crate) const MAX_ENTRIES: usize = 32;

/// The bytes an answer holds, estimated: its vectors' capacities and what they
/// point to on the heap, so that the bound holds within the estimate's error.
pub(crate) trait Weigh: Send + Sync + 'static {
    /// The estimated heap and inline bytes of this answer.
    fn bytes(&self) -> usize;
}

/// The bytes of `v`'s buffer.
pub(crate) fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity().saturating_mul(std::mem::size_of::<T>())
}

/// Which answer: the tool, the state of every network it read, and the exact
/// bytes of its question, as its `Hash` writes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AnswerKey {
    bytes: Vec<u8>,
    /// (instance, version) of each network read.
    states: Vec<(u64, u64)>,
}

/// A `Hasher` that keeps what it is fed: the std `Hash` impls write prefix-free
/// streams (lengths before sequences, a terminator after strings), so equal
/// streams mean equal questions.
struct Record(Vec<u8>);

impl Hasher for Record {
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
    fn finish(&self) -> u64 {
        0
    }
}

impl AnswerKey {
    /// The key of `tool`'s answer to `query` over `networks` as they are now.
    pub fn new(tool: &str, networks: &[&Network], query: impl Hash) -> AnswerKey {
        let mut record = Record(Vec::new());
        tool.hash(&mut record);
        let mut states = Vec::with_capacity(networks.len());
        for net in networks {
            net.name().hash(&mut record);
            net.instance().hash(&mut record);
            net.version().hash(&mut record);
            states.push((net.instance(), net.version()));
        }
        query.hash(&mut record);
        AnswerKey {
            bytes: record.0,
            states,
        }
    }

    fn bytes(&self) -> usize {
        vec_bytes(&self.bytes) + vec_bytes(&self.states) + std::mem::size_of::<Self>()
    }
}

struct Entry {
    key: AnswerKey,
    value: Arc<dyn Any + Send + Sync>,
    bytes: usize,
    /// When last used, by the cache's tick: the smallest is evicted first.
    used: u64,
}

#[derive(Default)]
struct State {
    /// Few entries (at most `max_entries`): a scan is cheaper than any index.
    entries: Vec<Entry>,
    bytes: usize,
    tick: u64,
}

/// The answers kept for later pages: one per server, shared by its sessions.
pub(crate) struct Answers {
    state: Mutex<State>,
    max_bytes: usize,
    max_entries: usize,
    /// How many answers were computed because none was kept (for tests).
    computed: AtomicU64,
}

impl Default for Answers {
    fn default() -> Self {
        Answers::with_bounds(MAX_BYTES, MAX_ENTRIES)
    }
}

impl Answers {
    /// A cache holding at most `max_entries` answers and `max_bytes` bytes.
    pub fn with_bounds(max_bytes: usize, max_entries: usize) -> Answers {
        Answers {
            state: Mutex::new(State::default()),
            max_bytes,
            max_entries,
            computed: AtomicU64::new(0),
        }
    }

    /// How many answers were computed through this cache (not found kept).
    pub fn computed(&self) -> u64 {
        self.computed.load(Ordering::Relaxed)
    }

    /// The bytes and entries kept now.
    pub fn held(&self) -> (usize, usize) {
        let state = self.state.lock();
        (state.bytes, state.entries.len())
    }

    fn get<T: Weigh>(&self, key: &AnswerKey) -> Option<Arc<T>> {
        let mut state = self.state.lock();
        state.tick += 1;
        let tick = state.tick;
        let entry = state.entries.iter_mut().find(|e| e.key == *key)?;
        entry.used = tick;
        Arc::clone(&entry.value).downcast::<T>().ok()
    }

    fn insert<T: Weigh>(&self, key: AnswerKey, value: Arc<T>) {
        let bytes = value.bytes().saturating_add(key.bytes());
        if bytes > self.max_bytes || self.max_entries == 0 {
            return;
        }
        let mut state = self.state.lock();
        state.tick += 1;
        let used = state.tick;
        // Answers about an older state of a network read here can never be
        // asked for again (versions only rise): drop them now. So is a copy of
        // this very answer, kept meanwhile by a concurrent call.
        let stale = |e: &Entry| {
            e.key == key
                || e.key.states.iter().any(|&(instance, version)| {
                    key.states
                        .iter()
                        .any(|&(i, v)| i == instance && v > version)
                })
        };
        let mut freed = 0;
        state.entries.retain(|e| {
            let drop = stale(e);
            if drop {
                freed += e.bytes;
            }
            !drop
        });
        state.bytes -= freed;
        while state.entries.len() >= self.max_entries || state.bytes + bytes > self.max_bytes {
            let Some(oldest) = (0..state.entries.len()).min_by_key(|&i| state.entries[i].used)
            else {
                break;
            };
            let evicted = state.entries.swap_remove(oldest);
            state.bytes -= evicted.bytes;
        }
        state.bytes += bytes;
        state.entries.push(Entry {
            key,
            value,
            bytes,
            used,
        });
    }
}

/// An answer, kept or just computed; [`Answer::keep_if`] keeps a fresh one.
pub(crate) struct Answer<'c, T: Weigh> {
    value: Arc<T>,
    /// Where to keep it, when it was computed now and the server keeps answers.
    store: Option<(&'c Answers, AnswerKey)>,
}

impl<T: Weigh> Deref for Answer<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: Weigh> Answer<'_, T> {
    /// Keeps a freshly computed answer for later pages when `more`: the page
    /// just built has a next one. Call it under the same network locks the
    /// answer was computed under, so that the state its key names is current.
    pub fn keep_if(self, more: bool) {
        if more && let Some((answers, key)) = self.store {
            answers.insert(key, self.value);
        }
    }
}

/// The answer of `key`: kept by the server for an earlier page, or computed now
/// by `compute` (with no lock of the cache held). Without a cache (a replay, a
/// dry run) it is always computed.
pub(crate) fn answer<'c, T: Weigh>(
    ctx: &ToolContext<'c>,
    key: AnswerKey,
    compute: impl FnOnce() -> Result<T>,
) -> Result<Answer<'c, T>> {
    let Some(answers) = ctx.answers else {
        return Ok(Answer {
            value: Arc::new(compute()?),
            store: None,
        });
    };
    if let Some(value) = answers.get::<T>(&key) {
        return Ok(Answer { value, store: None });
    }
    answers.computed.fetch_add(1, Ordering::Relaxed);
    Ok(Answer {
        value: Arc::new(compute()?),
        store: Some((answers, key)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Blob(Vec<u8>);
    impl Weigh for Blob {
        fn bytes(&self) -> usize {
            vec_bytes(&self.0)
        }
    }

    fn key(net: &Network, q: u32) -> AnswerKey {
        AnswerKey::new("t", &[net], q)
    }

    #[test]
    fn keys_name_the_question_and_the_state() {
        let mut net = Network::named("a");
        assert_eq!(key(&net, 1), key(&net, 1));
        assert_ne!(key(&net, 1), key(&net, 2));
        assert_ne!(key(&net, 1), AnswerKey::new("u", &[&net], 1u32));
        let before = key(&net, 1);
        net.add_node("x").unwrap();
        assert_ne!(before, key(&net, 1));
        // Strings are terminated: ("ab", "c") is not ("a", "bc").
        assert_ne!(
            AnswerKey::new("t", &[&net], ("ab", "c")),
            AnswerKey::new("t", &[&net], ("a", "bc"))
        );
    }

    #[test]
    fn the_bounds_hold_and_the_least_recently_used_goes_first() {
        let answers = Answers::with_bounds(10_000, 3);
        let net = Network::named("a");
        for q in 0..3 {
            answers.insert(key(&net, q), Arc::new(Blob(vec![0; 1000])));
        }
        assert_eq!(answers.held().1, 3);
        // 0 is used, so 1 is the least recently used.
        assert!(answers.get::<Blob>(&key(&net, 0)).is_some());
        answers.insert(key(&net, 3), Arc::new(Blob(vec![0; 1000])));
        assert_eq!(answers.held().1, 3);
        assert!(answers.get::<Blob>(&key(&net, 1)).is_none());
        assert!(answers.get::<Blob>(&key(&net, 0)).is_some());
        // By bytes: a big answer evicts until it fits; one past the bound is not kept.
        answers.insert(key(&net, 4), Arc::new(Blob(vec![0; 8000])));
        let (bytes, entries) = answers.held();
        assert!(bytes <= 10_000, "{bytes}");
        assert!(entries < 3);
        assert!(answers.get::<Blob>(&key(&net, 4)).is_some());
        answers.insert(key(&net, 5), Arc::new(Blob(vec![0; 20_000])));
        assert!(answers.get::<Blob>(&key(&net, 5)).is_none());
        assert!(answers.held().0 <= 10_000);
    }

    #[test]
    fn an_answer_about_a_newer_state_drops_the_older_ones() {
        let answers = Answers::default();
        let mut net = Network::named("a");
        answers.insert(key(&net, 0), Arc::new(Blob(vec![1])));
        net.add_node("x").unwrap();
        answers.insert(key(&net, 1), Arc::new(Blob(vec![2])));
        assert_eq!(answers.held().1, 1);
        // A different type under the same key is a miss, not a panic.
        struct Other;
        impl Weigh for Other {
            fn bytes(&self) -> usize {
                0
            }
        }
        assert!(answers.get::<Other>(&key(&net, 1)).is_none());
    }
}
