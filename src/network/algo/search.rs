//! Search: find nodes whose id or attribute values contain a query, exactly
//! (substring) or approximately (fuzzy, ranked by edit distance).
//!
//! Definition:
//! * **Normalisation.** The query and every text searched are compared after
//!   Unicode NFKC normalisation followed by lowercasing each character
//!   ([`char::to_lowercase`], Unicode's default lowercase mapping). So "Café"
//!   written with a combining accent finds "café", "ＡＰＩ" (fullwidth) finds
//!   "api" and "ﬁle" (ligature) finds "file". Lowercasing is not full case
//!   folding: "ß" does not match "ss", and a final sigma "ς" is not "σ".
//!   See [`normalize`].
//! * **Fields.** [`SearchFields::All`] searches the id and every attribute
//!   whose value is a string; [`SearchFields::These`] searches the id and the
//!   named attributes, where a number or boolean is searched as its JSON text
//!   (`3`, `2.5`, `true`). Null values are never searched.
//! * **Substring** ([`SearchMode::Substring`]): a field matches when its
//!   normalised text contains the normalised query; every hit has distance 0.
//! * **Fuzzy** ([`SearchMode::Fuzzy`]): a field's distance is the smallest
//!   restricted Damerau–Levenshtein distance (optimal string alignment:
//!   insertions, deletions and substitutions of characters and swaps of two
//!   adjacent characters, each costing 1, no substring edited twice) between
//!   the query and any substring of the field's text — approximate substring matching as defined by Sellers, "The
//!   theory and computation of evolutionary distances: pattern recognition",
//!   J. Algorithms 1 (1980). A field matches when that distance is at most
//!   `max_distance` (default: a third of the normalised query's length in
//!   characters, rounded down). A text that contains the query has distance 0;
//!   no text is further than the query's length.
//!
//! Each node appears at most once, with its best field: the lowest distance,
//! then the id before any attribute, then attributes in order (the node's own
//! attribute order for [`SearchFields::All`], the list's order for
//! [`SearchFields::These`]).
//!
//! Ranking (tie-breaking): by distance; then, in fuzzy mode only, by how much
//! the matched field's normalised length differs from the query's (so
//! "logging" ranks above "logging-backend-service" for "loging"); then in
//! insertion order (`NodeIndex` order). Substring hits, all at distance 0, come
//! in insertion order.
//!
//! Complexity, for `V` nodes searched, `T` characters of their texts and `k`
//! matches (plus O(V) time and memory for the list of nodes searched):
//! * substring: O(T). An ASCII query of at most 64 characters runs the
//!   Shift-And automaton over each ASCII text's bytes, ignoring case, with no
//!   copy (Baeza-Yates and Gonnet, "A new approach to text searching", CACM
//!   35(10), 1992); other texts are normalised into one reused buffer and
//!   searched with the standard library's linear-time substring search;
//! * fuzzy with a query of at most 64 characters: O(T) — one machine word of
//!   bit-parallel work per text character (Myers, "A fast bit-vector algorithm
//!   for approximate string matching based on dynamic programming", J. ACM 46(3),
//!   1999, in the search form of its section 4, with Hyyrö's swap extension,
//!   Nordic J. Computing 10(1), 2003) — plus O(k log k) to rank;
//! * fuzzy with a query of 65 to 256 characters: O(m·T), the column-by-column
//!   dynamic programme of Sellers (1980); a text shorter than `m − max_distance`
//!   characters is skipped in O(1), as its distance exceeds the bound.
//!
//! Texts that are ASCII skip normalisation (NFKC leaves ASCII unchanged, and
//! ASCII lowercasing is a table lookup), and non-ASCII texts already in NFKC
//! (a quick check) are only lowercased; no allocation is made per node except
//! for a match's field name. Queries longer than [`MAX_QUERY_CHARS`] characters
//! (after normalisation) are refused.
//!
//! Determinism: the same network, query and options give the same matches in
//! the same order.

use std::borrow::Cow;
use std::fmt::Write as _;

use petgraph::stable_graph::{NodeIndex, StableDiGraph};
use serde_json::Value;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

use crate::error::{Error, Result};
use crate::network::graph::prefetch::prefetch_lines;
use crate::network::graph::{Edge, Network, Node, NodeFilter};

/// The longest query accepted, in characters after normalisation.
pub const MAX_QUERY_CHARS: usize = 256;

/// How many nodes ahead of the one searched an id's bytes are prefetched.
const PREFETCH_AHEAD: usize = 16;

/// A query up to this many characters fits one machine word of Myers' algorithm.
const WORD_BITS: usize = 64;

/// A raw query longer than this many bytes is refused before it is normalised
/// (normalisation can shrink a text, but not by this much in any real query).
const MAX_RAW_QUERY_BYTES: usize = 16 * MAX_QUERY_CHARS;

/// How a field must relate to the query to match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SearchMode {
    /// The normalised field contains the normalised query.
    #[default]
    Substring,
    /// Some substring of the normalised field is within `max_distance` edits of
    /// the normalised query.
    Fuzzy,
}

/// Which texts of a node are searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SearchFields<'a> {
    /// The id and every string attribute value.
    #[default]
    All,
    /// The id and these attributes (string values; numbers and booleans as
    /// their JSON text). An empty list searches the id alone.
    These(&'a [String]),
}

/// What [`Network::search`] looks for.
#[derive(Debug, Clone, Copy)]
pub struct SearchOptions<'a> {
    /// The text to find; must not be empty, at most [`MAX_QUERY_CHARS`]
    /// characters after normalisation.
    pub query: &'a str,
    /// Substring or fuzzy.
    pub mode: SearchMode,
    /// The texts searched.
    pub fields: SearchFields<'a>,
    /// Fuzzy only: the most edits a match may need. Default: the normalised
    /// query's length in characters divided by 3, rounded down.
    pub max_distance: Option<usize>,
    /// Only nodes that pass this filter are searched.
    pub filter: Option<&'a NodeFilter>,
}

impl<'a> SearchOptions<'a> {
    /// A substring search of the id and every string attribute for `query`.
    pub fn new(query: &'a str) -> Self {
        SearchOptions {
            query,
            mode: SearchMode::Substring,
            fields: SearchFields::All,
            max_distance: None,
            filter: None,
        }
    }
}

/// One node found by [`Network::search`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// The node.
    pub node: NodeIndex,
    /// The field that matched best: `None` for the id, `Some(name)` for that
    /// attribute.
    pub field: Option<String>,
    /// The edit distance of the best field (0 for substring hits).
    pub distance: usize,
}

impl Match {
    /// The text of the matched field as stored (before normalisation): the id,
    /// a string attribute, or a number's or boolean's JSON text. `None` if the
    /// node or attribute no longer exists.
    ///
    /// ```
    /// use networks_mcp::network::{Network, NodeSpec};
    /// use networks_mcp::network::search::SearchOptions;
    ///
    /// let mut net = Network::new();
    /// net.add_node_with(NodeSpec::new("t1").with_attribute("title", "Write the Docs"))?;
    /// let found = net.search(&SearchOptions::new("docs"))?;
    /// assert_eq!(found[0].text(&net).as_deref(), Some("Write the Docs"));
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn text<'n>(&self, net: &'n Network) -> Option<Cow<'n, str>> {
        let node = net.graph().node_weight(self.node)?;
        match &self.field {
            None => Some(Cow::Borrowed(&node.id)),
            Some(name) => match node.attributes.get(name)? {
                Value::String(s) => Some(Cow::Borrowed(s)),
                Value::Number(n) => Some(Cow::Owned(n.to_string())),
                Value::Bool(b) => Some(Cow::Borrowed(if *b { "true" } else { "false" })),
                _ => None,
            },
        }
    }
}

/// `text` as search compares it: Unicode NFKC, then each character lowercased
/// with [`char::to_lowercase`]. ASCII text is only lowercased (NFKC leaves it
/// unchanged).
///
/// ```
/// use networks_mcp::network::search::normalize;
///
/// assert_eq!(normalize("Cafe\u{301}"), "caf\u{e9}");
/// assert_eq!(normalize("ＡＰＩ ﬁle"), "api file");
/// ```
pub fn normalize(text: &str) -> String {
    let mut out = String::new();
    normalize_into(text, &mut out);
    out
}

/// [`normalize`] into a reused buffer.
fn normalize_into(text: &str, out: &mut String) {
    out.clear();
    if text.is_ascii() {
        out.push_str(text);
        out.make_ascii_lowercase();
    } else if is_nfkc_quick(text.chars()) == IsNormalized::Yes {
        // Most non-ASCII text is already in NFKC (the quick check is a table
        // lookup per character, far cheaper than decomposing and recomposing).
        out.extend(text.chars().flat_map(char::to_lowercase));
    } else {
        out.extend(text.nfkc().flat_map(char::to_lowercase));
    }
}

/// The smallest edit distance between the normalised `query` and any substring
/// of the normalised `text` (the fuzzy distance of [`Network::search`]; the
/// empty substring counts, so it is at most the query's length).
///
/// # Errors
/// [`Error::InvalidValue`] (field `query`) for an empty query or one longer
/// than [`MAX_QUERY_CHARS`] characters.
///
/// ```
/// use networks_mcp::network::search::fuzzy_distance;
///
/// assert_eq!(fuzzy_distance("loging", "service-logging-7")?, 1);
/// assert_eq!(fuzzy_distance("LOG", "catalog")?, 0);
/// assert_eq!(fuzzy_distance("abc", "")?, 3);
/// # Ok::<(), networks_mcp::Error>(())
/// ```
pub fn fuzzy_distance(query: &str, text: &str) -> Result<usize> {
    let matcher = Matcher::new(query, SearchMode::Fuzzy, Some(usize::MAX))?;
    let mut scratch = Scratch::default();
    Ok(matcher
        .fuzzy(text, matcher.max, &mut scratch)
        .map_or(matcher.chars.len(), |(d, _)| d))
}

/// The pattern masks of Myers' algorithm: bit `i` of a character's mask is set
/// when the query's `i`-th character is that character.
struct Peq {
    /// Indexed by an ASCII byte of an unnormalised text: the mask of its
    /// lowercase form, so that ASCII text is matched without a lowercase copy.
    folded: [u64; 256],
    /// The query's non-ASCII characters and their masks, sorted by character.
    other: Vec<(char, u64)>,
}

impl Peq {
    fn new(query: &[char]) -> Peq {
        let mut peq = Peq {
            folded: [0; 256],
            other: Vec::new(),
        };
        for (i, &c) in query.iter().enumerate() {
            let bit = 1u64 << i;
            if c.is_ascii() {
                // The query is normalised (lowercase), so only lowercase bytes
                // of it exist; an uppercase text byte shares their mask.
                peq.folded[c as usize] |= bit;
                peq.folded[c.to_ascii_uppercase() as usize] |= bit;
            } else {
                match peq.other.binary_search_by_key(&c, |&(k, _)| k) {
                    Ok(at) => peq.other[at].1 |= bit,
                    Err(at) => peq.other.insert(at, (c, bit)),
                }
            }
        }
        peq
    }

    /// The mask of a character of a normalised text.
    fn of(&self, c: char) -> u64 {
        if c.is_ascii() {
            self.folded[c as usize]
        } else {
            self.other
                .binary_search_by_key(&c, |&(k, _)| k)
                .map_or(0, |at| self.other[at].1)
        }
    }
}

/// Case-insensitive exact matching of an ASCII query of at most 64 bytes in an
/// ASCII text: the Shift-And automaton (Baeza-Yates and Gonnet, "A new approach
/// to text searching", CACM 35(10), 1992), one word operation per byte and no
/// copy of the text, where a general substring search would first build its
/// tables for every text.
struct Exact {
    /// Bit `i` set for the bytes equal to the query's `i`-th byte in either case.
    masks: [u64; 256],
    /// The bit of the query's last byte: set in the state when a match ends.
    last: u64,
}

impl Exact {
    fn new(query: &[u8]) -> Exact {
        debug_assert!((1..=WORD_BITS).contains(&query.len()));
        let mut masks = [0u64; 256];
        for (i, &b) in query.iter().enumerate() {
            masks[b.to_ascii_lowercase() as usize] |= 1 << i;
            masks[b.to_ascii_uppercase() as usize] |= 1 << i;
        }
        Exact {
            masks,
            last: 1 << (query.len() - 1),
        }
    }

    /// Whether `text` contains the query, ignoring ASCII case.
    fn find(&self, text: &[u8]) -> bool {
        // Bit i of the state: the last i + 1 bytes read equal the query's first i + 1.
        let mut state = 0u64;
        for &b in text {
            state = ((state << 1) | 1) & self.masks[b as usize];
            if state & self.last != 0 {
                return true;
            }
        }
        false
    }
}

/// Buffers reused across every node of one search.
#[derive(Default)]
struct Scratch {
    /// A normalised text (substring mode: also a lowercased ASCII text).
    text: String,
    /// A number's JSON text.
    number: String,
    /// The last three columns of the dynamic programme, for long queries.
    columns: [Vec<usize>; 3],
}

/// The normalised query and what matching it needs.
struct Matcher {
    /// The normalised query.
    query: String,
    /// Its characters.
    chars: Vec<char>,
    mode: SearchMode,
    /// Fuzzy: the largest distance that matches (at most the query's length).
    max: usize,
    /// Fuzzy with a query of at most [`WORD_BITS`] characters.
    peq: Option<Peq>,
    /// Substring with an ASCII query of at most [`WORD_BITS`] characters.
    exact: Option<Exact>,
}

impl Matcher {
    fn new(query: &str, mode: SearchMode, max_distance: Option<usize>) -> Result<Matcher> {
        if query.is_empty() {
            return Err(Error::InvalidValue {
                field: "query".into(),
                reason: "the query is empty; give the part of the id or attribute value to look for (at least one character)".into(),
            });
        }
        let too_long = |len: usize| Error::InvalidValue {
            field: "query".into(),
            reason: format!(
                "the query is {len} characters long; at most {MAX_QUERY_CHARS} are searched, so search for a distinctive part of it"
            ),
        };
        if query.len() > MAX_RAW_QUERY_BYTES {
            return Err(too_long(query.chars().count()));
        }
        let query = normalize(query);
        let chars: Vec<char> = query.chars().collect();
        if chars.is_empty() {
            // NFKC never empties a non-empty text; kept as a guard for Myers' m ≥ 1.
            return Err(Error::InvalidValue {
                field: "query".into(),
                reason: "the query is empty after Unicode normalisation; give at least one visible character".into(),
            });
        }
        if chars.len() > MAX_QUERY_CHARS {
            return Err(too_long(chars.len()));
        }
        let m = chars.len();
        let max = max_distance.unwrap_or(m / 3).min(m);
        let peq = (mode == SearchMode::Fuzzy && m <= WORD_BITS).then(|| Peq::new(&chars));
        let exact = (mode == SearchMode::Substring && m <= WORD_BITS && query.is_ascii())
            .then(|| Exact::new(query.as_bytes()));
        Ok(Matcher {
            query,
            chars,
            mode,
            max,
            peq,
            exact,
        })
    }

    /// Substring mode: whether the normalised `text` contains the query.
    fn contains(&self, text: &str, scratch: &mut Scratch) -> bool {
        crate::budget::charge(1 + text.len() as u64 / 64);
        if text.is_ascii() {
            // ASCII normalises to ASCII, which cannot contain a non-ASCII query.
            if text.len() < self.query.len() || !self.query.is_ascii() {
                return false;
            }
            if let Some(exact) = &self.exact {
                return exact.find(text.as_bytes());
            }
            scratch.text.clear();
            scratch.text.push_str(text);
            scratch.text.make_ascii_lowercase();
        } else {
            normalize_into(text, &mut scratch.text);
        }
        scratch.text.contains(self.query.as_str())
    }

    /// Fuzzy mode: the distance of `text` and its normalised length in
    /// characters, if the distance is at most `bound`.
    fn fuzzy(&self, text: &str, bound: usize, scratch: &mut Scratch) -> Option<(usize, usize)> {
        let m = self.chars.len();
        // Myers' algorithm costs a word operation per character and 64 query
        // characters; the dynamic programme for longer queries one per pair.
        let per_char = if m <= WORD_BITS { 1 } else { m as u64 };
        crate::budget::charge(1 + text.len() as u64 * per_char / 8);
        let (distance, n) = if text.is_ascii() {
            let n = text.len();
            // Every query character beyond the text's length costs an edit.
            if n.saturating_add(bound) < m {
                return None;
            }
            let d = match &self.peq {
                Some(peq) => myers(m, text.bytes().map(|b| peq.folded[b as usize])),
                None => sellers(
                    &self.chars,
                    text.bytes().map(|b| b.to_ascii_lowercase() as char),
                    &mut scratch.columns,
                ),
            };
            (d, n)
        } else {
            normalize_into(text, &mut scratch.text);
            let n = scratch.text.chars().count();
            if n.saturating_add(bound) < m {
                return None;
            }
            let d = match &self.peq {
                Some(peq) => myers(m, scratch.text.chars().map(|c| peq.of(c))),
                None => sellers(&self.chars, scratch.text.chars(), &mut scratch.columns),
            };
            (d, n)
        };
        (distance <= bound).then_some((distance, n))
    }

    /// The best field of `node` as (field, distance, tie), if any matches.
    fn best<'a>(
        &self,
        node: &'a Node,
        fields: SearchFields<'a>,
        scratch: &mut Scratch,
    ) -> Option<(Option<&'a str>, usize, usize)> {
        let m = self.chars.len();
        let mut best: Option<(Option<&'a str>, usize, usize)> = None;
        // Returns true when nothing can beat the best found so far.
        let mut consider = |field: Option<&'a str>, text: &str, scratch: &mut Scratch| -> bool {
            match self.mode {
                SearchMode::Substring => {
                    if self.contains(text, scratch) {
                        best = Some((field, 0, 0));
                        return true;
                    }
                    false
                }
                SearchMode::Fuzzy => {
                    // A later field must be strictly closer to win.
                    let bound = match best {
                        Some((_, d, _)) => d - 1,
                        None => self.max,
                    };
                    if let Some((d, n)) = self.fuzzy(text, bound, scratch) {
                        best = Some((field, d, n.abs_diff(m)));
                        return d == 0;
                    }
                    false
                }
            }
        };
        if consider(None, &node.id, scratch) {
            return best;
        }
        match fields {
            SearchFields::All => {
                for (name, value) in node.attributes.iter() {
                    if let Value::String(s) = value
                        && consider(Some(name), s, scratch)
                    {
                        break;
                    }
                }
            }
            SearchFields::These(names) => {
                for name in names {
                    let key = name.as_str();
                    let Some(value) = node.attributes.get(key) else {
                        continue;
                    };
                    let done = match value {
                        Value::String(s) => consider(Some(key), s, scratch),
                        Value::Number(n) => {
                            let mut number = std::mem::take(&mut scratch.number);
                            number.clear();
                            // Writing to a String cannot fail.
                            let _ = write!(number, "{n}");
                            let done = consider(Some(key), &number, scratch);
                            scratch.number = number;
                            done
                        }
                        Value::Bool(b) => {
                            consider(Some(key), if *b { "true" } else { "false" }, scratch)
                        }
                        _ => false,
                    };
                    if done {
                        break;
                    }
                }
            }
        }
        best
    }

    fn search(
        &self,
        net: &Network,
        nodes: impl Iterator<Item = NodeIndex>,
        fields: SearchFields<'_>,
    ) -> Vec<Match> {
        let g = net.graph();
        let mut scratch = Scratch::default();
        let mut found: Vec<(Match, usize)> = Vec::new();
        // The nodes first, so that the loop knows which ids it reads next: ids
        // live apart from the node records, and one cache miss per id is most of
        // a scan's cost unless its loading starts a few nodes early.
        let order: Vec<NodeIndex> = nodes.collect();
        let attributes = !matches!(fields, SearchFields::These([]));
        for (i, &ix) in order.iter().enumerate() {
            if let Some(&ahead) = order.get(i + PREFETCH_AHEAD) {
                let node = &g[ahead];
                prefetch_lines(node.id.as_ptr());
                if attributes && let Some(block) = node.attributes.shared() {
                    prefetch_lines(std::sync::Arc::as_ptr(block).cast());
                }
            }
            // An attribute is three dependent loads away (the shared block,
            // its slots, the first name and value): each stage starts the next
            // load once the one before it has had time to arrive.
            if attributes {
                prefetch_first_attribute(g, &order, i);
            }
            if let Some((field, distance, tie)) = self.best(&g[ix], fields, &mut scratch) {
                let hit = Match {
                    node: ix,
                    field: field.map(str::to_string),
                    distance,
                };
                found.push((hit, tie));
            }
        }
        // Nodes arrive in index order; substring hits are all tied at (0, 0).
        if self.mode == SearchMode::Fuzzy {
            found.sort_unstable_by_key(|(hit, tie)| (hit.distance, *tie, hit.node.index()));
        }
        found.into_iter().map(|(hit, _)| hit).collect()
    }
}

/// The later stages of a node's attribute prefetch: the slots of the node
/// `PREFETCH_AHEAD / 2` ahead (its block was asked for earlier), and the first
/// name and value of the node `PREFETCH_AHEAD / 4` ahead.
#[inline(always)]
fn prefetch_first_attribute(g: &StableDiGraph<Node, Edge>, order: &[NodeIndex], i: usize) {
    if let Some(&ahead) = order.get(i + PREFETCH_AHEAD / 2)
        && let Some(block) = g[ahead].attributes.shared()
    {
        prefetch_lines(block.as_ptr().cast());
    }
    if let Some(&ahead) = order.get(i + PREFETCH_AHEAD / 4)
        && let Some((key, value)) = g[ahead].attributes.entries().first()
    {
        prefetch_lines(key.as_ptr());
        prefetch_lines(std::sync::Arc::as_ptr(value).cast());
    }
}

/// Myers' bit-parallel approximate substring distance (Myers 1999, in the
/// formulation of Hyyrö 2001) for a query of `m` (1..=64) characters, given
/// each text character's pattern mask: the minimum, over the text's end
/// positions, of the last row of Sellers' table, whose first row is all zeros
/// (a match may start anywhere). A swap of two adjacent characters counts one
/// edit (optimal string alignment): Hyyrö's extension of the algorithm to the
/// Damerau distance ("A bit-vector algorithm for computing Levenshtein and
/// Damerau edit distances", Nordic J. Computing 10(1), 2003), one more word
/// operation per character. O(text length), one word per character.
fn myers(m: usize, masks: impl Iterator<Item = u64>) -> usize {
    debug_assert!((1..=WORD_BITS).contains(&m));
    let last = 1u64 << (m - 1);
    // Vertical deltas of the current column: all +1 down the column 0..=m.
    let mut pv = !0u64;
    let mut mv = 0u64;
    // The previous column's diagonal zeros and the previous character's mask.
    let mut d0_before = !0u64;
    let mut eq_before = 0u64;
    let mut score = m;
    let mut best = m;
    for eq in masks {
        // Rows where the query's pair i-1, i is the text's pair, swapped, and the
        // diagonal before it grew: a transposition keeps the diagonal.
        let swap = ((!d0_before & eq) << 1) & eq_before;
        let d0 = ((eq & pv).wrapping_add(pv) ^ pv) | eq | mv | swap;
        let mut ph = mv | !(d0 | pv);
        let mut mh = pv & d0;
        // Without branches: the delta's sign is data-dependent, so a branch on
        // it would be mispredicted about as often as not. At most one is set.
        score = score + usize::from(ph & last != 0) - usize::from(mh & last != 0);
        // The first row is 0 everywhere, so no horizontal delta enters at the top.
        ph <<= 1;
        mh <<= 1;
        pv = mh | !(d0 | ph);
        mv = ph & d0;
        d0_before = d0;
        eq_before = eq;
        best = best.min(score);
        if best == 0 {
            break;
        }
    }
    best
}

/// Sellers' dynamic programme for the same distance as [`myers`] (a swap of
/// two adjacent characters included), one column per text character: O(m) per
/// character, for queries longer than a word. `columns` holds the columns of
/// the two characters before.
fn sellers(
    query: &[char],
    text: impl Iterator<Item = char>,
    columns: &mut [Vec<usize>; 3],
) -> usize {
    let m = query.len();
    for column in columns.iter_mut() {
        column.clear();
        column.extend(0..=m);
    }
    let mut best = m;
    let mut before = None;
    for c in text {
        let [two_back, one_back, column] = columns;
        std::mem::swap(two_back, one_back);
        std::mem::swap(one_back, column);
        // column[0] stays 0: a match may start at any position.
        column[0] = 0;
        for i in 1..=m {
            let substitute = one_back[i - 1] + usize::from(query[i - 1] != c);
            let mut d = substitute.min(one_back[i] + 1).min(column[i - 1] + 1);
            if i >= 2 && before == Some(query[i - 1]) && query[i - 2] == c {
                d = d.min(two_back[i - 2] + 1);
            }
            column[i] = d;
        }
        before = Some(c);
        best = best.min(column[m]);
        if best == 0 {
            break;
        }
    }
    best
}

impl Network {
    /// The nodes whose id or attribute values match `options.query`, each once
    /// with its best field, ranked (see the [module docs](self) for the
    /// normalisation, the fields, the fuzzy distance and the tie-breaking).
    ///
    /// O(T) for `T` characters of text searched (O(m·T) for fuzzy queries of 65
    /// to 256 characters), plus O(k log k) to rank `k` fuzzy matches.
    ///
    /// # Errors
    /// [`Error::InvalidValue`] (field `query`) for an empty query or one longer
    /// than [`MAX_QUERY_CHARS`] characters after normalisation.
    ///
    /// ```
    /// use networks_mcp::network::{Network, NodeFilter, NodeSpec};
    /// use networks_mcp::network::search::{SearchFields, SearchMode, SearchOptions};
    ///
    /// let mut net = Network::new();
    /// net.add_node_with(NodeSpec::new("auth-service").with_attribute("title", "Log in"))?;
    /// net.add_node_with(NodeSpec::new("billing").with_attribute("title", "Invoices and LOGS"))?;
    /// net.add_node_with(NodeSpec::new("logging").with_attribute("status", "done"))?;
    ///
    /// // Substring, case-insensitive: every hit at distance 0, in insertion order.
    /// let found = net.search(&SearchOptions::new("log"))?;
    /// let ids: Vec<_> = found.iter().map(|m| net.id_at(m.node)).collect();
    /// assert_eq!(ids, ["auth-service", "billing", "logging"]);
    /// assert_eq!(found[0].field.as_deref(), Some("title"));
    /// assert_eq!(found[2].field, None); // the id
    ///
    /// // Fuzzy: one edit away; the closest length ranks first.
    /// let fuzzy = SearchOptions { mode: SearchMode::Fuzzy, ..SearchOptions::new("loging") };
    /// let found = net.search(&fuzzy)?;
    /// assert_eq!(net.id_at(found[0].node), "logging");
    /// assert_eq!(found[0].distance, 1);
    ///
    /// // The id only, among the nodes that pass a filter.
    /// let mut done = NodeFilter::default();
    /// done.attributes.insert("status".into(), "done".into());
    /// let only = SearchOptions {
    ///     fields: SearchFields::These(&[]),
    ///     filter: Some(&done),
    ///     ..SearchOptions::new("LOG")
    /// };
    /// assert_eq!(net.ids(&net.search(&only)?.iter().map(|m| m.node).collect::<Vec<_>>()), ["logging"]);
    ///
    /// assert_eq!(net.search(&SearchOptions::new("")).unwrap_err().code(), "invalid_value");
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn search(&self, options: &SearchOptions<'_>) -> Result<Vec<Match>> {
        let matcher = Matcher::new(options.query, options.mode, options.max_distance)?;
        Ok(match options.filter {
            Some(filter) => matcher.search(self, self.matching_nodes(filter), options.fields),
            None => matcher.search(self, self.graph().node_indices(), options.fields),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NodeSpec;
    use serde_json::json;

    fn ids(net: &Network, found: &[Match]) -> Vec<String> {
        found
            .iter()
            .map(|m| net.id_at(m.node).to_string())
            .collect()
    }

    fn fuzzy(query: &str) -> SearchOptions<'_> {
        SearchOptions {
            mode: SearchMode::Fuzzy,
            ..SearchOptions::new(query)
        }
    }

    /// Sellers' table filled in full, the plainest statement of the distance
    /// (with the optimal-string-alignment swap of two adjacent characters).
    fn plain(query: &[char], text: &[char]) -> usize {
        let (m, n) = (query.len(), text.len());
        let mut d = vec![vec![0usize; n + 1]; m + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for i in 1..=m {
            for j in 1..=n {
                let cost = usize::from(query[i - 1] != text[j - 1]);
                d[i][j] = (d[i - 1][j - 1] + cost)
                    .min(d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1);
                if i >= 2 && j >= 2 && query[i - 1] == text[j - 2] && query[i - 2] == text[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        (0..=n).map(|j| d[m][j]).min().unwrap()
    }

    #[test]
    fn myers_and_sellers_agree_with_the_table() {
        let alphabet: Vec<char> = "abcé".chars().collect();
        let mut state = 7u64;
        let mut next = |k: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % k as u64) as usize
        };
        for _ in 0..3000 {
            let m = 1 + next(70);
            let n = next(90);
            let q: Vec<char> = (0..m).map(|_| alphabet[next(4)]).collect();
            let t: Vec<char> = (0..n).map(|_| alphabet[next(4)]).collect();
            let want = plain(&q, &t);
            let mut columns = Default::default();
            assert_eq!(
                sellers(&q, t.iter().copied(), &mut columns),
                want,
                "{q:?} {t:?}"
            );
            if m <= WORD_BITS {
                let peq = Peq::new(&q);
                assert_eq!(myers(m, t.iter().map(|&c| peq.of(c))), want, "{q:?} {t:?}");
            }
        }
    }

    #[test]
    fn a_full_word_query_is_exact_at_the_top_bit() {
        let q: String = "ab".repeat(32);
        assert_eq!(fuzzy_distance(&q, &q).unwrap(), 0);
        let mut t = q.clone();
        t.replace_range(63..64, "x");
        assert_eq!(fuzzy_distance(&q, &t).unwrap(), 1);
        assert_eq!(fuzzy_distance(&q, "").unwrap(), 64);
        // One character longer: the dynamic programme.
        let q65 = format!("{q}c");
        assert_eq!(fuzzy_distance(&q65, &q).unwrap(), 1);
    }

    #[test]
    fn normalisation_folds_case_width_ligatures_and_accents() {
        assert_eq!(normalize("ＡＢＣ"), "abc");
        assert_eq!(normalize("ﬁle"), "file");
        assert_eq!(normalize("CAF\u{c9}"), "caf\u{e9}");
        assert_eq!(normalize("cafe\u{301}"), "caf\u{e9}");
        assert_eq!(normalize("\u{212a}elvin"), "kelvin"); // KELVIN SIGN
        let mut net = Network::new();
        net.add_nodes(["Caf\u{e9}-Menu", "ﬁle-server", "plain"])
            .unwrap();
        let found = net.search(&SearchOptions::new("CAFE\u{301}")).unwrap();
        assert_eq!(ids(&net, &found), ["Caf\u{e9}-Menu"]);
        let found = net.search(&SearchOptions::new("FILE")).unwrap();
        assert_eq!(ids(&net, &found), ["ﬁle-server"]);
        // A non-ASCII query is only found in non-ASCII texts.
        assert_eq!(
            ids(&net, &net.search(&SearchOptions::new("É")).unwrap()),
            ["Caf\u{e9}-Menu"]
        );
    }

    #[test]
    fn each_node_once_with_its_best_field() {
        let mut net = Network::new();
        net.add_node_with(
            NodeSpec::new("alpha")
                .with_attribute("a", "xlogx")
                .with_attribute("b", "log"),
        )
        .unwrap();
        net.add_node_with(NodeSpec::new("log-1").with_attribute("a", "log"))
            .unwrap();
        let found = net.search(&SearchOptions::new("log")).unwrap();
        assert_eq!(ids(&net, &found), ["alpha", "log-1"]);
        assert_eq!(found[0].field.as_deref(), Some("a")); // attribute order
        assert_eq!(found[1].field, None); // the id first
        // Fuzzy: the strictly closest field wins; ties go to the earlier field.
        let found = net.search(&fuzzy("lxg")).unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].distance, 1);
        assert_eq!(net.id_at(found[0].node), "alpha");
        assert_eq!(found[0].field.as_deref(), Some("a"));
        assert_eq!(found[1].field, None);
    }

    #[test]
    fn fuzzy_ranks_by_distance_then_length_then_insertion() {
        let mut net = Network::new();
        net.add_nodes([
            "logging-backend-service",
            "logging",
            "login",
            "blogging",
            "lodging",
            "lxgxng",
            "unrelated",
        ])
        .unwrap();
        let found = net.search(&fuzzy("loging")).unwrap();
        let got: Vec<_> = found
            .iter()
            .map(|m| (net.id_at(m.node), m.distance))
            .collect();
        assert_eq!(
            got,
            [
                ("logging", 1),
                ("login", 1),
                ("lodging", 1),
                ("blogging", 1),
                ("logging-backend-service", 1),
                ("lxgxng", 2)
            ]
        );
        // A tighter bound drops the farther ones.
        let tight = SearchOptions {
            max_distance: Some(1),
            ..fuzzy("loging")
        };
        assert_eq!(net.search(&tight).unwrap().len(), 5);
        let exact = SearchOptions {
            max_distance: Some(0),
            ..fuzzy("loging")
        };
        assert!(net.search(&exact).unwrap().is_empty());
    }

    #[test]
    fn default_bound_is_a_third_of_the_query() {
        let mut net = Network::new();
        net.add_nodes(["abcdef", "abxxef"]).unwrap();
        // 6 characters: up to 2 edits.
        assert_eq!(net.search(&fuzzy("abcdef")).unwrap().len(), 2);
        // 5 characters: 1 edit ("abxxef" is 1 away, "abcdef" 2).
        assert_eq!(ids(&net, &net.search(&fuzzy("abxef")).unwrap()), ["abxxef"]);
        // 2 characters: exact only.
        assert_eq!(net.search(&fuzzy("ax")).unwrap().len(), 0);
        assert_eq!(net.search(&fuzzy("AX")).unwrap().len(), 0);
        assert_eq!(net.search(&fuzzy("xE")).unwrap().len(), 1);
    }

    #[test]
    fn named_fields_search_numbers_and_booleans_as_json_text() {
        let mut net = Network::new();
        net.add_node_with(
            NodeSpec::new("a")
                .with_attribute("port", 8080)
                .with_attribute("ratio", 2.5)
                .with_attribute("on", true)
                .with_attribute("note", json!(null))
                .with_attribute("owner", "Ops"),
        )
        .unwrap();
        let names = [
            "port".to_string(),
            "ratio".into(),
            "on".into(),
            "note".into(),
        ];
        let these = |q| SearchOptions {
            fields: SearchFields::These(&names),
            ..SearchOptions::new(q)
        };
        let found = net.search(&these("808")).unwrap();
        assert_eq!(found[0].field.as_deref(), Some("port"));
        assert_eq!(found[0].text(&net).as_deref(), Some("8080"));
        assert_eq!(
            net.search(&these("2.5")).unwrap()[0].field.as_deref(),
            Some("ratio")
        );
        assert_eq!(
            net.search(&these("TRUE")).unwrap()[0].field.as_deref(),
            Some("on")
        );
        assert!(net.search(&these("null")).unwrap().is_empty());
        // Not listed: not searched; All skips non-strings.
        assert!(net.search(&these("ops")).unwrap().is_empty());
        assert_eq!(net.search(&SearchOptions::new("ops")).unwrap().len(), 1);
        assert!(net.search(&SearchOptions::new("8080")).unwrap().is_empty());
    }

    #[test]
    fn the_filter_limits_the_nodes_searched() {
        let mut net = Network::new();
        for (id, status) in [("task-a", "todo"), ("task-b", "done"), ("task-c", "todo")] {
            net.add_node_with(NodeSpec::new(id).with_attribute("status", status))
                .unwrap();
        }
        let mut todo = NodeFilter::default();
        todo.attributes.insert("status".into(), "todo".into());
        let options = SearchOptions {
            filter: Some(&todo),
            ..SearchOptions::new("task")
        };
        assert_eq!(
            ids(&net, &net.search(&options).unwrap()),
            ["task-a", "task-c"]
        );
    }

    #[test]
    fn bad_queries_are_refused_with_a_fix() {
        let net = Network::new();
        for query in [
            String::new(),
            "x".repeat(MAX_QUERY_CHARS + 1),
            "y".repeat(100_000),
        ] {
            let err = net.search(&SearchOptions::new(&query)).unwrap_err();
            match err {
                Error::InvalidValue { field, reason } => {
                    assert_eq!(field, "query");
                    assert!(reason.contains("; "), "{reason}");
                }
                other => panic!("{other:?}"),
            }
        }
        // The limit counts normalised characters: 256 decomposed é are 256 characters.
        let q = "e\u{301}".repeat(MAX_QUERY_CHARS);
        assert!(net.search(&SearchOptions::new(&q)).is_ok());
    }

    #[test]
    fn substring_at_and_past_the_word_size() {
        let mut net = Network::new();
        let q64: String = "Ab".repeat(32);
        let q65 = format!("{q64}c");
        net.add_nodes([
            format!("x-{}C", q64.to_uppercase()),
            format!("y-{}", q64.to_lowercase()),
            "z".to_string(),
        ])
        .unwrap();
        assert_eq!(net.search(&SearchOptions::new(&q64)).unwrap().len(), 2);
        let found = net.search(&SearchOptions::new(&q65)).unwrap();
        assert_eq!(ids(&net, &found), [format!("x-{}C", q64.to_uppercase())]);
        // The shift automaton restarts after a near miss: "aab" in "aaab".
        let mut net = Network::new();
        net.add_nodes(["aaab", "abab", "xaAB"]).unwrap();
        assert_eq!(
            ids(&net, &net.search(&SearchOptions::new("aab")).unwrap()),
            ["aaab", "xaAB"]
        );
    }

    #[test]
    fn long_queries_use_the_dynamic_programme() {
        let mut net = Network::new();
        let long = "abcdefghij".repeat(10); // 100 characters
        let mut typo = long.clone();
        typo.replace_range(50..51, "X");
        net.add_nodes([format!("pre-{typo}-post"), "short".to_string()])
            .unwrap();
        let found = net.search(&fuzzy(&long)).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].distance, 1);
    }

    #[test]
    fn removed_nodes_are_not_found() {
        let mut net = Network::new();
        net.add_nodes(["keep-me", "drop-me"]).unwrap();
        net.remove_node("drop-me").unwrap();
        assert_eq!(
            ids(&net, &net.search(&SearchOptions::new("me")).unwrap()),
            ["keep-me"]
        );
    }
}
