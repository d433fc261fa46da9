//! "Did you mean" suggestions for unknown node ids.
//!
//! They are added here, on the way out of a failed call, rather than in the core:
//! an LLM needs them to fix a call in one step, and the graph core stays free of
//! string-distance code.
//!
//! # The measure
//!
//! Ids and the id asked for are compared as *keys*: Unicode NFC, lowercased. A
//! key's *skeleton* is the key without separators (`-`, `_`, `.`, `/`, `:` and
//! white space), so `gcc12` and `gcc-12` have the same skeleton. A key splits into
//! *tokens* at separators and where letters meet digits: `libsdl2-2.0-0` is
//! `libsdl` `2` `2` `0` `0`, `libc6` is `libc` `6`.
//!
//! Distance: the restricted Damerau–Levenshtein distance (optimal string
//! alignment: insertion, deletion, substitution and the swap of two adjacent
//! characters each cost one edit) between skeletons. A candidate id matches the
//! asked id `q` in one of two ways:
//! * **whole**: its skeleton is within the edit bound of `q`'s;
//! * **completion**: a prefix of it that ends at a token boundary is within the
//!   edit bound of `q` (`libsdl2` → `libsdl2-dev`, `libc` → `libc6`,
//!   `libsld2` → `libsdl2-dev` with one edit); a prefix ending inside a token
//!   counts one edit more (`python3.11-min` → `python3.11-minimal`, but `git`
//!   before `gtimelog` for `gti`).
//!
//! The edit bound is 0 for a skeleton of 1–2 characters, 1 for 3–5 and 2 from 6
//! on; the part matched must be at least two thirds as long as `q` and at most
//! half of it edited, so short fragments are never suggested. Ranking: fewest
//! edits; then a whole match before a completion at a token boundary, before
//! one inside a token; then the shortest completion;
//! then the smallest difference in length; then node (or candidate) order. So a
//! missing version or suffix (0 edits) ranks above a real typo (`libc6` before
//! `lirc` for `libc`), and among typos one edit wins over two.
//!
//! # Cost
//!
//! Small networks (up to [`SCAN_UP_TO`] nodes) and tool names are scanned: every
//! candidate is scored, O(m·L) each for a query of m characters and ids of L.
//! A larger network gets an [`IdIndex`]: its keys sorted, concatenated in one
//! string, with a `u32` offset and a `u32` node index each — the ids' bytes plus
//! 8 bytes an id (about 1.5× the ids' bytes for Debian package names). Built on
//! the first miss after a change, in O(B + n log n · L) for B bytes of n ids,
//! charged to the call's budget, off the write path (under the read lock, on the
//! error path), and cached by network and version ([`CACHED_INDEXES`] kept). A
//! miss then walks the sorted keys as a trie with the edit distance's table, one
//! column per trie node, pruning a branch once every cell passes the bound (a
//! Levenshtein automaton over a sorted array): at most [`MAX_VISITS`] nodes, each
//! finding its children by binary search, and at most [`MAX_CANDIDATES`] ids
//! scored with the measure above. The work of a miss is bounded whatever the
//! network's size.

use std::sync::{Arc, Mutex, Weak};

use petgraph::stable_graph::NodeIndex;

use crate::error::Error;
use crate::network::Network;
use crate::registry::{NetworkLock, NetworkRegistry};

/// `error` with the closest existing ids filled into every [`Error::NodeNotFound`]
/// in it (a batch item's too), read from the network the error names.
pub(crate) fn with_suggestions(error: Error, registry: &NetworkRegistry) -> Error {
    match error {
        Error::NodeNotFound {
            network,
            field,
            node_id,
            suggestions,
        } if suggestions.is_empty() => {
            let suggestions = registry
                .get(&network)
                .map(|shared| {
                    let net = shared.read();
                    Finder::new(&shared, &net).closest(&net, &node_id)
                })
                .unwrap_or_default();
            Error::NodeNotFound {
                network,
                field,
                node_id,
                suggestions,
            }
        }
        Error::NodesNotFound {
            network,
            field,
            node_ids,
            suggestions,
        } if suggestions.is_empty() => {
            // Bounded: the error lists at most MAX_LISTED ids, so only those get a pass.
            let suggestions = registry
                .get(&network)
                .map(|shared| {
                    let net = shared.read();
                    let finder = Finder::new(&shared, &net);
                    node_ids
                        .iter()
                        .take(crate::error::MAX_LISTED)
                        .map(|id| finder.closest(&net, id))
                        .collect()
                })
                .unwrap_or_default();
            Error::NodesNotFound {
                network,
                field,
                node_ids,
                suggestions,
            }
        }
        Error::InvalidBatchItem {
            field,
            index,
            inner,
        } => Error::InvalidBatchItem {
            field,
            index,
            inner: Box::new(with_suggestions(*inner, registry)),
        },
        other => other,
    }
}

/// How many suggestions an error carries at most.
pub const MAX_SUGGESTIONS: usize = 5;

/// Networks of at most this many nodes are scanned instead of indexed.
const SCAN_UP_TO: usize = 4096;

/// How many trie nodes one miss may visit in an [`IdIndex`].
const MAX_VISITS: usize = 100_000;

/// How many ids one miss may score in an [`IdIndex`].
const MAX_CANDIDATES: usize = 2048;

/// How many networks' indexes are kept.
const CACHED_INDEXES: usize = 4;

/// Whether `c` separates tokens (and is left out of a skeleton).
fn is_separator(c: char) -> bool {
    matches!(c, '-' | '_' | '.' | '/' | ':') || c.is_whitespace()
}

/// A character's kind: tokens end where the kind changes.
fn kind(c: char) -> u8 {
    if is_separator(c) {
        0
    } else if c.is_numeric() {
        1
    } else {
        2
    }
}

/// The id asked for, prepared.
struct Query {
    /// Its skeleton's characters.
    skeleton: Vec<char>,
    /// The most edits a match may need.
    bound: usize,
}

impl Query {
    fn new(wanted: &str) -> Query {
        let mut key = String::new();
        comparison_key(wanted, &mut key);
        let skeleton: Vec<char> = key.chars().filter(|&c| !is_separator(c)).collect();
        let bound = match skeleton.len() {
            0..=2 => 0,
            3..=5 => 1,
            _ => 2,
        };
        Query { skeleton, bound }
    }

    /// Whether a part of `len` skeleton characters matched with `edits` edits
    /// may be suggested: long enough, and at most half of it edited.
    fn accepts(&self, len: usize, edits: usize) -> bool {
        let m = self.skeleton.len();
        edits <= self.bound && len * 3 >= m * 2 && edits * 2 <= len.max(m) && len > 0
    }

    /// The next column of the edit table (rows: the query's skeleton) after the
    /// skeleton character `c`, from the current column `cur` (after `before`)
    /// and the one before it, `prev`. Returns the column's smallest cell.
    fn step(
        &self,
        prev: &[u32],
        cur: &[u32],
        before: Option<char>,
        c: char,
        next: &mut [u32],
    ) -> u32 {
        let q = &self.skeleton;
        next[0] = cur[0] + 1;
        let mut low = next[0];
        for i in 1..=q.len() {
            let mut d = (cur[i - 1] + u32::from(q[i - 1] != c))
                .min(cur[i] + 1)
                .min(next[i - 1] + 1);
            if i >= 2 && before == Some(q[i - 1]) && q[i - 2] == c {
                d = d.min(prev[i - 2] + 1);
            }
            next[i] = d;
            low = low.min(d);
        }
        low
    }
}

/// How well a candidate matches: compared as a tuple, smaller is better.
type Rank = (usize, u8, usize, usize);

/// Reused buffers for [`rank`].
#[derive(Default)]
struct Columns {
    prev: Vec<u32>,
    cur: Vec<u32>,
    next: Vec<u32>,
}

/// The rank of the candidate whose key is `key` (see the module docs), if it
/// matches at all: (cost, 0 for whole, 1 for a completion at a token boundary or
/// 2 inside a token, completion length, length difference), lengths in skeleton
/// characters.
fn rank(query: &Query, key: &str, columns: &mut Columns) -> Option<Rank> {
    let m = query.skeleton.len();
    let total = key.chars().filter(|&c| !is_separator(c)).count();
    let Columns { prev, cur, next } = columns;
    for column in [&mut *prev, &mut *cur, &mut *next] {
        column.clear();
        column.extend(0..=m as u32);
    }
    let bound = query.bound as u32;
    // The best completion so far: (cost, class, characters completed).
    let mut completion: Option<(usize, u8, usize)> = None;
    let mut n = 0usize;
    let mut before: Option<char> = None;
    let mut last_kind: Option<u8> = None;
    for c in key.chars() {
        let k = kind(c);
        if n > 0 {
            // The prefix so far completed: at a token boundary for its edits,
            // inside a token for one more.
            let boundary = last_kind != Some(k);
            let cost = cur[m] as usize + usize::from(!boundary);
            let this = (cost, 1 + u8::from(!boundary), total - n);
            if query.accepts(n, cost) && completion.is_none_or(|best| this < best) {
                completion = Some(this);
            }
        }
        last_kind = Some(k);
        if k == 0 {
            continue;
        }
        let low = query.step(prev, cur, before, c, next);
        std::mem::swap(prev, cur);
        std::mem::swap(cur, next);
        before = Some(c);
        n += 1;
        if low > bound {
            // Every later cell is further than the bound: no whole match, and no
            // completion past this point.
            let (cost, class, rest) = completion?;
            return Some((cost, class, rest, total.abs_diff(m)));
        }
    }
    let whole = cur[m] as usize;
    let whole = query
        .accepts(n, whole)
        .then_some((whole, 0, 0, n.abs_diff(m)));
    let completion = completion.map(|(cost, class, rest)| (cost, class, rest, n.abs_diff(m)));
    match (whole, completion) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Up to [`MAX_SUGGESTIONS`] of `candidates` closest to `wanted`, best first
/// (see the module docs for the measure); ties go to the earlier candidate.
///
/// Both sides are compared after Unicode NFC normalisation and lowercasing, so `é`
/// written as `e` + U+0301 finds `é`, and `Build` finds `build`. Ids themselves are
/// compared exactly everywhere else: normalisation is only for suggestions.
///
/// Cost: one pass over the candidates, O(m·L) each; a candidate too short to
/// match is skipped before any distance is computed, and ASCII keys need no
/// normalisation. It only runs on the error path.
pub fn closest<'a>(wanted: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<String> {
    let query = Query::new(wanted);
    let m = query.skeleton.len();
    let mut key = String::new();
    let mut columns = Columns::default();
    let mut scored: Vec<(Rank, usize, &str)> = Vec::new();
    for (order, candidate) in candidates.enumerate() {
        // A cheap bound first: the byte length of an id bounds its skeleton's length.
        if candidate.len() * 3 < m * 2 {
            continue;
        }
        comparison_key(candidate, &mut key);
        if let Some(rank) = rank(&query, &key, &mut columns) {
            scored.push((rank, order, candidate));
            if scored.len() > 4 * MAX_SUGGESTIONS {
                scored.sort_unstable();
                scored.truncate(MAX_SUGGESTIONS);
            }
        }
    }
    scored.sort_unstable();
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(.., s)| s.to_string())
        .collect()
}

/// How the ids of one network are searched for suggestions.
enum Finder {
    /// Every id is scored.
    Scan,
    /// Through the network's index.
    Index(Arc<IdIndex>),
}

/// An index cached for a network at one version.
struct Cached {
    network: Weak<NetworkLock>,
    version: u64,
    nodes: usize,
    index: Arc<IdIndex>,
}

/// The indexes of the networks missed in last ([`CACHED_INDEXES`], newest last).
static CACHE: Mutex<Vec<Cached>> = Mutex::new(Vec::new());

impl Finder {
    /// The finder for `net`, read from `shared`: a scan for a small network,
    /// else its index, built now unless cached at this version.
    fn new(shared: &Arc<NetworkLock>, net: &Network) -> Finder {
        if net.node_count() <= SCAN_UP_TO {
            return Finder::Scan;
        }
        let weak = Arc::downgrade(shared);
        let (version, nodes) = (net.version(), net.node_count());
        let same = |c: &Cached| {
            Weak::ptr_eq(&c.network, &weak) && c.version == version && c.nodes == nodes
        };
        {
            let cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(hit) = cache.iter().find(|c| same(c)) {
                return Finder::Index(Arc::clone(&hit.index));
            }
        }
        // Built without the cache's lock: a large build must not hold up a miss
        // on another network.
        let Some(index) = IdIndex::build(net) else {
            return Finder::Scan;
        };
        let index = Arc::new(index);
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        cache.retain(|c| c.network.strong_count() > 0 && !Weak::ptr_eq(&c.network, &weak));
        cache.push(Cached {
            network: weak,
            version,
            nodes,
            index: Arc::clone(&index),
        });
        if cache.len() > CACHED_INDEXES {
            cache.remove(0);
        }
        Finder::Index(index)
    }

    /// Up to [`MAX_SUGGESTIONS`] ids of `net` closest to `wanted`, best first.
    fn closest(&self, net: &Network, wanted: &str) -> Vec<String> {
        match self {
            Finder::Scan => closest(wanted, net.node_ids()),
            Finder::Index(index) => index.closest(net, wanted),
        }
    }
}

/// The keys of a network's ids, sorted, for [`Finder`] (see the module docs).
struct IdIndex {
    /// Every key, in sorted order, one after another.
    text: String,
    /// Where each key starts in `text`, and the end of the last.
    starts: Vec<u32>,
    /// Each key's node index.
    nodes: Vec<u32>,
}

/// One trie node on the walk of [`IdIndex::closest`]: the keys `lo..hi` share
/// their first `depth` bytes, whose skeleton has `len` characters.
struct Visit {
    lo: u32,
    hi: u32,
    depth: u32,
    len: u32,
    /// The last skeleton character of the shared prefix.
    before: Option<char>,
    /// The kind of its last character.
    last_kind: Option<u8>,
}

impl IdIndex {
    /// The index of `net`'s ids, or `None` if their keys pass 4 GiB.
    fn build(net: &Network) -> Option<IdIndex> {
        let n = net.node_count();
        crate::budget::charge(n as u64);
        let mut keys = String::new();
        let mut spans: Vec<(u32, u32, u32)> = Vec::with_capacity(n);
        let mut key = String::new();
        for ix in net.graph().node_indices() {
            comparison_key(net.id_at(ix), &mut key);
            let start = u32::try_from(keys.len()).ok()?;
            keys.push_str(&key);
            let end = u32::try_from(keys.len()).ok()?;
            spans.push((start, end, u32::try_from(ix.index()).ok()?));
        }
        crate::budget::charge(keys.len() as u64 / 8);
        let of = |&(s, e, _): &(u32, u32, u32)| &keys.as_bytes()[s as usize..e as usize];
        // About log2(n) comparisons an id.
        crate::budget::charge(n as u64 * u64::from(usize::BITS - n.leading_zeros()));
        spans.sort_unstable_by(|a, b| of(a).cmp(of(b)).then(a.2.cmp(&b.2)));
        let mut text = String::with_capacity(keys.len());
        let mut starts = Vec::with_capacity(n + 1);
        let mut nodes = Vec::with_capacity(n);
        for &(s, e, node) in &spans {
            starts.push(text.len() as u32);
            text.push_str(&keys[s as usize..e as usize]);
            nodes.push(node);
        }
        starts.push(text.len() as u32);
        Some(IdIndex {
            text,
            starts,
            nodes,
        })
    }

    /// The `i`-th key in sorted order.
    fn key(&self, i: u32) -> &str {
        let i = i as usize;
        &self.text[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Up to [`MAX_SUGGESTIONS`] ids of `net` closest to `wanted`, best first:
    /// the candidates the walk finds, ranked by the measure of [`closest`].
    fn closest(&self, net: &Network, wanted: &str) -> Vec<String> {
        let query = Query::new(wanted);
        let mut candidates = self.candidates(&query);
        candidates.sort_unstable();
        candidates.dedup();
        crate::budget::charge(candidates.len() as u64 * (1 + query.skeleton.len() as u64));
        let mut columns = Columns::default();
        let mut scored: Vec<(Rank, u32, u32)> = candidates
            .into_iter()
            .filter_map(|i| {
                Some((
                    rank(&query, self.key(i), &mut columns)?,
                    self.nodes[i as usize],
                    i,
                ))
            })
            .collect();
        scored.sort_unstable();
        scored
            .into_iter()
            .filter_map(|(_, node, _)| {
                let ix = NodeIndex::new(node as usize);
                net.graph()
                    .node_weight(ix)
                    .map(|_| net.id_at(ix).to_string())
            })
            .take(MAX_SUGGESTIONS)
            .collect()
    }

    /// The keys worth scoring for `query`: the walk of the sorted keys as a trie,
    /// with the edit table's column at each trie node. A node whose prefix is
    /// within the bound offers the key equal to it (a whole match) and the first
    /// key of each child that starts a new token (a completion); a node whose
    /// whole column passes the bound is not entered.
    fn candidates(&self, query: &Query) -> Vec<u32> {
        let m = query.skeleton.len();
        let width = m + 1;
        let bound = query.bound as u32;
        let mut found = Vec::new();
        let Some(last) = self.nodes.len().checked_sub(1) else {
            return found;
        };
        // The stack of trie nodes to visit, and beside it their columns (the
        // one before and the current one, 2 × width cells each).
        let mut stack = vec![Visit {
            lo: 0,
            hi: last as u32 + 1,
            depth: 0,
            len: 0,
            before: None,
            last_kind: None,
        }];
        let mut cells: Vec<u32> = (0..=m as u32).chain(0..=m as u32).collect();
        let (mut prev, mut cur, mut next) = (vec![0; width], vec![0; width], vec![0; width]);
        let mut visits = 0;
        while let Some(visit) = stack.pop() {
            visits += 1;
            crate::budget::charge(1 + m as u64);
            if visits > MAX_VISITS || found.len() >= MAX_CANDIDATES {
                break;
            }
            let at = cells.len() - 2 * width;
            prev.copy_from_slice(&cells[at..at + width]);
            cur.copy_from_slice(&cells[at + width..]);
            cells.truncate(at);
            let depth = visit.depth as usize;
            // Completions at a token boundary, and anywhere for one more edit.
            let within = cur[m] <= bound;
            let within_token = cur[m] < bound;
            let mut pos = visit.lo;
            // Keys equal to the prefix come first.
            while pos < visit.hi && self.key(pos).len() == depth {
                if within && found.len() < MAX_CANDIDATES {
                    found.push(pos);
                }
                pos += 1;
            }
            while pos < visit.hi {
                let Some(c) = self.key(pos)[depth..].chars().next() else {
                    break;
                };
                let mut bytes = [0; 4];
                let c_bytes = c.encode_utf8(&mut bytes).as_bytes();
                let end = pos
                    + self.partition(pos, visit.hi, |key| {
                        key.as_bytes()[depth..].starts_with(c_bytes)
                    });
                let k = kind(c);
                if visit.len > 0 && (within_token || within && visit.last_kind != Some(k)) {
                    found.push(pos);
                }
                let (low, len, before) = if k == 0 {
                    next.copy_from_slice(&cur);
                    (
                        cur.iter().copied().min().unwrap_or(0),
                        visit.len,
                        visit.before,
                    )
                } else {
                    let low = query.step(&prev, &cur, visit.before, c, &mut next);
                    (low, visit.len + 1, Some(c))
                };
                if low <= bound {
                    if k == 0 {
                        cells.extend_from_slice(&prev);
                    } else {
                        cells.extend_from_slice(&cur);
                    }
                    cells.extend_from_slice(&next);
                    stack.push(Visit {
                        lo: pos,
                        hi: end,
                        depth: (depth + c.len_utf8()) as u32,
                        len,
                        before,
                        last_kind: Some(k),
                    });
                }
                pos = end;
            }
        }
        found
    }

    /// How many keys of `lo..hi`, from `lo`, satisfy `pred` (true for a leading
    /// run of them): a binary search.
    fn partition(&self, lo: u32, hi: u32, pred: impl Fn(&str) -> bool) -> u32 {
        let (mut a, mut b) = (lo, hi);
        while a < b {
            let mid = a + (b - a) / 2;
            if pred(self.key(mid)) {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        a - lo
    }
}

/// `text` NFC-normalised and lowercased into `key` (reused between calls).
fn comparison_key(text: &str, key: &mut String) {
    use unicode_normalization::UnicodeNormalization;
    key.clear();
    if text.is_ascii() {
        key.extend(text.chars().map(|c| c.to_ascii_lowercase()));
    } else {
        key.extend(text.nfc().flat_map(char::to_lowercase));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_case_and_typos() {
        let ids = ["logging", "cli", "agents", "Logger", "networks"];
        let got = closest("loging", ids.iter().copied());
        assert_eq!(got.first().map(String::as_str), Some("logging"));
        assert!(!got.contains(&"cli".to_string()));
        assert_eq!(closest("CLI", ids.iter().copied())[0], "cli");
    }

    #[test]
    fn swapped_letters_rank_first_and_short_fragments_never_appear() {
        let ids = ["ht", "python3", "python3-minimal", "libpython3.11", "py"];
        let got = closest("pyhton3", ids.iter().copied());
        assert_eq!(got.first().map(String::as_str), Some("python3"));
        assert!(!got.iter().any(|s| s == "ht" || s == "py"), "{got:?}");
        let ids = ["emd", "systemd", "systemd-sysv", "sd"];
        let got = closest("sytemd", ids.iter().copied());
        assert_eq!(got.first().map(String::as_str), Some("systemd"));
        assert!(!got.iter().any(|s| s == "emd" || s == "sd"), "{got:?}");
    }

    #[test]
    fn decomposed_unicode_finds_the_composed_id() {
        // "café" with é as e + U+0301 (NFD) against the id stored as U+00E9 (NFC).
        let ids = ["caf\u{e9}", "cafe-bar", "tea"];
        let got = closest("cafe\u{301}", ids.iter().copied());
        assert_eq!(got.first().map(String::as_str), Some("caf\u{e9}"));
        assert_eq!(closest("CAF\u{c9}", ids.iter().copied())[0], "caf\u{e9}");
    }

    #[test]
    fn a_large_candidate_set_is_one_pass() {
        let ids: Vec<String> = (0..200_000).map(|i| format!("package-{i}")).collect();
        let got = closest("packgae-1999", ids.iter().map(String::as_str));
        assert_eq!(got.first().map(String::as_str), Some("package-1999"));
        assert!(got.len() <= MAX_SUGGESTIONS);
    }

    #[test]
    fn nothing_close_gives_nothing() {
        assert!(closest("zzzzzz", ["a", "b"].iter().copied()).is_empty());
    }

    /// A package-like id set: deterministic, several thousand ids in the shapes
    /// of a Debian archive (lib*N, lib*-dev, python3-*, gcc-N, ...) plus the
    /// near neighbours that made the old ranking fail.
    fn packages() -> Vec<String> {
        let mut state = 0x5eed_u64;
        let mut next = |k: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % k as u64) as usize
        };
        let syllables = [
            "ab", "ar", "ba", "co", "da", "el", "fi", "ga", "ho", "in", "ka", "lo", "mi", "no",
            "or", "pa", "qu", "ra", "se", "ta", "un", "vo", "xi", "yo", "ze", "gl", "pr", "st",
        ];
        let mut ids: Vec<String> = [
            "libsdl2-2.0-0",
            "libsdl2-dev",
            "libsdl2-image-2.0-0",
            "libsdl2-image-dev",
            "libsdl2-mixer-2.0-0",
            "libsdl2-mixer-dev",
            "libsdl2-ttf-2.0-0",
            "libsdl2-ttf-dev",
            "libsdl2-net-2.0-0",
            "libsdl2-net-dev",
            "libsdl2-gfx-1.0-0",
            "libsdl2-gfx-dev",
            "libsdl2-doc",
            "libsdl2-tests",
            "libsdl2-image-tests",
            "libsdl2-gfx-doc",
            "libsdl1.2debian",
            "libsdl1.2-dev",
            "libldl2",
            "libssl3",
            "libssl-dev",
            "libxml2",
            "libxml2-dev",
            "libxml2-utils",
            "libsystemd0",
            "libsystemd-dev",
            "libsystemc",
            "systemd",
            "systemd-sysv",
            "systemd-timesyncd",
            "libc6",
            "libc6-dev",
            "libc-bin",
            "libc-dev-bin",
            "libc6-i386",
            "lirc",
            "liwc",
            "libcap2",
            "libcap2-bin",
            "libcurl4",
            "libcurl4-openssl-dev",
            "libcairo2",
            "libcairo2-dev",
            "python3",
            "python3-minimal",
            "python3-requests",
            "python3-numpy",
            "python3-yaml",
            "python3-pip",
            "python3-dev",
            "python3.11",
            "python3.11-minimal",
            "libpython3.11",
            "libpython3-dev",
            "python-is-python3",
            "gcc-12",
            "gcc-12-base",
            "gcc-13",
            "gcc-13-base",
            "gcc",
            "g++-12",
            "g++",
            "cpp-12",
            "libgcc-s1",
            "libstdc++6",
            "zlib1g",
            "zlib1g-dev",
            "libpng16-16",
            "libpng-dev",
            "libjpeg62-turbo",
            "libjpeg-dev",
            "libglib2.0-0",
            "libglib2.0-dev",
            "libgtk-3-0",
            "libgtk-3-dev",
            "libx11-6",
            "libx11-dev",
            "libxcb1",
            "libxcb1-dev",
            "openssl",
            "openssh-client",
            "openssh-server",
            "coreutils",
            "bash",
            "dash",
            "perl",
            "perl-base",
            "nodejs",
            "npm",
            "vim",
            "vim-tiny",
            "emacs",
            "git",
            "curl",
            "wget",
            "make",
            "cmake",
            "pkg-config",
            "pkgconf",
            "dpkg",
            "dpkg-dev",
            "apt",
            "apt-utils",
            "sudo",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut names = Vec::new();
        while names.len() < 900 {
            let parts = 2 + next(2);
            let name: String = (0..parts)
                .map(|_| syllables[next(syllables.len())])
                .collect();
            if !names.contains(&name) {
                names.push(name);
            }
        }
        for (i, name) in names.iter().enumerate() {
            let v = 1 + next(9);
            match i % 4 {
                0 => {
                    ids.push(format!("lib{name}{v}"));
                    ids.push(format!("lib{name}-dev"));
                    ids.push(format!("lib{name}-doc"));
                    ids.push(format!("{name}-utils"));
                }
                1 => {
                    ids.push(format!("python3-{name}"));
                    ids.push(format!("python-{name}-doc"));
                    ids.push(name.clone());
                }
                2 => {
                    ids.push(format!("lib{name}-{v}.{}-0", next(4)));
                    ids.push(format!("lib{name}-dev"));
                    ids.push(format!("{name}-{v}"));
                    ids.push(format!("{name}-data"));
                }
                _ => {
                    ids.push(format!("golang-{name}-dev"));
                    ids.push(format!("node-{name}"));
                    ids.push(format!("{name}d"));
                }
            }
        }
        for v in 4..=14 {
            ids.push(format!("gcc-{v}-doc"));
            ids.push(format!("llvm-{v}"));
            ids.push(format!("clang-{v}"));
        }
        let mut seen = std::collections::HashSet::new();
        ids.retain(|id| seen.insert(id.clone()));
        ids
    }

    /// Slips people make, and the id (or family, ending in `*`) they meant.
    const SLIPS: &[(&str, &str)] = &[
        // missing suffix or version
        ("libsdl2", "libsdl2-*"),
        ("libc", "libc6"),
        ("libsystemd", "libsystemd0"),
        ("libcurl", "libcurl4"),
        ("libcap", "libcap2"),
        ("libcairo", "libcairo2"),
        ("libpng", "libpng*"),
        ("libxcb", "libxcb1"),
        ("libx11", "libx11-6"),
        ("libgtk-3", "libgtk-3-0"),
        ("libglib2.0", "libglib2.0-0"),
        ("zlib", "zlib1g"),
        ("libssl", "libssl3"),
        ("libsdl2-image", "libsdl2-image-*"),
        ("libsdl2-ttf", "libsdl2-ttf-*"),
        ("python3.11-min", "python3.11-minimal"),
        // swapped letters
        ("libsld2", "libsdl2-*"),
        ("pyhton3", "python3"),
        ("sytsemd", "systemd"),
        ("lbic6", "libc6"),
        ("libsdl2-dve", "libsdl2-dev"),
        ("pyhton3-requests", "python3-requests"),
        ("libxlm2", "libxml2"),
        ("gti", "git"),
        ("opnessl", "openssl"),
        // typos (a changed letter)
        ("libsdl3-dev", "libsdl2-dev"),
        ("python3-numpi", "python3-numpy"),
        ("coreutlis", "coreutils"),
        ("openssh-servr", "openssh-server"),
        ("libjpeg62-turbp", "libjpeg62-turbo"),
        ("systemd-timesyncc", "systemd-timesyncd"),
        // missing or changed separator
        ("gcc12", "gcc-12"),
        ("libsdl2dev", "libsdl2-dev"),
        ("python3requests", "python3-requests"),
        ("gcc_12", "gcc-12"),
        ("pkgconfig", "pkg-config"),
        ("libc6dev", "libc6-dev"),
        ("gcc-12base", "gcc-12-base"),
        // wrong case
        ("LibSDL2-Dev", "libsdl2-dev"),
        ("Python3", "python3"),
        ("GCC-12", "gcc-12"),
        ("LIBC6", "libc6"),
        // an extra letter
        ("libssl33", "libssl3"),
        ("pythonn3", "python3"),
        ("libsystemdd0", "libsystemd0"),
        ("coreeutils", "coreutils"),
        ("gcc-122", "gcc-12"),
        // a missing letter
        ("pytho3", "python3"),
        ("libsytemd0", "libsystemd0"),
        ("corutils", "coreutils"),
    ];

    fn meant(expected: &str, got: Option<&String>) -> bool {
        match (expected.strip_suffix('*'), got) {
            (Some(family), Some(got)) => got.starts_with(family),
            (None, Some(got)) => got == expected,
            (_, None) => false,
        }
    }

    fn network(ids: &[String]) -> Network {
        let mut net = Network::new();
        net.add_nodes(ids.iter().map(String::as_str)).unwrap();
        net
    }

    #[test]
    fn the_meant_package_ranks_first_scanned_and_indexed() {
        let ids = packages();
        assert!(ids.len() > 3000, "{}", ids.len());
        assert!(SLIPS.len() >= 40);
        let net = network(&ids);
        let index = IdIndex::build(&net).unwrap();
        let mut wrong = Vec::new();
        for &(slip, expected) in SLIPS {
            assert!(!ids.iter().any(|id| id == slip), "{slip} exists");
            let scanned = closest(slip, ids.iter().map(String::as_str));
            let indexed = index.closest(&net, slip);
            if !meant(expected, scanned.first()) || !meant(expected, indexed.first()) {
                wrong.push(format!(
                    "{slip} → {expected}: scan {scanned:?}, index {indexed:?}"
                ));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn the_index_finds_as_good_a_first_suggestion_as_the_scan() {
        let ids = packages();
        let net = network(&ids);
        let index = IdIndex::build(&net).unwrap();
        let mut state = 99u64;
        let mut next = |k: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % k as u64) as usize
        };
        let mut columns = Columns::default();
        // 400 slips: each is a full scan of the 3,500 ids in a debug build.
        for _ in 0..400 {
            let mut chars: Vec<char> = ids[next(ids.len())].chars().collect();
            for _ in 0..1 + next(2) {
                let at = next(chars.len());
                match next(4) {
                    0 => {
                        chars.remove(at);
                    }
                    1 => chars.insert(at, (b'a' + next(26) as u8) as char),
                    2 => chars[at] = (b'a' + next(26) as u8) as char,
                    _ if at + 1 < chars.len() => chars.swap(at, at + 1),
                    _ => {}
                }
                if chars.is_empty() {
                    chars.push('x');
                }
            }
            let slip: String = chars.into_iter().collect();
            let query = Query::new(&slip);
            let mut best = |got: Vec<String>| {
                got.first().map(|id| {
                    let mut key = String::new();
                    comparison_key(id, &mut key);
                    let (edits, whole, ..) = rank(&query, &key, &mut columns).unwrap();
                    (edits, whole)
                })
            };
            let scanned = best(closest(&slip, ids.iter().map(String::as_str)));
            let indexed = best(index.closest(&net, &slip));
            assert_eq!(scanned, indexed, "{slip}");
        }
    }

    #[test]
    fn fuzzy_search_ranks_the_swapped_family_first() {
        use crate::network::search::{SearchFields, SearchMode, SearchOptions};
        let net = network(&packages());
        for (query, family) in [
            ("libsld2", "libsdl2-"),
            ("pyhton3", "python3"),
            ("sytsemd", "systemd"),
        ] {
            let options = SearchOptions {
                mode: SearchMode::Fuzzy,
                fields: SearchFields::These(&[]),
                ..SearchOptions::new(query)
            };
            let found = net.search(&options).unwrap();
            let first = net.id_at(found[0].node);
            assert!(first.starts_with(family), "{query}: {first}");
            assert_eq!(found[0].distance, 1, "{query}");
        }
    }

    #[test]
    fn a_large_network_uses_its_cached_index() {
        let ids: Vec<String> = (0..SCAN_UP_TO + 10)
            .map(|i| format!("pkg-{i}-dev"))
            .collect();
        let shared = Arc::new(NetworkLock::new(network(&ids)));
        let net = shared.read();
        let Finder::Index(first) = Finder::new(&shared, &net) else {
            panic!("a scan");
        };
        let Finder::Index(again) = Finder::new(&shared, &net) else {
            panic!("a scan");
        };
        assert!(Arc::ptr_eq(&first, &again));
        let got = Finder::new(&shared, &net).closest(&net, "pkg-4099");
        assert_eq!(got.first().map(String::as_str), Some("pkg-4099-dev"));
        // Memory: the keys once, plus 8 bytes an id.
        let bytes: usize = ids.iter().map(String::len).sum();
        assert_eq!(first.text.len(), bytes);
        assert_eq!(first.starts.len() + first.nodes.len(), 2 * ids.len() + 1);
    }

    /// The cost of a miss on a million package-like ids (run with
    /// `cargo test --release --lib -- --ignored a_miss_on_a_million_ids --nocapture`).
    #[test]
    #[ignore]
    fn a_miss_on_a_million_ids() {
        let base = packages();
        let mut ids = base.clone();
        let mut i = 0;
        while ids.len() < 1_000_000 {
            ids.push(format!("{}-{}", base[i % base.len()], i / base.len()));
            i += 1;
        }
        let net = network(&ids);
        let started = std::time::Instant::now();
        let index = IdIndex::build(&net).unwrap();
        let built = started.elapsed();
        let bytes: usize = ids.iter().map(String::len).sum();
        let index_bytes = index.text.len() + 4 * (index.starts.len() + index.nodes.len());
        let started = std::time::Instant::now();
        let mut worst = std::time::Duration::ZERO;
        for &(slip, _) in SLIPS {
            let one = std::time::Instant::now();
            let got = index.closest(&net, slip);
            worst = worst.max(one.elapsed());
            assert!(!got.is_empty(), "{slip}");
        }
        let per_miss = started.elapsed() / SLIPS.len() as u32;
        let started = std::time::Instant::now();
        let _ = closest("libsld2", ids.iter().map(String::as_str));
        let scan = started.elapsed();
        println!(
            "{} ids, {bytes} bytes; index {index_bytes} bytes, built in {built:?}; a miss {per_miss:?} on average, {worst:?} at worst; a scan {scan:?}",
            ids.len()
        );
    }
}
