//! Properties of node search on small random networks whose ids and attribute
//! values mix ASCII, uppercase, accents (composed and decomposed), a ligature and
//! fullwidth letters: the bit-parallel fuzzy distance equals Sellers' table; a
//! substring search finds exactly the nodes a brute-force scan of the normalised
//! texts finds, with the first matching field; a fuzzy search finds every node
//! within the bound, once, with its best field, ranked; the filter only narrows.

use networks_mcp::network::search::{
    Match, SearchFields, SearchMode, SearchOptions, fuzzy_distance, normalize,
};
use networks_mcp::network::{Network, NodeFilter, NodeSpec};
use proptest::prelude::*;
use serde_json::Value;
use unicode_normalization::UnicodeNormalization;

/// The pieces texts are made of; several normalise to the same thing.
const PIECES: &[&str] = &[
    "a", "b", "c", "A", "B", "-", "é", "e\u{301}", "É", "ß", "ﬁ", "fi", "Ａ", "ö", "Ω",
];

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..=max).prop_map(|p| p.concat())
}

fn query(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 1..=max).prop_map(|p| p.concat())
}

/// The normalisation stated independently: NFKC, then lowercase each character.
fn norm(s: &str) -> Vec<char> {
    s.nfkc().flat_map(char::to_lowercase).collect()
}

/// Sellers' table in full, with a swap of two adjacent characters as one edit
/// (the restricted edit distance): the least such distance of `q` to a substring
/// of `t`.
fn plain(q: &[char], t: &[char]) -> usize {
    // Columns j - 2 and j - 1 of the table; row 0 is 0 (a match may start anywhere).
    let mut before: Vec<usize> = (0..=q.len()).collect();
    let mut prev: Vec<usize> = (0..=q.len()).collect();
    let mut best = q.len();
    for (j, &c) in t.iter().enumerate() {
        let mut cur = vec![0; q.len() + 1];
        for i in 1..=q.len() {
            cur[i] = (prev[i - 1] + usize::from(q[i - 1] != c))
                .min(prev[i] + 1)
                .min(cur[i - 1] + 1);
            if i >= 2 && j >= 1 && q[i - 1] == t[j - 1] && q[i - 2] == c {
                cur[i] = cur[i].min(before[i - 2] + 1);
            }
        }
        best = best.min(cur[q.len()]);
        before = std::mem::replace(&mut prev, cur);
    }
    best
}

fn contains(hay: &[char], needle: &[char]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[derive(Debug, Clone)]
struct Spec {
    id: String,
    title: Option<String>,
    tag: Option<String>,
    group: u8,
}

fn network() -> impl Strategy<Value = Vec<Spec>> {
    prop::collection::vec(
        (
            text(6),
            prop::option::of(text(8)),
            prop::option::of(text(5)),
            0u8..2,
        ),
        0..12,
    )
    .prop_map(|rows| {
        rows.into_iter()
            .enumerate()
            // A numbered suffix keeps ids unique and never empty.
            .map(|(i, (id, title, tag, group))| Spec {
                id: format!("{id}{i}"),
                title,
                tag,
                group,
            })
            .collect()
    })
}

fn build(specs: &[Spec]) -> Network {
    let mut net = Network::new();
    for s in specs {
        let mut spec = NodeSpec::new(s.id.as_str()).with_attribute("group", s.group);
        if let Some(t) = &s.title {
            spec = spec.with_attribute("title", t.as_str());
        }
        if let Some(t) = &s.tag {
            spec = spec.with_attribute("tag", t.as_str());
        }
        net.add_node_with(spec).unwrap();
    }
    net
}

/// The searchable texts of a node under `SearchFields::All`, in order: the id,
/// then the string attributes in insertion order ("group" is a number).
fn fields(s: &Spec) -> Vec<(Option<&'static str>, &str)> {
    let mut out = vec![(None, s.id.as_str())];
    if let Some(t) = &s.title {
        out.push((Some("title"), t.as_str()));
    }
    if let Some(t) = &s.tag {
        out.push((Some("tag"), t.as_str()));
    }
    out
}

fn summary(net: &Network, found: &[Match]) -> Vec<(String, Option<String>, usize)> {
    found
        .iter()
        .map(|m| (net.id_at(m.node).to_string(), m.field.clone(), m.distance))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The bit-parallel distance (queries up to 64 characters) and the dynamic
    /// programme (longer ones) equal the full table on normalised text, swaps
    /// of two adjacent characters counting one edit.
    #[test]
    fn fuzzy_distance_is_sellers(q in query(40), t in text(60), long in any::<bool>()) {
        // Doubling crosses the 64-character word for many queries.
        let q = if long { q.repeat(3) } else { q };
        let (nq, nt) = (norm(&q), norm(&t));
        prop_assume!(nq.len() <= 256);
        prop_assert_eq!(fuzzy_distance(&q, &t).unwrap(), plain(&nq, &nt));
        prop_assert_eq!(normalize(&t).chars().collect::<Vec<_>>(), nt);
    }

    /// Substring mode returns exactly the nodes whose normalised id or string
    /// attribute contains the normalised query, in insertion order, each once,
    /// with the first such field (the id first).
    #[test]
    fn substring_is_the_brute_force_scan(specs in network(), q in query(3)) {
        let net = build(&specs);
        let found = net.search(&SearchOptions::new(&q)).unwrap();
        let nq = norm(&q);
        let want: Vec<(String, Option<String>, usize)> = specs
            .iter()
            .filter_map(|s| {
                fields(s)
                    .into_iter()
                    .find(|(_, text)| contains(&norm(text), &nq))
                    .map(|(field, _)| (s.id.clone(), field.map(str::to_string), 0))
            })
            .collect();
        prop_assert_eq!(summary(&net, &found), want);
    }

    /// Fuzzy mode finds every node with a field within the bound, once, with its
    /// best field (lowest distance, then the earliest), ranked by distance, then
    /// length difference, then insertion order.
    #[test]
    fn fuzzy_is_complete_once_and_ranked(specs in network(), q in query(4), bound in prop::option::of(0usize..4)) {
        let net = build(&specs);
        let options = SearchOptions { mode: SearchMode::Fuzzy, max_distance: bound, ..SearchOptions::new(&q) };
        let found = net.search(&options).unwrap();
        let nq = norm(&q);
        let max = bound.unwrap_or(nq.len() / 3);
        let mut want: Vec<(usize, usize, usize, String, Option<String>)> = Vec::new();
        for (order, s) in specs.iter().enumerate() {
            let mut best: Option<(usize, usize, Option<&str>)> = None;
            for (field, text) in fields(s) {
                let nt = norm(text);
                let d = plain(&nq, &nt);
                if d <= max && best.is_none_or(|(b, ..)| d < b) {
                    best = Some((d, nt.len().abs_diff(nq.len()), field));
                }
            }
            if let Some((d, tie, field)) = best {
                want.push((d, tie, order, s.id.clone(), field.map(str::to_string)));
            }
        }
        want.sort();
        let want: Vec<_> = want.into_iter().map(|(d, _, _, id, f)| (id, f, d)).collect();
        prop_assert_eq!(summary(&net, &found), want);
    }

    /// A filter gives the unfiltered result restricted to the nodes that pass it,
    /// in the same order; naming fields searches only those (numbers as text).
    #[test]
    fn filter_and_fields_narrow(specs in network(), q in query(3), fuzzy in any::<bool>(), group in 0u8..2) {
        let net = build(&specs);
        let mode = if fuzzy { SearchMode::Fuzzy } else { SearchMode::Substring };
        let all = net.search(&SearchOptions { mode, ..SearchOptions::new(&q) }).unwrap();
        let mut filter = NodeFilter::default();
        filter.attributes.insert("group".into(), Value::from(group));
        let some = net.search(&SearchOptions { mode, filter: Some(&filter), ..SearchOptions::new(&q) }).unwrap();
        let expected: Vec<Match> = all
            .iter()
            .filter(|m| net.graph()[m.node].attributes.get("group") == Some(&Value::from(group)))
            .cloned()
            .collect();
        prop_assert_eq!(some, expected);

        // Only "group" (a number) besides the id: a digit query finds it.
        let names = ["group".to_string()];
        let digit = group.to_string();
        let by_group = net.search(&SearchOptions {
            fields: SearchFields::These(&names),
            ..SearchOptions::new(&digit)
        }).unwrap();
        for (m, s) in by_group.iter().map(|m| (m, &specs[m.node.index()])) {
            let in_id = contains(&norm(&s.id), &norm(&digit));
            prop_assert!(in_id || s.group == group);
            prop_assert_eq!(m.field.is_none(), in_id);
        }
        let count = specs.iter().filter(|s| s.group == group || s.id.contains(&digit)).count();
        prop_assert_eq!(by_group.len(), count);
    }
}
