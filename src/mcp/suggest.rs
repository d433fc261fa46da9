//! "Did you mean" suggestions for unknown node ids.
//!
//! They are added here, on the way out of a failed call, rather than in the core:
//! an LLM needs them to fix a call in one step, and the graph core stays free of
//! string-distance code.

use crate::error::Error;
use crate::registry::NetworkRegistry;

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
                .map(|shared| closest(&node_id, shared.read().node_ids()))
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
                    node_ids
                        .iter()
                        .take(crate::error::MAX_LISTED)
                        .map(|id| closest(id, net.node_ids()))
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

/// Up to [`MAX_SUGGESTIONS`] of `candidates` closest to `wanted`, best first.
///
/// Both sides are compared after Unicode NFC normalisation and lowercasing, so `é`
/// written as `e` + U+0301 finds `é`, and `Build` finds `build`. Ids themselves are
/// compared exactly everywhere else: normalisation is only for suggestions.
///
/// Distance: restricted Damerau–Levenshtein (optimal string alignment, from
/// `strsim`), so a swapped pair of letters (`pyhton`) costs one edit. A candidate
/// is suggested when its distance is at most half the longer key's length, and
/// never when it is less than two thirds as long as what was asked (neither `ht`
/// for `pyhton3` nor `emd` for `sytemd`). Ranking: distance, then the difference in length,
/// then candidate order.
///
/// Cost: one pass over the candidates; candidates whose length alone rules them
/// out are skipped before any distance is computed, and ASCII keys need no
/// normalisation. It only runs on the error path.
pub fn closest<'a>(wanted: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut wanted_key = String::new();
    comparison_key(wanted, &mut wanted_key);
    let wanted_len = wanted_key.chars().count();
    let mut key = String::new();
    let mut scored: Vec<(usize, usize, usize, &str)> = Vec::new();
    for (order, candidate) in candidates.enumerate() {
        // A cheap bound first: the byte length of an id bounds its length in chars.
        if candidate.len() * 3 < wanted_len * 2 {
            continue;
        }
        comparison_key(candidate, &mut key);
        let len = key.chars().count();
        let (shorter, longer) = (len.min(wanted_len), len.max(wanted_len));
        if len * 3 < wanted_len * 2 || (longer - shorter) * 2 > longer {
            continue;
        }
        let distance = strsim::osa_distance(&wanted_key, &key);
        if distance * 2 > longer {
            continue;
        }
        scored.push((distance, longer - shorter, order, candidate));
        if scored.len() > 4 * MAX_SUGGESTIONS {
            scored.sort_unstable();
            scored.truncate(MAX_SUGGESTIONS);
        }
    }
    scored.sort_unstable();
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(.., s)| s.to_string())
        .collect()
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
}
