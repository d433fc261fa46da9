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
/// Ranking: case-insensitive equality, then prefix/substring containment, then
/// Levenshtein distance (ties by candidate order). Candidates further than half the
/// longer string's length are not suggested. O(n · m²) for n candidates of length m;
/// it only runs on the error path.
pub fn closest<'a>(wanted: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<String> {
    let wanted_lower = wanted.to_lowercase();
    let mut scored: Vec<(usize, usize, &str)> = Vec::new();
    for (order, candidate) in candidates.enumerate() {
        let lower = candidate.to_lowercase();
        let score = if lower == wanted_lower {
            0
        } else if lower.contains(&wanted_lower) || wanted_lower.contains(&lower) {
            1
        } else {
            let distance = strsim::levenshtein(&wanted_lower, &lower);
            let longest = wanted_lower.chars().count().max(lower.chars().count());
            if distance * 2 > longest {
                continue;
            }
            2 + distance
        };
        scored.push((score, order, candidate));
        if scored.len() > 4 * MAX_SUGGESTIONS {
            scored.sort_unstable();
            scored.truncate(MAX_SUGGESTIONS);
        }
    }
    scored.sort_unstable();
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, _, s)| s.to_string())
        .collect()
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
    fn nothing_close_gives_nothing() {
        assert!(closest("zzzzzz", ["a", "b"].iter().copied()).is_empty());
    }
}
