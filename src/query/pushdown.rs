//! A MATCH's WHERE checked as early as its variables allow.
//!
//! The WHERE of a MATCH is part of the match: a row is kept only when it is true
//! once the whole pattern is bound. Checked only then, a pattern such as
//! `MATCH (q)-[:depends]->(p) WHERE q.section = 'utils'` walks every edge of
//! every `q` before throwing most of them away. So the WHERE is split into its
//! `AND`ed conjuncts, and while the pattern is being matched, each time more of
//! its variables are bound, the conjuncts whose variables are all bound are
//! evaluated, in their order, as the full predicate would evaluate them.
//!
//! A partial match is dropped only when that evaluation is `false`, which the
//! full predicate, evaluating left to right and skipping the rest after a
//! `false`, would give too: so the rows are the same rows in the same order.
//! An evaluation that fails stops the early checks for that branch (the full
//! predicate, checked as before once the pattern is bound, raises the error
//! then, and only if the match completes, as it always did). The full
//! predicate is still checked on every complete match, unless the early checks
//! of its branch evaluated every conjunct and found each true: the full
//! predicate, reading the same bindings, is then true too.

use std::borrow::Cow;

use super::plan::{BinOp, Expr};

/// The conjuncts of a MATCH's WHERE, each with the slots of this MATCH it reads.
pub(super) struct Conjuncts<'p> {
    items: Vec<Conjunct<'p>>,
}

struct Conjunct<'p> {
    expr: Cow<'p, Expr>,
    /// The slots bound by this MATCH that it reads; `None` when it cannot be
    /// checked early (it binds variables of its own).
    slots: Option<Vec<usize>>,
}

impl<'p> Conjuncts<'p> {
    /// The conjuncts of `predicate`, for a MATCH that binds `new_slots`. A
    /// predicate that is not an `AND` chain is one conjunct.
    pub(super) fn new(predicate: Option<&'p Expr>, new_slots: &[usize]) -> Self {
        let parts: Vec<Cow<'p, Expr>> = match predicate {
            None => Vec::new(),
            Some(whole @ Expr::Chain(first, rest)) => {
                // A chain is the left spine of its operators: the operands before
                // its first AND, which binds less tightly than they, make the
                // first conjunct; an OR or XOR after an AND binds less tightly
                // still, and then the whole is one.
                match rest.iter().position(|(op, _)| *op == BinOp::And) {
                    Some(j) if rest[j..].iter().all(|(op, _)| *op == BinOp::And) => {
                        let lead = if j == 0 {
                            Cow::Borrowed(&**first)
                        } else {
                            Cow::Owned(Expr::Chain(first.clone(), rest[..j].to_vec()))
                        };
                        std::iter::once(lead)
                            .chain(rest[j..].iter().map(|(_, e)| Cow::Borrowed(e)))
                            .collect()
                    }
                    _ => vec![Cow::Borrowed(whole)],
                }
            }
            Some(e) => vec![Cow::Borrowed(e)],
        };
        let items = parts
            .into_iter()
            .map(|expr| {
                let mut slots = Vec::new();
                let slots = reads(&expr, &mut slots).then(|| {
                    slots.retain(|s| new_slots.contains(s));
                    slots.sort_unstable();
                    slots.dedup();
                    slots
                });
                Conjunct { expr, slots }
            })
            .collect();
        Conjuncts { items }
    }

    pub(super) fn len(&self) -> usize {
        self.items.len()
    }

    pub(super) fn expr(&self, at: usize) -> &Expr {
        &self.items[at].expr
    }

    /// Whether conjunct `at` reads `slot` and no other slot this MATCH binds.
    pub(super) fn reads_only(&self, at: usize, slot: usize) -> bool {
        self.items[at]
            .slots
            .as_ref()
            .is_some_and(|slots| slots == &[slot])
    }

    /// Whether conjunct `at` reads `slot` (and can be checked early at all).
    pub(super) fn reads_slot(&self, at: usize, slot: usize) -> bool {
        self.items[at]
            .slots
            .as_ref()
            .is_some_and(|slots| slots.contains(&slot))
    }

    /// Whether conjunct `at` can be evaluated now: every slot it reads is set.
    pub(super) fn ready(&self, at: usize, bound: impl Fn(usize) -> bool) -> bool {
        self.items[at]
            .slots
            .as_ref()
            .is_some_and(|slots| slots.iter().all(|&s| bound(s)))
    }
}

/// Collects the slots `e` reads into `out`; false when `e` binds slots of its
/// own (a list comprehension or quantifier) or reads an aggregate.
pub(super) fn reads(e: &Expr, out: &mut Vec<usize>) -> bool {
    match e {
        Expr::Lit(_) => true,
        Expr::Var(slot) => {
            out.push(*slot);
            true
        }
        Expr::Prop(base, _) => reads(base, out),
        Expr::Index(a, b) => reads(a, out) && reads(b, out),
        Expr::Slice(a, from, to) => {
            reads(a, out)
                && from.as_deref().is_none_or(|e| reads(e, out))
                && to.as_deref().is_none_or(|e| reads(e, out))
        }
        Expr::List(items) | Expr::Func(_, items) => items.iter().all(|e| reads(e, out)),
        Expr::Map(entries) => entries.iter().all(|(_, e)| reads(e, out)),
        Expr::Not(inner)
        | Expr::Neg(inner)
        | Expr::IsNull(inner, _)
        | Expr::HasLabels(inner, _) => reads(inner, out),
        Expr::Chain(first, rest) => reads(first, out) && rest.iter().all(|(_, e)| reads(e, out)),
        Expr::Case {
            operand,
            alternatives,
            otherwise,
        } => {
            operand.as_deref().is_none_or(|e| reads(e, out))
                && alternatives
                    .iter()
                    .all(|(a, b)| reads(a, out) && reads(b, out))
                && otherwise.as_deref().is_none_or(|e| reads(e, out))
        }
        Expr::Agg(_)
        | Expr::ListComp { .. }
        | Expr::Quantified { .. }
        | Expr::Subquery { .. }
        | Expr::Reduce { .. }
        | Expr::PatternComp { .. } => false,
    }
}
