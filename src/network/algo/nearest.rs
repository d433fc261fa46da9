//! The entry of the Dijkstra queues that break ties on purpose: a max-heap
//! (`dary_heap`, `BinaryHeap`) pops the smallest distance first, and among
//! equal distances the smallest `tie`. What breaks ties is the algorithm's
//! choice: the node's index (k shortest paths), or the order pushed
//! (centrality, NetworkX's counter). `item` rides along and is not compared.
//! Plain shortest paths and distances, which need no tie rule, queue in a radix
//! heap instead (`paths.rs`).

use std::cmp::Ordering;

/// A queue entry: `dist` ascending, then `tie` ascending; `item` is carried.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Nearest<T, I> {
    /// The tentative distance (never NaN: weights are finite).
    pub dist: f64,
    /// What orders entries of equal distance.
    pub tie: T,
    /// What the entry is about (a node, a node and its predecessor...).
    pub item: I,
}

impl<T: Ord, I> PartialEq for Nearest<T, I> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<T: Ord, I> Eq for Nearest<T, I> {}

impl<T: Ord, I> PartialOrd for Nearest<T, I> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Ord, I> Ord for Nearest<T, I> {
    /// Reversed, so that a max-heap yields the nearest first.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .dist
            .total_cmp(&self.dist)
            .then_with(|| other.tie.cmp(&self.tie))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dary_heap::QuaternaryHeap;

    #[test]
    fn pops_the_nearest_then_the_smallest_tie() {
        let mut heap = QuaternaryHeap::new();
        for (dist, tie) in [(2.0, 0), (1.0, 5), (1.0, 3), (0.5, 9)] {
            heap.push(Nearest {
                dist,
                tie,
                item: (),
            });
        }
        let order: Vec<(f64, i32)> = std::iter::from_fn(|| heap.pop())
            .map(|e| (e.dist, e.tie))
            .collect();
        assert_eq!(order, [(0.5, 9), (1.0, 3), (1.0, 5), (2.0, 0)]);
    }
}
