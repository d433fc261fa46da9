//! How an aggregation finds the group of a row.
//!
//! Most aggregations group by the encoded bytes of their key values, and keep
//! each group's first row to project it. When every grouping key is one node
//! variable or that node's `id`, and every other item is a plain aggregate
//! (`RETURN p.id, count(q)`), the node's index is the key instead: ids are
//! unique, so the same node means the same key, and finding a group then reads
//! no property, makes no string and encodes no bytes; and since the items read
//! nothing but that node, a group keeps only its node, not a row. The first
//! row whose key slot holds anything but a node (a null from OPTIONAL MATCH,
//! say) moves every group to the byte index, for good.

use hashbrown::HashMap;

use super::plan::{Expr, Projection};

pub(super) enum GroupIndex {
    /// Every grouping key is the node in `slot`, or its id: each group's node
    /// (by group), and the group of each node.
    Node {
        slot: usize,
        nodes: Vec<u32>,
        index: HashMap<u32, usize>,
    },
    /// By [`super::value::Val::key`] of the key values, in item order.
    Bytes(HashMap<Box<[u8]>, usize>),
}

impl GroupIndex {
    /// The index for `p`'s groups: by node when its keys allow it.
    pub(super) fn for_projection(p: &Projection) -> Self {
        match node_key_slot(p) {
            Some(slot) => GroupIndex::Node {
                slot,
                nodes: Vec::new(),
                index: HashMap::new(),
            },
            None => GroupIndex::Bytes(HashMap::new()),
        }
    }
}

/// The slot whose node every grouping key is (`n`) or names (`n.id`), if
/// there is one such slot and at least one key, and every other item is a
/// plain aggregate.
fn node_key_slot(p: &Projection) -> Option<usize> {
    let mut found = None;
    for (item, aggregated) in p.items.iter().zip(&p.aggregated) {
        if *aggregated {
            if !matches!(item, Expr::Agg(_)) {
                return None;
            }
            continue;
        }
        let slot = match item {
            Expr::Var(slot) => *slot,
            Expr::Prop(base, key) if key == "id" => match **base {
                Expr::Var(slot) => slot,
                _ => return None,
            },
            _ => return None,
        };
        if found.is_some_and(|s| s != slot) {
            return None;
        }
        found = Some(slot);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn projection(items: Vec<Expr>, aggregated: Vec<bool>) -> Projection {
        Projection {
            items,
            aggregates: Vec::new(),
            aggregated,
            distinct: false,
            order: Vec::new(),
            extended: false,
            skip: None,
            limit: None,
            predicate: None,
        }
    }

    fn prop(slot: usize, key: &str) -> Expr {
        Expr::Prop(Box::new(Expr::Var(slot)), key.to_string())
    }

    #[test]
    fn groups_by_node_only_when_every_key_is_one_node_or_its_id() {
        let count = Expr::Agg(0);
        let by_node = |items, aggregated| {
            matches!(
                GroupIndex::for_projection(&projection(items, aggregated)),
                GroupIndex::Node { .. }
            )
        };
        assert!(by_node(
            vec![prop(0, "id"), count.clone()],
            vec![false, true]
        ));
        assert!(by_node(
            vec![Expr::Var(2), prop(2, "id"), count.clone()],
            vec![false, false, true]
        ));
        // Another property is not unique; two nodes, or no key at all, are not one node.
        assert!(!by_node(
            vec![prop(0, "name"), count.clone()],
            vec![false, true]
        ));
        assert!(!by_node(
            vec![prop(0, "id"), prop(1, "id"), count.clone()],
            vec![false, false, true]
        ));
        assert!(!by_node(vec![count.clone()], vec![true]));
        // An item around an aggregate may read the group's row.
        let around = Expr::Chain(
            Box::new(count),
            vec![(super::super::plan::BinOp::Add, prop(1, "k"))],
        );
        assert!(!by_node(vec![prop(0, "id"), around], vec![false, true]));
    }
}
