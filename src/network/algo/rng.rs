//! The seeded generator behind every "same seed, same answer" algorithm (a
//! sample of betweenness sources, Louvain's visiting order).
//!
//! splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014): a fixed, published function of the seed, so a seed
//! gives the same answer in every build and version; statistical quality is far
//! beyond what a shuffle of nodes needs.

/// The next number of the sequence `state` is at.
pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
