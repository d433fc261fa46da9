//! Runs a [`Plan`] over one network: clause after clause, each turning the
//! rows so far into the next ones (every row a vector of slots).
//!
//! Pattern matching walks from the first node of each path (or from its last,
//! when only that end is known), one relationship at a time, in node and edge
//! insertion order, so answers are deterministic. A relationship is matched at
//! most once per MATCH (openCypher's relationship isomorphism), so a
//! variable-length step, which has no hop cap, ends; it is walked with an
//! explicit stack. Every node, edge and row touched is charged to the call
//! budget, and no clause may make more than [`MAX_ROWS`] rows.

use hashbrown::{HashMap, HashSet};
use std::cell::{Cell, OnceCell, RefCell};
use std::cmp::Ordering;
use std::rc::Rc;
use std::sync::Arc;

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::{EdgeIndex, NodeIndex};
use petgraph::visit::{EdgeIndexable, EdgeRef, NodeIndexable};

use super::group_index::GroupIndex;
use super::plan::{
    Agg, AggKind, BinOp, Dir, Expr, Func, MatchPlan, NodePat, PathPat, Plan, Projection,
    Quantifier, RelPat, Step, SubqueryKind,
};
use super::pushdown::Conjuncts;
use super::value::{self, PathVal, Shared, Val};
use super::{MAX_GROUPS, MAX_ROWS, QueryError, charge};
use crate::network::Network;
use crate::network::edge_columns::EdgeRows;
use crate::network::node_columns::{CodedColumn, NodeColumn};
use serde_json::Value;

type Row = Vec<Val>;
type Res<T> = Result<T, QueryError>;

/// Runs `plan` on `net`: the rows of its last RETURN.
pub(crate) fn run(net: &Network, plan: &Plan) -> Res<Vec<Row>> {
    let exec = Exec::new(net);
    let answer = exec.run(plan);
    exec.finish();
    answer
}

/// Runs `plan` on `net` and says what each clause did (PROFILE): the rows
/// it put out and its time, in the order the clauses ran.
pub(crate) fn profile(net: &Network, plan: &Plan) -> Res<Vec<Profiled>> {
    let exec = Exec::new(net);
    *exec.profile.borrow_mut() = Some(Vec::new());
    let answer = exec.run(plan);
    exec.finish();
    answer?;
    Ok(exec.profile.take().unwrap_or_default())
}

/// What PROFILE measured of one clause.
#[derive(Debug, Clone)]
pub(crate) struct Profiled {
    /// The UNION branch and the clause's position in it.
    pub part: usize,
    pub step: usize,
    /// Rows put out (for a MATCH whose rows are aggregated as they come, the
    /// matches), and the time the clause took, in seconds.
    pub rows: usize,
    pub seconds: f64,
}

/// How the walk of one path was chosen (see [`Exec::walk_from`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Walk {
    /// Its first node is anchored (an id or a bound variable).
    FirstAnchored,
    /// Only its last node is anchored.
    LastAnchored,
    /// A single node, or nothing tells the ends apart.
    AsWritten,
    /// The MATCH's row order is seen, so the path is walked as written.
    OrderSeen,
    /// Both ends estimated; `reversed` when the last was the smaller.
    Estimated {
        first: Estimate,
        last: Estimate,
        reversed: bool,
    },
}

/// The choices the planner makes for one path pattern, for EXPLAIN: how it
/// is walked, with the start's estimate.
pub(crate) fn explain_walk(
    net: &Network,
    m: &MatchPlan,
    part: &PathPat,
    width: usize,
) -> (Walk, Estimate) {
    let exec = Exec::new(net);
    let conjuncts = Conjuncts::new(m.predicate.as_ref(), &m.new_slots);
    let mut row = vec![Val::Null; width.max(m.width)];
    let (reversed, walk) = exec.walk_from(m, &conjuncts, part, &mut row);
    let start = reversed.as_ref().unwrap_or(part);
    let estimate = match walk {
        Walk::Estimated {
            first,
            last,
            reversed,
        } => {
            if reversed {
                last
            } else {
                first
            }
        }
        _ => exec.estimate(&conjuncts, &start.start, &mut row),
    };
    (walk, estimate)
}

impl<'a> Exec<'a> {
    fn new(net: &'a Network) -> Self {
        Exec {
            net,
            rows: OnceCell::new(),
            walked: Cell::new(0),
            kept: RefCell::new(Vec::new()),
            labels: RefCell::new(Vec::new()),
            columns: RefCell::new(Vec::new()),
            strings: RefCell::new(HashMap::new()),
            profile: RefCell::new(None),
        }
    }

    /// Leaves the edges walked on petgraph's lists to the network's count of
    /// what the rows would have saved (see [`Exec::edge_rows`]).
    fn finish(&self) {
        if self.rows.get().is_none() {
            self.net.walked_lists(self.walked.get());
        }
    }
}

impl Exec<'_> {
    fn run(&self, plan: &Plan) -> Res<Vec<Row>> {
        let exec = self;
        let mut all = Vec::new();
        for (part_no, part) in plan.parts.iter().enumerate() {
            let mut rows = vec![Vec::new()];
            let mut steps = part.iter().enumerate().peekable();
            while let Some((step_no, step)) = steps.next() {
                let started = std::time::Instant::now();
                rows = match step {
                    // A MATCH that an aggregation follows feeds it row by row: the
                    // groups are kept, not the matches, so counting over a large
                    // graph is bounded by the number of groups, not of matches.
                    Step::Match(m) => match steps.next_if(|(_, next)| aggregates(next)) {
                        Some((next_no, Step::Project(p))) => {
                            let mut groups = Groups::new(p);
                            let matched =
                                exec.match_into(m, rows, &mut Sink::Groups(&mut groups), None)?;
                            self.profiled(part_no, step_no, matched, started);
                            let started = std::time::Instant::now();
                            let out = exec.group_finish(groups)?;
                            let out = exec.finish_projection(p, out)?;
                            self.profiled(part_no, next_no, out.len(), started);
                            rows = out;
                            continue;
                        }
                        _ => {
                            // A projection with LIMIT that keeps the match order
                            // takes its first rows: the MATCH stops there.
                            let enough = match steps.peek() {
                                Some((_, Step::Project(p)))
                                    if !p.distinct && p.order.is_empty() =>
                                {
                                    p.limit.map(|l| l.saturating_add(p.skip.unwrap_or(0)))
                                }
                                _ => None,
                            };
                            let mut out = Vec::new();
                            exec.match_into(m, rows, &mut Sink::Rows(&mut out), enough)?;
                            out
                        }
                    },
                    Step::Unwind { list } => exec.unwind(list, rows)?,
                    Step::Project(p) => exec.project(p, rows)?,
                };
                self.profiled(part_no, step_no, rows.len(), started);
            }
            all.extend(rows);
            cap(all.len())?;
        }
        if plan.parts.len() > 1 && !plan.union_all {
            all = distinct(all);
        }
        Ok(all)
    }
}

/// The value of an expression that reads no variable and no graph (a SKIP or
/// LIMIT such as `toInteger(ceil(1.7))`), computed while planning.
pub(crate) fn constant(e: &Expr) -> Res<Val> {
    let net = Network::new();
    let exec = Exec::new(&net);
    exec.eval(e, &mut Vec::new(), &[])
}

/// A list built by an operator: its weight counted, and checked.
fn list_checked(items: Vec<Val>) -> Res<Val> {
    let list = Val::list(items);
    super::check_built()?;
    Ok(list)
}

/// Counts `n` values built and fails past [`MAX_VALUES`](super::MAX_VALUES).
fn grow(n: usize) -> Res<()> {
    super::built(n as u64);
    super::check_built()
}

/// Fails past [`MAX_GROUPS`] groups of one aggregation.
fn cap_groups(groups: usize) -> Res<()> {
    if groups > MAX_GROUPS {
        return Err(QueryError::Limit {
            reason: format!(
                "an aggregation makes more than {MAX_GROUPS} groups; group by fewer keys, or narrow the MATCH (labels, properties, WHERE)"
            ),
        });
    }
    Ok(())
}

fn cap(rows: usize) -> Res<()> {
    super::check_built()?;
    if rows > MAX_ROWS {
        return Err(QueryError::Limit {
            reason: format!(
                "the query makes more than {MAX_ROWS} rows on the way to its answer; narrow the MATCH (labels, properties, WHERE, an upper bound on a variable-length pattern), avoid unconnected patterns (a cartesian product), or aggregate earlier"
            ),
        });
    }
    Ok(())
}

fn distinct(rows: Vec<Row>) -> Vec<Row> {
    let mut seen = HashSet::new();
    rows.into_iter()
        .filter(|row| {
            charge(1);
            let mut key = Vec::new();
            for v in row {
                v.key(&mut key);
            }
            seen.insert(key)
        })
        .collect()
}

/// Whether a step is a projection with aggregates.
fn aggregates(step: &Step) -> bool {
    matches!(step, Step::Project(p) if !p.aggregates.is_empty())
}

/// Where a MATCH puts its rows: in a list, or straight into the groups of the
/// aggregation after it.
enum Sink<'s, 'p> {
    Rows(&'s mut Vec<Row>),
    Groups(&'s mut Groups<'p>),
}

/// The groups of an aggregating projection, fed one row at a time: each group's
/// first row (for its keys) and its accumulators, in the order first seen.
struct Groups<'p> {
    p: &'p Projection,
    index: GroupIndex,
    /// Each group's first row (for its keys), and its accumulators, one per
    /// aggregate, group after group (two allocations, not two per group).
    rows: Vec<Row>,
    accs: Vec<Acc>,
    /// Groups made, and the width of the rows added.
    count: usize,
    width: usize,
    /// The slots the grouping keys read, when they read nothing else (no
    /// aggregate, no variable of their own).
    inputs: Option<Vec<usize>>,
    /// The values of `inputs` in the last row added, and its group (the
    /// values' vector is kept from group to group, not made anew).
    last: Option<(Vec<Val>, usize)>,
    /// Buffers reused from row to row: a key, the aggregates' arguments.
    key: Vec<u8>,
    values: Vec<Val>,
}

impl<'p> Groups<'p> {
    fn new(p: &'p Projection) -> Self {
        let mut inputs = Vec::new();
        let pure = p
            .items
            .iter()
            .zip(&p.aggregated)
            .filter(|(_, aggregated)| !**aggregated)
            .all(|(item, _)| super::pushdown::reads(item, &mut inputs));
        inputs.sort_unstable();
        inputs.dedup();
        Groups {
            p,
            index: GroupIndex::for_projection(p),
            rows: Vec::new(),
            accs: Vec::new(),
            count: 0,
            width: 0,
            inputs: pure.then_some(inputs),
            last: None,
            key: Vec::new(),
            values: Vec::new(),
        }
    }
}

/// The first `take` of `items` (all when `None`) in the order of `compare`,
/// sorted: with a LIMIT only the rows it takes are sorted, O(n + k log k).
fn sort_first<T>(
    mut items: Vec<T>,
    take: Option<usize>,
    compare: impl Fn(&T, &T) -> Ordering,
) -> Vec<T> {
    if let Some(k) = take
        && k < items.len()
    {
        charge(items.len() as u64);
        if k > 0 {
            items.select_nth_unstable_by(k - 1, &compare);
        }
        items.truncate(k);
    }
    // n log n comparisons, charged before sorting.
    let n = items.len() as u64;
    charge(n.saturating_mul(u64::from(64 - n.leading_zeros())));
    items.sort_unstable_by(compare);
    items
}

/// ORDER BY's comparison of two rows from their keys (each pair with whether
/// it is descending). Equal keys keep the rows' order (their positions `i`
/// and `j` break the tie), so an unstable sort, and a selection of the first
/// rows, give the rows a stable sort would.
fn by_order<'v>(
    keys: impl Iterator<Item = (&'v Val, &'v Val, bool)>,
    i: &usize,
    j: &usize,
) -> Ordering {
    for (x, y, descending) in keys {
        let o = value::order(x, y);
        let o = if descending { o.reverse() } else { o };
        if o != Ordering::Equal {
            return o;
        }
    }
    i.cmp(j)
}

/// A new group for `row`: its accumulators, and its row (or, grouped by
/// node, its node), counted with a key of `key_bytes`.
fn new_group(g: &mut Groups<'_>, row: &Row, fresh: &[usize], key_bytes: usize) -> Res<usize> {
    let at = g.count;
    cap_groups(at + 1)?;
    match &mut g.index {
        GroupIndex::Node { slot, nodes, .. } => {
            let Val::Node(ix) = row[*slot] else {
                return Err(runtime("a group by node without a node".to_string()));
            };
            grow(1 + g.p.aggregates.len())?;
            nodes.push(ix.index() as u32);
        }
        GroupIndex::Bytes(_) => {
            // A group holds its key, its row and its accumulators.
            grow(
                key_bytes.div_ceil(16)
                    + row.len()
                    + g.p.aggregates.len()
                    + fresh_weight(row, fresh),
            )?;
            g.rows.push(row.clone());
        }
    }
    g.count += 1;
    g.width = row.len();
    g.accs.extend(g.p.aggregates.iter().map(Acc::new));
    Ok(at)
}

/// The row a group by node stands for: its node in `slot`, nothing else
/// (its items read nothing else).
fn node_row(width: usize, slot: usize, node: u32) -> Row {
    let mut row = vec![Val::Null; width.max(slot + 1)];
    row[slot] = Val::Node(NodeIndex::new(node as usize));
    row
}

fn runtime(message: String) -> QueryError {
    QueryError::Runtime { message }
}

struct Exec<'a> {
    net: &'a Network,
    /// The network's rows with their edge and relation-class columns, once the
    /// run walks them (see [`Exec::edge_rows`]).
    rows: OnceCell<EdgeRows<'a>>,
    /// Edges walked on petgraph's lists so far.
    walked: Cell<usize>,
    /// For each relationship pattern (by [`RelPat::id`]) with types, once
    /// asked: which relation classes of the rows it matches.
    kept: RefCell<Vec<Option<Rc<[bool]>>>>,
    /// For each label a node pattern or a label test reads: one byte per node
    /// index, 0 while not known, then 1 (no) or 2 (yes). A label is read from
    /// the node's `labels` text, split at commas, so each node is read once.
    labels: RefCell<Vec<LabelMemo>>,
    /// The node attributes this run reads, each with its column once the run
    /// has read it of enough nodes (see [`Exec::with_node_attribute`]).
    columns: RefCell<Vec<ColumnUse>>,
    /// Stored strings already made query values, by the address of the
    /// network's shared value: a value read of many nodes is copied once.
    strings: RefCell<HashMap<usize, Val>>,
    /// What each clause did, when PROFILE asked.
    profile: RefCell<Option<Vec<Profiled>>>,
}

/// What a run knows of one label: per node index, 0 while not known, then 1
/// (no) or 2 (yes); and per `labels` attribute value (by address: a network
/// stores each distinct value once, and nothing is freed while the run reads
/// it), whether it names the label, so each distinct text is split once.
struct LabelMemo {
    label: String,
    nodes: Vec<u8>,
    /// The node bound, and how many checks the run made.
    bound: usize,
    checks: usize,
    values: HashMap<usize, bool>,
}

/// How a run reads one node attribute: from each node's map until it has read
/// it of a sixteenth of the nodes, then from the network's column (built then,
/// O(V), or kept from an earlier read at the same version). A read from a map
/// is three dependent cache misses (the record, the map, its entries), a read
/// from the column one; past a sixteenth of the nodes the misses cost about
/// what the sequential build does, and the column then serves later queries
/// at the same version too.
struct ColumnUse {
    key: String,
    reads: usize,
    /// Whether a kept column was looked for already.
    looked: bool,
    column: Option<NodeColumn>,
}

/// The most distinct stored strings a run keeps as values ([`Exec::strings`]).
const STRINGS_KEPT: usize = 1 << 16;

/// Which rows a pattern direction reads, and whether a self-loop met there
/// was met already (in the out rows, for `-[]-`).
fn row_directions(dir: Dir) -> &'static [(petgraph::Direction, bool)] {
    match dir {
        Dir::Out => &[(Outgoing, false)],
        Dir::In => &[(Incoming, false)],
        Dir::Both => &[(Outgoing, false), (Incoming, true)],
    }
}

/// Whether relation class `name` (as the relation columns name it: the
/// empty string for an edge without a type) is relationship type `wanted`.
fn class_is(name: &str, wanted: &str) -> bool {
    if name.is_empty() {
        wanted == value::DEFAULT_TYPE
    } else {
        name == wanted
    }
}

/// Where a MATCH's walk is: step `k` of `path`, the MATCH's part `part`,
/// walked from its end when `reversed` (its bound end was written last).
#[derive(Clone, Copy)]
struct At<'p> {
    part: usize,
    path: &'p PathPat,
    reversed: bool,
    k: usize,
}

impl At<'_> {
    /// The relationship and node patterns of this step.
    fn pattern(&self) -> &(RelPat, NodePat) {
        &self.path.steps[self.k]
    }

    /// The step after this one.
    fn next(self) -> Self {
        At {
            k: self.k + 1,
            ..self
        }
    }
}

/// The state of one MATCH over one input row.
struct Matching<'p, 's, 'g> {
    plan: &'p MatchPlan,
    /// The relationships matched so far in this MATCH: a short list, or once
    /// it outgrows [`FEW_USED`], one bit per edge index (see [`Matching::mark`]).
    few_used: Vec<EdgeIndex>,
    used: Vec<u64>,
    edge_bound: usize,
    /// The edge lists the variable-length steps walk, read once per node.
    lists: EdgeLists,
    /// The current path's nodes and relationships.
    nodes: Vec<NodeIndex>,
    rels: Vec<EdgeIndex>,
    out: &'s mut Sink<'s, 'g>,
    /// Rows put out so far.
    emitted: usize,
    /// The rows that are enough for what follows (a LIMIT): the MATCH stops
    /// once it has put out this many.
    enough: Option<usize>,
    /// The WHERE's conjuncts, checked as their variables are bound.
    conjuncts: Conjuncts<'p>,
    /// Along the current branch: how many conjuncts were checked, and the value
    /// of their `AND` so far ([`EARLY_GAVE_UP`] once one failed to evaluate).
    early: Vec<(usize, Val)>,
    /// The conjuncts the scan of the current starts decided true for every
    /// start it kept (see [`Exec::candidates`]): not evaluated again.
    settled: Vec<usize>,
    /// Whether the last relationship of the last path is counted rather than
    /// matched one by one (see [`counts_last_step`]).
    count_last: bool,
}

impl Matching<'_, '_, '_> {
    /// Whether the early checks along this branch evaluated every conjunct of
    /// the WHERE and found their `AND` true: the WHERE is then true of every
    /// row the branch puts out (a conjunct reads only variables bound before
    /// it was checked, and they stay bound along the branch), and need not
    /// be evaluated again per row.
    fn where_settled(&self) -> bool {
        matches!(self.early.last(), Some((checked, acc))
            if *checked == self.conjuncts.len() && truthy(acc))
    }

    /// Whether the MATCH has put out the rows that are enough.
    fn full(&self) -> bool {
        self.enough.is_some_and(|n| self.emitted >= n)
    }

    /// Whether `edge` is matched already in this MATCH.
    fn is_used(&self, edge: EdgeIndex) -> bool {
        if self.used.is_empty() {
            return self.few_used.contains(&edge);
        }
        let i = edge.index();
        self.used
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Marks `edge` as matched (or no longer). A few matched edges (a fixed
    /// pattern's) are kept in a list; past [`FEW_USED`] at once (a long
    /// trail), in a bitmap of every edge, made then: a small MATCH on a large
    /// network does not pay for a bitmap of its edges.
    fn mark(&mut self, edge: EdgeIndex, used: bool) {
        if self.used.is_empty() {
            if !used {
                if let Some(at) = self.few_used.iter().rposition(|&e| e == edge) {
                    self.few_used.swap_remove(at);
                }
                return;
            }
            if self.few_used.len() < FEW_USED {
                self.few_used.push(edge);
                return;
            }
            charge(self.edge_bound as u64 / 64);
            self.used = vec![0; self.edge_bound.div_ceil(64).max(1)];
            for e in std::mem::take(&mut self.few_used) {
                let i = e.index();
                if let Some(w) = self.used.get_mut(i / 64) {
                    *w |= 1 << (i % 64);
                }
            }
        }
        let i = edge.index();
        if let Some(w) = self.used.get_mut(i / 64) {
            if used {
                *w |= 1 << (i % 64);
            } else {
                *w &= !(1 << (i % 64));
            }
        }
    }
}

/// The edge lists of the nodes the variable-length steps of one MATCH walk
/// from, each read once ([`Exec::edges`]) and kept as a range of `entries`: a
/// walk's stack then holds two numbers a node, however long the path.
#[derive(Default)]
struct EdgeLists {
    ranges: HashMap<(usize, NodeIndex), (usize, usize)>,
    entries: Vec<(EdgeIndex, NodeIndex)>,
}

impl EdgeLists {
    /// The range of `entries` that lists the edges of `at` that `rel`'s
    /// direction and types allow.
    fn of(&mut self, exec: &Exec<'_>, at: NodeIndex, rel: &RelPat) -> Res<(usize, usize)> {
        let key = (rel.id, at);
        if let Some(&range) = self.ranges.get(&key) {
            return Ok(range);
        }
        let start = self.entries.len();
        exec.each_edge(at, rel, |edge, next| {
            self.entries.push((edge, next));
            Ok(true)
        })?;
        charge((self.entries.len() - start) as u64);
        let range = (start, self.entries.len());
        self.ranges.insert(key, range);
        Ok(range)
    }
}

/// The weight of the paths and lists in `slots` of `row`: what a MATCH built
/// for it (its nodes and relationships are references, not built).
fn fresh_weight(row: &Row, slots: &[usize]) -> usize {
    slots
        .iter()
        .filter_map(|&s| row.get(s))
        .filter(|v| matches!(v, Val::Path(_) | Val::List(_)))
        .fold(0usize, |w, v| w.saturating_add(v.weight() as usize))
}

/// When a projection orders first by a count and keeps `take` rows
/// (`ORDER BY n DESC LIMIT 20`): the aggregate, the count of the `take`-th
/// group in that order, and the direction. A group whose count comes after it
/// can never be among the rows kept, so its items (a node's id, say) are never
/// made. Only without DISTINCT, which could merge rows, and with fewer rows
/// taken than there are groups. O(groups).
fn count_cut(p: &Projection, accs: &[Acc], groups: usize) -> Option<(usize, i64, bool)> {
    let width = p.aggregates.len();
    if p.distinct || p.extended || width == 0 || accs.len() < groups * width {
        return None;
    }
    let take = p.limit?.saturating_add(p.skip.unwrap_or(0));
    if take == 0 || take >= groups {
        return None;
    }
    let (Expr::Var(column), descending) = p.order.first()? else {
        return None;
    };
    let Some(Expr::Agg(agg)) = p.items.get(*column) else {
        return None;
    };
    if !matches!(
        p.aggregates.get(*agg)?.kind,
        AggKind::Count | AggKind::CountStar
    ) {
        return None;
    }
    let mut counts: Vec<i64> = (0..groups).map(|k| accs[k * width + agg].count).collect();
    let nth = if *descending {
        *counts.select_nth_unstable_by(take - 1, |a, b| b.cmp(a)).1
    } else {
        *counts.select_nth_unstable(take - 1).1
    };
    Some((*agg, nth, *descending))
}

/// Whether the last relationship of `m`'s last path need only be counted:
/// `m` feeds aggregation `p`, every aggregate is `count(*)` or a plain
/// `count` of that relationship's variable or of its end node's (never null
/// in a match), and nothing else reads those two variables (no grouping key,
/// no WHERE, no path variable), nor were they bound before. Then the matches
/// that differ only there fall in one group and add one each to its counts:
/// "how many edges of this type does each node have" costs one pass over each
/// node's row instead of a row per edge.
fn counts_last_step(m: &MatchPlan, p: &Projection) -> bool {
    let Some(part) = m.parts.last() else {
        return false;
    };
    let Some((rel, node)) = part.steps.last() else {
        return false;
    };
    if part.slot.is_some() || rel.hops.is_some() || rel.bound || node.bound {
        return false;
    }
    let last: Vec<usize> = [rel.slot, node.slot].into_iter().flatten().collect();
    let mut read = Vec::new();
    for (item, aggregated) in p.items.iter().zip(&p.aggregated) {
        // An item around an aggregate (`count(*) + b.x`) reads the group's
        // first row, whose counted variables are not bound.
        let plain = if *aggregated {
            matches!(item, Expr::Agg(_))
        } else {
            super::pushdown::reads(item, &mut read)
        };
        if !plain {
            return false;
        }
    }
    if let Some(predicate) = &m.predicate
        && !super::pushdown::reads(predicate, &mut read)
    {
        return false;
    }
    // The node's own property map may read another variable, never its own.
    if read.iter().any(|s| last.contains(s)) {
        return false;
    }
    !p.aggregates.is_empty()
        && p.aggregates.iter().all(|a| {
            !a.distinct
                && match (a.kind, &a.arg) {
                    (AggKind::CountStar, _) => true,
                    (AggKind::Count, Some(Expr::Var(s))) => last.contains(s),
                    _ => false,
                }
        })
}

/// Relationships a MATCH keeps in a list before it makes a bitmap of every edge.
const FEW_USED: usize = 32;

/// The most nodes [`Exec::estimate`] tries.
const ESTIMATE_SAMPLE: usize = 256;

/// An estimate of how many nodes a node pattern matches.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Estimate {
    /// Nodes tried, and how many of them passed (0 and 0 when the pattern
    /// filters nothing, or is anchored).
    pub sampled: usize,
    pub passed: usize,
    /// The estimate: the whole network when nothing filters.
    pub selected: f64,
}

/// In [`Matching::early`]: no more early checks on this branch.
const EARLY_GAVE_UP: usize = usize::MAX;

/// What an early check of the WHERE found.
#[derive(PartialEq)]
enum Early {
    /// The WHERE is false whatever the rest of the pattern binds.
    Drop,
    /// Nothing new to check.
    Same,
    /// More conjuncts hold (or are null); an entry was pushed on `early`.
    Pushed,
}

impl Exec<'_> {
    // ---- MATCH -----------------------------------------------------------

    /// Matches `m` for every input row, putting the matches into `out`, or
    /// the first `enough` of them.
    fn match_into<'s, 'g>(
        &self,
        m: &MatchPlan,
        rows: Vec<Row>,
        out: &'s mut Sink<'s, 'g>,
        enough: Option<usize>,
    ) -> Res<usize> {
        let edge_bound = self.net.graph().edge_bound();
        let mut state = Matching {
            plan: m,
            few_used: Vec::new(),
            used: Vec::new(),
            edge_bound,
            lists: EdgeLists::default(),
            nodes: Vec::new(),
            rels: Vec::new(),
            out,
            emitted: 0,
            enough,
            conjuncts: Conjuncts::new(m.predicate.as_ref(), &m.new_slots),
            early: Vec::new(),
            settled: Vec::new(),
            count_last: false,
        };
        if let Sink::Groups(groups) = &state.out {
            state.count_last = counts_last_step(m, groups.p);
        }
        for mut row in rows {
            if state.full() {
                break;
            }
            row.resize(m.width, Val::Null);
            let before = state.emitted;
            self.part(&mut state, 0, &mut row)?;
            if m.optional && state.emitted == before {
                for &slot in &m.new_slots {
                    row[slot] = Val::Null;
                }
                self.emit(&mut state, &mut row)?;
            }
        }
        Ok(state.emitted)
    }

    /// The last relationship of the MATCH when only its number matters (see
    /// [`counts_last_step`]): the edges from `at` that match, counted, and
    /// added to the row's group that many times at once.
    fn count_last_step(
        &self,
        st: &mut Matching<'_, '_, '_>,
        rel: &RelPat,
        node: &NodePat,
        at: NodeIndex,
        row: &mut Row,
    ) -> Res<()> {
        if let Some(p) = &st.plan.predicate
            && !st.where_settled()
            && !truthy(&self.eval_scratch(p, row)?)
        {
            return Ok(());
        }
        let mut n = 0u64;
        // When no edge is matched yet and neither end tests anything, every
        // edge of the relationship's types counts: no test per edge.
        let every_edge = st.few_used.is_empty()
            && st.used.is_empty()
            && rel.properties.is_empty()
            && node.labels.is_empty()
            && node.properties.is_empty();
        if every_edge {
            n = self.count_edges(at, rel)?;
            charge(n);
        } else {
            self.each_edge(at, rel, |edge, next| {
                charge(1);
                if !st.is_used(edge)
                    && self.rel_props_ok(rel, edge, row)?
                    && self.node_ok(node, next, row)?
                {
                    n += 1;
                }
                Ok(true)
            })?;
        }
        if n > 0 {
            st.emitted += n as usize;
            if let Sink::Groups(groups) = st.out {
                self.group_add_times(groups, row, &st.plan.new_slots, Some(n))?;
            }
        }
        Ok(())
    }

    /// Records what a clause did, when profiling.
    fn profiled(&self, part: usize, step: usize, rows: usize, started: std::time::Instant) {
        if let Some(profile) = self.profile.borrow_mut().as_mut() {
            profile.push(Profiled {
                part,
                step,
                rows,
                seconds: started.elapsed().as_secs_f64(),
            });
        }
    }

    /// Puts out one row of a MATCH. The paths and relationship lists the
    /// match built for it count as kept only when the row is kept: an
    /// aggregation keeps what its groups hold ([`Exec::group_add`]).
    fn emit(&self, st: &mut Matching<'_, '_, '_>, row: &mut Row) -> Res<()> {
        st.emitted += 1;
        let fresh = &st.plan.new_slots;
        match st.out {
            Sink::Rows(out) => {
                grow(fresh_weight(row, fresh))?;
                out.push(row.clone());
                cap(out.len())
            }
            Sink::Groups(groups) => self.group_add(groups, row, fresh),
        }
    }

    /// Checks the conjuncts of the WHERE that the bindings so far let it check
    /// (see [`super::pushdown`]).
    fn check_early(&self, st: &mut Matching<'_, '_, '_>, row: &mut Row) -> Early {
        let n = st.conjuncts.len();
        let checked = st.early.last().map_or(0, |(checked, _)| *checked);
        if checked >= n {
            return Early::Same;
        }
        let mut acc = st
            .early
            .last()
            .map_or(Val::Bool(true), |(_, acc)| acc.clone());
        let mut ready = checked;
        while ready < n && st.conjuncts.ready(ready, |slot| row[slot] != Val::Null) {
            ready += 1;
        }
        if ready == checked {
            return Early::Same;
        }
        for at in checked..ready {
            let value = match st.settled.contains(&at) {
                true => Ok(Val::Bool(true)),
                false => self.eval_scratch(st.conjuncts.expr(at), row),
            };
            let next = match (at, value) {
                (0, Ok(value)) => Ok(value),
                (_, Ok(value)) => binary(BinOp::And, acc, value),
                (_, Err(e)) => Err(e),
            };
            acc = match next {
                Ok(acc) => acc,
                Err(_) => {
                    st.early.push((EARLY_GAVE_UP, Val::Null));
                    return Early::Pushed;
                }
            };
            if acc == Val::Bool(false) {
                return Early::Drop;
            }
        }
        if ready == n && !truthy(&acc) {
            return Early::Drop;
        }
        st.early.push((ready, acc));
        Early::Pushed
    }

    fn part(&self, st: &mut Matching<'_, '_, '_>, i: usize, row: &mut Row) -> Res<()> {
        // After the first part, the previous part's path variable is bound.
        self.where_allows(st, row, i > 0, |st, row| self.part_here(st, i, row))
    }

    /// Runs `then` unless the conjuncts of the WHERE that the bindings so far let
    /// it check (when `check`) rule the row out; forgets what the check noted
    /// once `then` is done, since `then` backtracks to these bindings.
    fn where_allows<'p, 's, 'g>(
        &self,
        st: &mut Matching<'p, 's, 'g>,
        row: &mut Row,
        check: bool,
        then: impl FnOnce(&mut Matching<'p, 's, 'g>, &mut Row) -> Res<()>,
    ) -> Res<()> {
        let early = if check {
            self.check_early(st, row)
        } else {
            Early::Same
        };
        if early == Early::Drop {
            return Ok(());
        }
        let result = then(st, row);
        if early == Early::Pushed {
            st.early.pop();
        }
        result
    }

    fn part_here(&self, st: &mut Matching<'_, '_, '_>, i: usize, row: &mut Row) -> Res<()> {
        let Some(part) = st.plan.parts.get(i) else {
            if let Some(p) = &st.plan.predicate
                && !st.where_settled()
                && !truthy(&self.eval_scratch(p, row)?)
            {
                return Ok(());
            }
            charge(1);
            return self.emit(st, row);
        };
        let (reversed, _) = self.walk_from(st.plan, &st.conjuncts, part, row);
        let path = reversed.as_ref().unwrap_or(part);
        let (starts, settled) = self.candidates(&path.start, &st.conjuncts, row)?;
        let outer = st.settled.len();
        st.settled.extend(settled);
        let walked = self.walk_starts(st, i, path, reversed.is_some(), starts, row);
        st.settled.truncate(outer);
        walked
    }

    /// Walks part `i` of the MATCH (`path`) from each of `starts`.
    fn walk_starts(
        &self,
        st: &mut Matching<'_, '_, '_>,
        i: usize,
        path: &PathPat,
        reversed: bool,
        starts: Vec<NodeIndex>,
        row: &mut Row,
    ) -> Res<()> {
        for start in starts {
            charge(1);
            if !self.node_ok(&path.start, start, row)? {
                continue;
            }
            let bound = bind_node(&path.start, start, row);
            st.nodes.push(start);
            let step = At {
                part: i,
                path,
                reversed,
                k: 0,
            };
            self.steps(st, step, start, row)?;
            st.nodes.pop();
            unbind(bound, row);
            if st.full() {
                break;
            }
        }
        Ok(())
    }

    /// The path reversed when the walk should start from its last node: when
    /// only that end is anchored (an id or a bound variable), or, when the
    /// MATCH's row order is not seen, when the last node is estimated to be
    /// clearly more selective than the first ([`Exec::estimate`]). `None`:
    /// walk it as written. Also says why, for EXPLAIN.
    fn walk_from(
        &self,
        m: &MatchPlan,
        conjuncts: &Conjuncts<'_>,
        part: &PathPat,
        row: &mut Row,
    ) -> (Option<PathPat>, Walk) {
        let Some((_, last)) = part.steps.last() else {
            return (None, Walk::AsWritten);
        };
        if anchored(&part.start) {
            return (None, Walk::FirstAnchored);
        }
        if anchored(last) {
            return (reverse_path(part), Walk::LastAnchored);
        }
        if !m.free_order {
            return (None, Walk::OrderSeen);
        }
        let first = self.estimate(conjuncts, &part.start, row);
        let end = self.estimate(conjuncts, last, row);
        // Reversing costs a copy of the pattern; only a clear gain pays.
        let reversed = if end.selected * 2.0 < first.selected {
            reverse_path(part)
        } else {
            None
        };
        let walk = Walk::Estimated {
            first,
            last: end,
            reversed: reversed.is_some(),
        };
        (reversed, walk)
    }

    /// How many nodes a path could start at with node pattern `pat`: its
    /// labels and properties, and the WHERE's conjuncts that read only its
    /// variable and variables bound before, tried on an evenly spaced sample
    /// of [`ESTIMATE_SAMPLE`] nodes at most. Deterministic: the same network
    /// gives the same estimate, and so the same plan.
    fn estimate(&self, conjuncts: &Conjuncts<'_>, pat: &NodePat, row: &mut Row) -> Estimate {
        let g = self.net.graph();
        let total = g.node_count();
        if anchored(pat) {
            return Estimate {
                sampled: 0,
                passed: 0,
                selected: 1.0,
            };
        }
        let filtered = !pat.labels.is_empty()
            || !pat.properties.is_empty()
            || pat
                .slot
                .is_some_and(|slot| (0..conjuncts.len()).any(|at| conjuncts.reads_slot(at, slot)));
        if total == 0 || !filtered {
            return Estimate {
                sampled: 0,
                passed: 0,
                selected: total as f64,
            };
        }
        let bound = g.node_bound();
        let stride = bound.div_ceil(ESTIMATE_SAMPLE).max(1);
        let (mut sampled, mut passed) = (0usize, 0usize);
        for i in (0..bound).step_by(stride) {
            let ix = NodeIndex::new(i);
            if !g.contains_node(ix) {
                continue;
            }
            sampled += 1;
            charge(1);
            if !self.node_ok(pat, ix, row).unwrap_or(true) {
                continue;
            }
            let bound_here = bind_node(pat, ix, row);
            let holds = (0..conjuncts.len()).all(|at| {
                !conjuncts.ready(at, |s| row[s] != Val::Null)
                    || self
                        .eval_scratch(conjuncts.expr(at), row)
                        .map_or(true, |v| v != Val::Bool(false) && v != Val::Null)
            });
            unbind(bound_here, row);
            passed += usize::from(holds);
        }
        // Half a node added to what passed: an estimate is never zero, and
        // a sample where nothing passed still tells a smaller end from a larger.
        let selected = total as f64 * (passed as f64 + 0.5) / (sampled as f64 + 1.0);
        Estimate {
            sampled,
            passed,
            selected,
        }
    }

    /// Matches step `k` of `path` from node `at`, then the rest, once the WHERE
    /// allows the bindings so far.
    fn steps(
        &self,
        st: &mut Matching<'_, '_, '_>,
        step: At<'_>,
        at: NodeIndex,
        row: &mut Row,
    ) -> Res<()> {
        let At {
            part: i,
            path,
            reversed,
            k,
        } = step;
        self.where_allows(st, row, true, |st, row| {
            let Some((rel, node)) = path.steps.get(k) else {
                let mut bound = None;
                if let Some(slot) = path.slot {
                    let (mut nodes, mut rels) = (st.nodes.clone(), st.rels.clone());
                    if reversed {
                        nodes.reverse();
                        rels.reverse();
                    }
                    let weight = nodes.len() + rels.len();
                    charge(weight as u64);
                    grow(weight)?;
                    row[slot] = Val::Path(Arc::new(PathVal { nodes, rels }));
                    bound = Some((slot, weight as u64));
                }
                let result = self.part(st, i + 1, row);
                // The path is kept only by the rows that took it (see `emit`).
                if let Some((slot, weight)) = bound {
                    row[slot] = Val::Null;
                    super::release(weight);
                }
                return result;
            };
            match rel.hops {
                None if st.count_last
                    && k + 1 == path.steps.len()
                    && i + 1 == st.plan.parts.len() =>
                {
                    self.count_last_step(st, rel, node, at, row)?;
                }
                None => {
                    self.each_edge(at, rel, |edge, next| {
                        charge(1);
                        if st.is_used(edge)
                            || !self.rel_ok(rel, edge, row)?
                            || !self.node_ok(node, next, row)?
                        {
                            return Ok(true);
                        }
                        let r = bind_slot(rel.slot, rel.bound, Val::Rel(edge), row);
                        let n = bind_node(node, next, row);
                        st.mark(edge, true);
                        st.rels.push(edge);
                        st.nodes.push(next);
                        self.steps(st, step.next(), next, row)?;
                        st.nodes.pop();
                        st.rels.pop();
                        st.mark(edge, false);
                        unbind(n, row);
                        unbind(r, row);
                        Ok(!st.full())
                    })?;
                }
                // A list of relationships bound before: the path they walk.
                Some(bounds) if rel.bound => {
                    self.follow(st, step, at, bounds, row)?;
                }
                Some(bounds) => self.hops(st, step, at, bounds, row)?,
            }
            Ok(())
        })
    }

    /// A variable-length step: every trail of `min..=max` hops from `at` (no
    /// upper bound when `max` is `None`), each followed by the rest of the
    /// pattern. A trail never repeats a relationship, nor one matched elsewhere
    /// in the MATCH (openCypher's relationship isomorphism), so it ends; its
    /// length is bounded by the number of edges and the walk by the call's
    /// budget, charged for every edge tried. Depth-first in edge insertion
    /// order, with an explicit stack: no recursion, whatever the depth.
    fn hops(
        &self,
        st: &mut Matching<'_, '_, '_>,
        step: At<'_>,
        at: NodeIndex,
        (min, max): (u32, Option<u32>),
        row: &mut Row,
    ) -> Res<()> {
        let (rel, node) = step.pattern();
        let reversed = step.reversed;
        let min = min as usize;
        let max = max.map(|m| m as usize);
        // The relationships of the trail so far, and for each node on it the
        // edges still to try (a range of `st.lists`).
        let mut trail: Vec<EdgeIndex> = Vec::new();
        let mut frames: Vec<(usize, usize)> = Vec::new();
        let mut here = at;
        loop {
            // `here` was just reached by `trail`.
            let done = trail.len();
            if done >= min && self.node_ok(node, here, row)? {
                let list = match rel.slot {
                    Some(slot) => {
                        charge(done as u64);
                        let mut items: Vec<Val> = trail.iter().map(|&e| Val::Rel(e)).collect();
                        if reversed {
                            items.reverse();
                        }
                        let list = Val::list(items);
                        let weight = list.weight();
                        row[slot] = list;
                        super::check_built()?;
                        Some((slot, weight))
                    }
                    None => None,
                };
                let n = bind_node(node, here, row);
                let result = self.steps(st, step.next(), here, row);
                unbind(n, row);
                // The list is kept only by the rows that took it (see `emit`).
                if let Some((slot, weight)) = list {
                    row[slot] = Val::Null;
                    super::release(weight);
                }
                result?;
                // Enough rows: the rest of the walk is not needed (what it
                // marked is dropped with the MATCH).
                if st.full() {
                    return Ok(());
                }
            }
            frames.push(if max.is_none_or(|max| done < max) {
                st.lists.of(self, here, rel)?
            } else {
                (0, 0)
            });
            // The next relationship to take, backtracking as edge lists run out.
            loop {
                let Some(top) = frames.last_mut() else {
                    return Ok(());
                };
                if top.0 == top.1 {
                    frames.pop();
                    if frames.is_empty() {
                        return Ok(());
                    }
                    if let Some(edge) = trail.pop() {
                        st.mark(edge, false);
                        st.rels.pop();
                        st.nodes.pop();
                    }
                    continue;
                }
                let (edge, next) = st.lists.entries[top.0];
                top.0 += 1;
                charge(1);
                if st.is_used(edge) || !self.rel_props_ok(rel, edge, row)? {
                    continue;
                }
                st.mark(edge, true);
                st.rels.push(edge);
                st.nodes.push(next);
                trail.push(edge);
                here = next;
                break;
            }
        }
    }

    /// A variable-length step whose variable holds a list of relationships
    /// already: it matches when they form a path from `at`, one after the
    /// other in the pattern's direction, with a length within the bounds, none
    /// matched already in this MATCH; then the rest of the pattern.
    fn follow(
        &self,
        st: &mut Matching<'_, '_, '_>,
        step: At<'_>,
        at: NodeIndex,
        (min, max): (u32, Option<u32>),
        row: &mut Row,
    ) -> Res<()> {
        let (rel, node) = step.pattern();
        let reversed = step.reversed;
        let Some(Val::List(items)) = rel.slot.and_then(|s| row.get(s)).cloned() else {
            return Ok(());
        };
        let n = items.len();
        if n < min as usize || max.is_some_and(|max| n > max as usize) {
            return Ok(());
        }
        let mut taken = 0;
        let mut here = Some(at);
        for offset in 0..n {
            charge(1);
            let item = &items[if reversed { n - 1 - offset } else { offset }];
            let next = match item {
                Val::Rel(edge)
                    if !st.is_used(*edge)
                        && self.type_ok(rel, *edge)
                        && self.rel_props_ok(rel, *edge, row)? =>
                {
                    let ends = self.net.graph().edge_endpoints(*edge);
                    let from = here.unwrap_or(at);
                    match (ends, rel.dir) {
                        (Some((s, t)), Dir::Out | Dir::Both) if s == from => Some((*edge, t)),
                        (Some((s, t)), Dir::In | Dir::Both) if t == from => Some((*edge, s)),
                        _ => None,
                    }
                }
                _ => None,
            };
            let Some((edge, next)) = next else {
                here = None;
                break;
            };
            st.mark(edge, true);
            st.rels.push(edge);
            st.nodes.push(next);
            taken += 1;
            here = Some(next);
        }
        let mut result = Ok(());
        if let Some(end) = here
            && self.node_ok(node, end, row)?
        {
            let bound = bind_node(node, end, row);
            result = self.steps(st, step.next(), end, row);
            unbind(bound, row);
        }
        for _ in 0..taken {
            if let Some(edge) = st.rels.pop() {
                st.mark(edge, false);
            }
            st.nodes.pop();
        }
        result
    }

    /// The nodes a path may start at.
    fn candidates(
        &self,
        pat: &NodePat,
        conjuncts: &Conjuncts<'_>,
        row: &mut Row,
    ) -> Res<(Vec<NodeIndex>, Vec<usize>)> {
        if pat.bound {
            return Ok((
                match pat.slot.map(|s| &row[s]) {
                    Some(Val::Node(ix)) => vec![*ix],
                    _ => Vec::new(),
                },
                Vec::new(),
            ));
        }
        if let Some((_, e)) = pat.properties.iter().find(|(k, _)| k == "id") {
            return Ok((
                match self.eval(e, row, &[])? {
                    Val::Str(id) => self.net.index_of(&id).into_iter().collect(),
                    _ => Vec::new(),
                },
                Vec::new(),
            ));
        }
        let tests = self.start_tests(pat, conjuncts, row);
        if tests.is_empty() {
            return Ok((self.net.graph().node_indices().collect(), Vec::new()));
        }
        // The scan reads each tested attribute of every node, so it reads the
        // attributes' columns as codes (made once per network version, see
        // `CodedColumn`). Each test is decided once per distinct stored value,
        // so a node costs a table lookup per test.
        // A test whose comparison failed to evaluate for some value keeps
        // those nodes, and its conjunct is evaluated again where the WHERE
        // runs, to raise the error; every other test's conjunct is true of
        // every node kept, and is settled (not evaluated again).
        let mut verdicts = Vec::with_capacity(tests.len());
        let mut settled = Vec::new();
        for (at, key, op, want) in &tests {
            let coded = self.scan_codes(key);
            charge(coded.values.len() as u64);
            // Code 0, a missing property, is null, and so is comparing it.
            let mut verdict = vec![false];
            let mut failed = false;
            for value in &coded.values {
                verdict.push(match binary(*op, Val::from_json(value), want.clone()) {
                    Ok(result) => result == Val::Bool(true),
                    Err(_) => {
                        failed = true;
                        true
                    }
                });
            }
            if !failed {
                settled.push(*at);
            }
            verdicts.push((coded, verdict));
        }
        let mut kept = Vec::new();
        for ix in self.net.graph().node_indices() {
            charge(1);
            let at = ix.index();
            if verdicts
                .iter()
                .all(|(coded, verdict)| verdict[coded.codes[at] as usize])
            {
                kept.push(ix);
            }
        }
        Ok((kept, settled))
    }

    /// The coded column of node attribute `key` (see `CodedColumn`), made now
    /// if no query made it at this version: the column (unless kept) and its
    /// codes are each one pass over the nodes, charged as
    /// [`Exec::with_node_attribute`] charges a column.
    fn scan_codes(&self, key: &str) -> std::sync::Arc<CodedColumn> {
        if let Some(coded) = self.net.node_codes_if_kept(key) {
            return coded;
        }
        let pass = self.net.graph().node_bound() as u64 / 8;
        if self.net.node_column_if_kept(key).is_none() {
            charge(pass);
        }
        charge(pass);
        self.net.node_column_coded(key)
    }

    /// The WHERE's conditions a scan can test on each node before walking:
    /// `v.key op value` (`=`, `<>`, `<`, `<=`, `>`, `>=`) on the start's own
    /// variable, `value` reading no variable of the MATCH (a literal, a
    /// parameter, an earlier variable), as (conjunct, key, op, value). A node that fails
    /// one (false or null) fails the WHERE; the rest are still checked as the
    /// walk goes, so a node kept here is judged exactly as before.
    fn start_tests(
        &self,
        pat: &NodePat,
        conjuncts: &Conjuncts<'_>,
        row: &mut Row,
    ) -> Vec<(usize, String, BinOp, Val)> {
        let Some(slot) = pat.slot else {
            return Vec::new();
        };
        let mut tests = Vec::new();
        for at in 0..conjuncts.len() {
            if !conjuncts.reads_only(at, slot) {
                continue;
            }
            let Expr::Chain(first, rest) = conjuncts.expr(at) else {
                continue;
            };
            let [(op, rhs)] = rest.as_slice() else {
                continue;
            };
            let comparison = matches!(
                op,
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
            );
            let Expr::Prop(base, key) = &**first else {
                continue;
            };
            let mut read = Vec::new();
            if !comparison
                || !matches!(&**base, Expr::Var(s) if *s == slot)
                || matches!(key.as_str(), "id" | "data")
                || !super::pushdown::reads(rhs, &mut read)
                || read.contains(&slot)
            {
                continue;
            }
            if let Ok(want) = self.eval_scratch(rhs, row) {
                tests.push((at, key.clone(), *op, want));
            }
        }
        tests
    }

    /// The edges of `at` in `dir`, in insertion order, with the node at their
    /// other end; a self-loop once.
    fn edges(&self, at: NodeIndex, dir: Dir) -> Vec<(EdgeIndex, NodeIndex)> {
        let g = self.net.graph();
        let mut out: Vec<(EdgeIndex, NodeIndex)> = Vec::new();
        if matches!(dir, Dir::Out | Dir::Both) {
            let start = out.len();
            out.extend(g.edges_directed(at, Outgoing).map(|e| (e.id(), e.target())));
            out[start..].reverse();
        }
        if matches!(dir, Dir::In | Dir::Both) {
            let start = out.len();
            out.extend(
                g.edges_directed(at, Incoming)
                    .filter(|e| dir == Dir::In || e.source() != e.target())
                    .map(|e| (e.id(), e.source())),
            );
            out[start..].reverse();
        }
        out
    }

    fn node_ok(&self, pat: &NodePat, ix: NodeIndex, row: &mut Row) -> Res<bool> {
        if pat.bound
            && let Some(slot) = pat.slot
            && row[slot] != Val::Node(ix)
        {
            return Ok(false);
        }
        if !pat.labels.iter().all(|l| self.has_label(ix, l)) {
            return Ok(false);
        }
        self.properties_match(&pat.properties, row, |key| self.node_property(ix, key))
    }

    /// Whether every `{key: value}` of a pattern equals the element's property,
    /// read by `property`. The values read are dropped at once: they count
    /// against the values bound only while compared.
    fn properties_match(
        &self,
        properties: &[(String, Expr)],
        row: &mut Row,
        property: impl Fn(&str) -> Val,
    ) -> Res<bool> {
        if properties.is_empty() {
            return Ok(true);
        }
        let mark = super::built_now();
        for (key, e) in properties {
            let want = self.eval(e, row, &[])?;
            let same = value::equals(&property(key), &want) == Some(true);
            super::check_built()?;
            super::reset_built(mark);
            if !same {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn rel_ok(&self, pat: &RelPat, ix: EdgeIndex, row: &mut Row) -> Res<bool> {
        if pat.bound
            && let Some(slot) = pat.slot
            && row[slot] != Val::Rel(ix)
        {
            return Ok(false);
        }
        self.rel_props_ok(pat, ix, row)
    }

    /// Whether relationship `ix` has one of the pattern's types (by its
    /// attribute; walks over the rows compare classes instead).
    fn type_ok(&self, pat: &RelPat, ix: EdgeIndex) -> bool {
        if pat.types.is_empty() {
            return true;
        }
        let t = value::rel_type(self.net, ix);
        pat.types.iter().any(|want| want == t)
    }

    /// Whether node `ix` carries `label`, each node's labels read once per run.
    fn has_label(&self, ix: NodeIndex, label: &str) -> bool {
        let mut memo = self.labels.borrow_mut();
        let at = match memo.iter().position(|m| m.label == label) {
            Some(at) => at,
            None => {
                let bound = self.net.graph().node_bound();
                memo.push(LabelMemo {
                    label: label.to_string(),
                    nodes: Vec::new(),
                    bound,
                    checks: 0,
                    values: HashMap::new(),
                });
                memo.len() - 1
            }
        };
        let LabelMemo {
            nodes,
            values,
            bound,
            checks,
            ..
        } = &mut memo[at];
        // The per-node bytes are made once the run has checked an eighth of
        // the nodes: a small MATCH on a large network reads a few labels.
        *checks += 1;
        if nodes.is_empty() && *checks > *bound / 8 {
            charge(*bound as u64 / 64);
            *nodes = vec![0; *bound];
        }
        let mut unknown = 0;
        let known = nodes.get_mut(ix.index()).unwrap_or(&mut unknown);
        if *known == 0 {
            let yes = self.with_node_attribute(ix, value::LABELS_ATTRIBUTE, |text| match text {
                Some(v) => *values
                    .entry(std::ptr::from_ref(v) as usize)
                    .or_insert_with(|| value::labels_value_has(Some(v), label)),
                None => false,
            });
            *known = 1 + u8::from(yes);
        }
        *known == 2
    }

    /// Calls `f` with node `ix`'s attribute `key`: read from the node's map,
    /// or from the network's column once this run has read `key` of a
    /// sixteenth of the nodes (or a column is kept for this version already), so a scan
    /// that reads it of every node reads one array.
    fn with_node_attribute<R>(
        &self,
        ix: NodeIndex,
        key: &str,
        f: impl FnOnce(Option<&Value>) -> R,
    ) -> R {
        let mut columns = self.columns.borrow_mut();
        let at = match columns.iter().position(|c| c.key == key) {
            Some(at) => at,
            None => {
                columns.push(ColumnUse {
                    key: key.to_string(),
                    reads: 0,
                    looked: false,
                    column: None,
                });
                columns.len() - 1
            }
        };
        let use_ = &mut columns[at];
        if use_.column.is_none() {
            use_.reads += 1;
            if !use_.looked {
                use_.looked = true;
                use_.column = self.net.node_column_if_kept(key);
            } else if use_.reads > self.net.graph().node_bound() / 16 + 64 {
                charge(self.net.graph().node_bound() as u64 / 8);
                use_.column = Some(self.net.node_column(key));
            }
        }
        match &use_.column {
            Some(column) => f(column.get(ix.index()).and_then(|v| v.as_deref())),
            None => f(self.net.graph()[ix].attributes.get(key)),
        }
    }

    /// Node `ix`'s property `key` (see [`value::node_property`]), its
    /// attributes read through [`Exec::with_node_attribute`].
    fn node_property(&self, ix: NodeIndex, key: &str) -> Val {
        if matches!(key, "id" | "data") {
            return value::node_property(self.net, ix, key);
        }
        self.with_node_attribute(ix, key, |v| match v {
            None => Val::Null,
            Some(s @ Value::String(_)) => {
                let mut strings = self.strings.borrow_mut();
                let address = std::ptr::from_ref(s) as usize;
                if let Some(known) = strings.get(&address) {
                    charge(1);
                    return known.clone();
                }
                let made = Val::from_json(s);
                if strings.len() < STRINGS_KEPT {
                    strings.insert(address, made.clone());
                }
                made
            }
            Some(other) => Val::from_json(other),
        })
    }

    /// The rows with their edge and relation-class columns, if the run should
    /// walk them: when they are built, or once the edges walked on petgraph's
    /// lists (by this run and, before it, by others since the rows were last
    /// dropped) cost what building them does. The run then goes on with them
    /// from its next node; they list the same edges in the same order.
    fn edge_rows(&self) -> Option<&EdgeRows<'_>> {
        if let Some(rows) = self.rows.get() {
            return Some(rows);
        }
        let build = self.net.rows_pay_off(self.walked.get());
        let rows = self.net.edge_rows(value::TYPE_ATTRIBUTE, build)?;
        Some(self.rows.get_or_init(|| rows))
    }

    /// The relation classes of the rows that `rel`'s types match (`None` when
    /// it has no types: every edge).
    fn kept_classes(&self, rows: &EdgeRows<'_>, rel: &RelPat) -> Option<Rc<[bool]>> {
        if rel.types.is_empty() {
            return None;
        }
        let mut kept = self.kept.borrow_mut();
        if kept.len() <= rel.id {
            kept.resize(rel.id + 1, None);
        }
        let names = rows.relation_names();
        Some(
            kept[rel.id]
                .get_or_insert_with(|| {
                    charge(names.len() as u64);
                    names
                        .iter()
                        .map(|name| rel.types.iter().any(|t| class_is(name, t)))
                        .collect()
                })
                .clone(),
        )
    }

    /// Calls `f` with each relationship of `at` that `rel`'s direction and
    /// types allow, and the node at its other end, in insertion order (out
    /// edges, then in edges; a self-loop once), until `f` answers `false`.
    fn each_edge(
        &self,
        at: NodeIndex,
        rel: &RelPat,
        mut f: impl FnMut(EdgeIndex, NodeIndex) -> Res<bool>,
    ) -> Res<()> {
        if let Some(rows) = self.edge_rows() {
            let keep = self.kept_classes(rows, rel);
            for &(dir, seen_loops) in row_directions(rel.dir) {
                let row = rows.row(at, dir);
                charge(row.nodes.len() as u64 / 16);
                // Rows list edges newest first.
                for i in (0..row.nodes.len()).rev() {
                    if let Some(keep) = &keep
                        && !keep.get(row.classes[i] as usize).copied().unwrap_or(false)
                    {
                        continue;
                    }
                    let next = row.nodes[i];
                    if seen_loops && next == at {
                        continue;
                    }
                    if !f(row.edges[i], next)? {
                        return Ok(());
                    }
                }
            }
            return Ok(());
        }
        let list = self.edges(at, rel.dir);
        self.walked
            .set(self.walked.get().saturating_add(list.len()));
        for (edge, next) in list {
            if self.type_ok(rel, edge) && !f(edge, next)? {
                break;
            }
        }
        Ok(())
    }

    /// How many relationships [`Exec::each_edge`] gives `at`, counted: over
    /// the compact rows a pass over the row's relation classes, with no call
    /// per edge (a single type is one comparison a class, which vectorises).
    fn count_edges(&self, at: NodeIndex, rel: &RelPat) -> Res<u64> {
        let Some(rows) = self.edge_rows() else {
            let mut n = 0u64;
            self.each_edge(at, rel, |_, _| {
                n += 1;
                Ok(true)
            })?;
            return Ok(n);
        };
        let keep = self.kept_classes(rows, rel);
        // The one class kept, when only one is (`[:depends]`).
        let single = keep.as_deref().and_then(|keep| {
            let mut kept = keep.iter().enumerate().filter(|(_, k)| **k);
            match (kept.next(), kept.next()) {
                (Some((class, _)), None) => Some(class as u32),
                _ => None,
            }
        });
        let mut n = 0u64;
        for &(dir, seen_loops) in row_directions(rel.dir) {
            let row = rows.row(at, dir);
            charge(row.nodes.len() as u64 / 16);
            let kept = |i: usize| match &keep {
                None => true,
                Some(keep) => keep.get(row.classes[i] as usize).copied().unwrap_or(false),
            };
            n += if seen_loops {
                (0..row.nodes.len())
                    .filter(|&i| row.nodes[i] != at && kept(i))
                    .count() as u64
            } else if keep.is_none() {
                row.nodes.len() as u64
            } else if let Some(class) = single {
                row.classes.iter().map(|&c| u64::from(c == class)).sum()
            } else {
                (0..row.nodes.len()).filter(|&i| kept(i)).count() as u64
            };
        }
        Ok(n)
    }

    /// Whether every `{key: value}` of the relationship pattern holds.
    fn rel_props_ok(&self, pat: &RelPat, ix: EdgeIndex, row: &mut Row) -> Res<bool> {
        self.properties_match(&pat.properties, row, |key| {
            value::rel_property(self.net, ix, key)
        })
    }

    // ---- UNWIND and projections ---------------------------------------------

    fn unwind(&self, list: &Expr, rows: Vec<Row>) -> Res<Vec<Row>> {
        let mut out = Vec::new();
        for mut row in rows {
            match self.eval(list, &mut row, &[])? {
                Val::Null => {}
                Val::List(items) => {
                    for item in items.iter() {
                        charge(1);
                        let mut r = row.clone();
                        r.push(item.clone());
                        out.push(r);
                        cap(out.len())?;
                    }
                }
                other => {
                    row.push(other);
                    out.push(row);
                    cap(out.len())?;
                }
            }
        }
        Ok(out)
    }

    fn project(&self, p: &Projection, rows: Vec<Row>) -> Res<Vec<Row>> {
        let width = p.items.len();
        let out = if p.aggregates.is_empty() {
            let mut out = Vec::with_capacity(rows.len());
            for mut row in rows {
                charge(1);
                let mut values = Vec::with_capacity(width);
                for item in &p.items {
                    values.push(self.eval(item, &mut row, &[])?);
                }
                super::check_built()?;
                if p.extended {
                    row.extend(values);
                    out.push(row);
                } else {
                    out.push(values);
                }
            }
            out
        } else {
            let mut groups = Groups::new(p);
            for mut row in rows {
                // These rows were counted when they were made.
                self.group_add(&mut groups, &mut row, &[])?;
            }
            self.group_finish(groups)?
        };
        self.finish_projection(p, out)
    }

    /// The rest of a projection once its rows are made: DISTINCT, ORDER BY,
    /// SKIP, LIMIT and WITH's WHERE.
    fn finish_projection(&self, p: &Projection, mut out: Vec<Row>) -> Res<Vec<Row>> {
        let width = p.items.len();
        if p.distinct {
            out = distinct(out);
        }
        if !p.order.is_empty() {
            // Only the rows a LIMIT takes need be sorted.
            let take = p.limit.map(|l| l.saturating_add(p.skip.unwrap_or(0)));
            let columns: Option<Vec<(usize, bool)>> = p
                .order
                .iter()
                .map(|(e, descending)| match e {
                    Expr::Var(slot) => Some((*slot, *descending)),
                    _ => None,
                })
                .collect();
            out = match columns {
                // Keys that are columns of the rows are compared in place.
                Some(columns) => {
                    let positioned = out.into_iter().enumerate().collect();
                    sort_first(positioned, take, |(i, a), (j, b)| {
                        by_order(columns.iter().map(|&(s, d)| (&a[s], &b[s], d)), i, j)
                    })
                    .into_iter()
                    .map(|(_, row)| row)
                    .collect()
                }
                None => {
                    let mut keyed = Vec::with_capacity(out.len());
                    for (i, mut row) in out.into_iter().enumerate() {
                        charge(1);
                        let mut keys = Vec::with_capacity(p.order.len());
                        for (e, _) in &p.order {
                            keys.push(self.eval(e, &mut row, &[])?);
                        }
                        super::check_built()?;
                        keyed.push((keys, i, row));
                    }
                    sort_first(keyed, take, |(a, i, _), (b, j, _)| {
                        let pairs = a.iter().zip(b).zip(&p.order);
                        by_order(pairs.map(|((x, y), (_, d))| (x, y, *d)), i, j)
                    })
                    .into_iter()
                    .map(|(_, _, row)| row)
                    .collect()
                }
            };
        }
        let skip = p.skip.unwrap_or(0);
        if skip > 0 {
            out.drain(..skip.min(out.len()));
        }
        if let Some(limit) = p.limit {
            out.truncate(limit);
        }
        if let Some(predicate) = &p.predicate {
            let mut kept = Vec::with_capacity(out.len());
            for mut row in out {
                charge(1);
                if truthy(&self.eval(predicate, &mut row, &[])?) {
                    kept.push(row);
                }
            }
            out = kept;
        }
        if p.extended {
            for row in &mut out {
                let cut = row.len() - width;
                row.drain(..cut);
            }
        }
        Ok(out)
    }

    /// Adds one row to the groups of an aggregation. What the values bound
    /// counts is what the groups keep: a new group's keys and its row's
    /// `fresh` slots (the paths and lists its MATCH built for it), and what
    /// the accumulators hold ([`Acc::add`]); the keys and arguments evaluated
    /// for the row are dropped with it, so they count only while it is added.
    fn group_add(&self, g: &mut Groups<'_>, row: &mut Row, fresh: &[usize]) -> Res<()> {
        self.group_add_times(g, row, fresh, None)
    }

    /// [`Exec::group_add`], or with `counted`, for that many matches at once
    /// whose counted variables are not bound: only when every aggregate counts
    /// them (see [`counts_last_step`]), so no argument is evaluated.
    fn group_add_times(
        &self,
        g: &mut Groups<'_>,
        row: &mut Row,
        fresh: &[usize],
        counted: Option<u64>,
    ) -> Res<()> {
        let p = g.p;
        charge(1);
        let mark = super::built_now();
        let mut values = std::mem::take(&mut g.values);
        values.clear();
        for agg in &p.aggregates {
            values.push(match &agg.arg {
                Some(arg) if counted.is_none() => self.eval(arg, row, &[])?,
                _ => Val::Null,
            });
        }
        // Rows in a run with the same values in the slots the keys read (the
        // matches of one node, say) belong to the same group: the keys are
        // not evaluated again.
        let same = g.last.as_ref().is_some_and(|(inputs, _)| {
            g.inputs
                .as_ref()
                .is_some_and(|slots| slots.iter().zip(inputs).all(|(&s, v)| row[s] == *v))
        });
        let at = match g.last.as_ref() {
            Some(&(_, at)) if same => at,
            _ => {
                let at = self.find_group(g, row, fresh)?;
                if let Some(slots) = &g.inputs {
                    let (inputs, last) = g.last.get_or_insert_with(|| (Vec::new(), at));
                    inputs.clear();
                    inputs.extend(slots.iter().map(|&s| row[s].clone()));
                    *last = at;
                }
                at
            }
        };
        super::check_built()?;
        super::reset_built(mark);
        let width = p.aggregates.len();
        for ((agg, acc), value) in p
            .aggregates
            .iter()
            .zip(&mut g.accs[at * width..(at + 1) * width])
            .zip(values.drain(..))
        {
            match counted {
                None => acc.add(agg, value)?,
                Some(n) => acc.count = acc.count.saturating_add(n as i64),
            }
        }
        g.values = values;
        super::check_built()
    }

    /// The group of `row`, made when it is the first of its key.
    fn find_group(&self, g: &mut Groups<'_>, row: &mut Row, fresh: &[usize]) -> Res<usize> {
        if let GroupIndex::Node { slot, index, .. } = &mut g.index {
            if let Val::Node(ix) = row[*slot] {
                let node = ix.index() as u32;
                if let Some(&at) = index.get(&node) {
                    return Ok(at);
                }
                let at = new_group(g, row, fresh, 0)?;
                if let GroupIndex::Node { index, .. } = &mut g.index {
                    index.insert(node, at);
                }
                return Ok(at);
            }
            // A key that is not a node: every group by its bytes (and with
            // its row) from now on.
            let index = self.bytes_index(g, row.len())?;
            g.index = GroupIndex::Bytes(index);
        }
        let mut key = std::mem::take(&mut g.key);
        key.clear();
        for (item, aggregated) in g.p.items.iter().zip(&g.p.aggregated) {
            if !aggregated {
                self.eval(item, row, &[])?.key(&mut key);
            }
        }
        let found = match &g.index {
            GroupIndex::Bytes(index) => index.get(key.as_slice()).copied(),
            // Moved to the byte index above.
            GroupIndex::Node { .. } => None,
        };
        let at = match found {
            Some(at) => at,
            None => {
                let at = new_group(g, row, fresh, key.len())?;
                if let GroupIndex::Bytes(index) = &mut g.index {
                    index.insert(key.as_slice().into(), at);
                }
                at
            }
        };
        g.key = key;
        Ok(at)
    }

    /// The byte index of the groups made so far by node, each keyed from the
    /// row its node stands for, which it now keeps (rows `width` wide).
    fn bytes_index(&self, g: &mut Groups<'_>, width: usize) -> Res<HashMap<Box<[u8]>, usize>> {
        let GroupIndex::Node { slot, nodes, .. } = &g.index else {
            return Ok(HashMap::new());
        };
        let mut index = HashMap::with_capacity(nodes.len());
        let mut key = Vec::new();
        for (at, &node) in nodes.iter().enumerate() {
            let mut row = node_row(width, *slot, node);
            key.clear();
            for (item, aggregated) in g.p.items.iter().zip(&g.p.aggregated) {
                if !aggregated {
                    self.eval(item, &mut row, &[])?.key(&mut key);
                }
            }
            grow(key.len().div_ceil(16) + row.len())?;
            index.insert(key.as_slice().into(), at);
            g.rows.push(row);
        }
        Ok(index)
    }

    /// The rows of an aggregation: one per group, or one of empty aggregates when
    /// there are no grouping keys and no rows.
    fn group_finish(&self, g: Groups<'_>) -> Res<Vec<Row>> {
        let p = g.p;
        // Grouped by node, each group's items are read from one scratch row
        // holding its node.
        let (mut rows, by_node) = match g.index {
            GroupIndex::Node { slot, nodes, .. } => (Vec::new(), Some((slot, nodes))),
            GroupIndex::Bytes(_) => (g.rows, None),
        };
        let mut accs = g.accs;
        let keyed = p.aggregated.iter().any(|a| !a);
        if g.count == 0 && !keyed {
            rows.push(Vec::new());
            accs.extend(p.aggregates.iter().map(Acc::new));
        }
        let width = p.aggregates.len();
        let groups = by_node
            .as_ref()
            .map_or(rows.len(), |(_, nodes)| nodes.len());
        let mut out = Vec::with_capacity(groups);
        let cut = count_cut(p, &accs, groups);
        let mut accs = accs.into_iter();
        let mut values = Vec::with_capacity(width);
        let mut scratch = by_node
            .as_ref()
            .map(|&(slot, _)| node_row(g.width, slot, 0))
            .unwrap_or_default();
        let mut rows = rows.into_iter();
        for k in 0..groups {
            values.clear();
            values.extend(
                accs.by_ref()
                    .take(width)
                    .zip(&p.aggregates)
                    .map(|(acc, agg)| acc.finish(agg)),
            );
            let mut owned;
            let row = match &by_node {
                Some((slot, nodes)) => {
                    scratch[*slot] = Val::Node(NodeIndex::new(nodes[k] as usize));
                    &mut scratch
                }
                None => {
                    owned = rows.next().unwrap_or_default();
                    &mut owned
                }
            };
            if let Some((agg, nth, descending)) = cut
                && let Val::Int(count) = values[agg]
                && (if descending { count < nth } else { count > nth })
            {
                continue;
            }
            let mut projected = Vec::with_capacity(p.items.len());
            for item in &p.items {
                projected.push(self.eval(item, row, &values)?);
            }
            super::check_built()?;
            out.push(projected);
        }
        Ok(out)
    }

    // ---- expressions -----------------------------------------------------------

    /// The list after `x IN` of a comprehension or quantifier; `None` for null.
    fn list_operand(
        &self,
        list: &Expr,
        row: &mut Row,
        aggs: &[Val],
    ) -> Res<Option<Arc<Shared<Vec<Val>>>>> {
        match self.eval(list, row, aggs)? {
            Val::Null => Ok(None),
            Val::List(items) => Ok(Some(items)),
            other => Err(runtime(format!(
                "IN needs a list, not a {}",
                other.type_name()
            ))),
        }
    }

    /// Evaluates `e` for a test whose value is dropped right after (a WHERE):
    /// what it builds counts against the bound only while it is evaluated.
    fn eval_scratch(&self, e: &Expr, row: &mut Row) -> Res<Val> {
        let mark = super::built_now();
        let value = self.eval(e, row, &[])?;
        super::check_built()?;
        super::reset_built(mark);
        Ok(value)
    }

    fn eval(&self, e: &Expr, row: &mut Row, aggs: &[Val]) -> Res<Val> {
        Ok(match e {
            Expr::Lit(v) => v.clone(),
            Expr::Var(slot) => row.get(*slot).cloned().unwrap_or(Val::Null),
            Expr::Agg(k) => aggs.get(*k).cloned().unwrap_or(Val::Null),
            Expr::Prop(base, key) => {
                let base = self.eval(base, row, aggs)?;
                self.property(&base, key)?
            }
            Expr::Index(base, index) => {
                let base = self.eval(base, row, aggs)?;
                let index = self.eval(index, row, aggs)?;
                match (&base, &index) {
                    (Val::Null, _) | (_, Val::Null) => Val::Null,
                    (Val::List(items), Val::Int(i)) => {
                        let len = items.len() as i64;
                        let i = if *i < 0 { len + i } else { *i };
                        usize::try_from(i)
                            .ok()
                            .and_then(|i| items.get(i).cloned())
                            .unwrap_or(Val::Null)
                    }
                    (_, Val::Str(key)) => self.property(&base, key)?,
                    _ => {
                        return Err(runtime(format!(
                            "cannot index a {} with a {}",
                            base.type_name(),
                            index.type_name()
                        )));
                    }
                }
            }
            Expr::Slice(base, lower, upper) => {
                let base = self.eval(base, row, aggs)?;
                let bound = |b: &Option<Box<Expr>>, row: &mut Row| -> Res<Option<Val>> {
                    b.as_ref().map(|b| self.eval(b, row, aggs)).transpose()
                };
                let (lo, hi) = (bound(lower, row)?, bound(upper, row)?);
                match base {
                    Val::Null => Val::Null,
                    Val::List(items) => {
                        let len = items.len() as i64;
                        let at = |v: Option<Val>, default: i64| -> Res<Option<i64>> {
                            match v {
                                None => Ok(Some(default)),
                                Some(Val::Null) => Ok(None),
                                Some(Val::Int(i)) => {
                                    Ok(Some(if i < 0 { (len + i).max(0) } else { i.min(len) }))
                                }
                                Some(other) => Err(runtime(format!(
                                    "a slice bound must be an integer, not a {}",
                                    other.type_name()
                                ))),
                            }
                        };
                        match (at(lo, 0)?, at(hi, len)?) {
                            (Some(a), Some(b)) if a < b => {
                                Val::list(items[a as usize..b as usize].to_vec())
                            }
                            (Some(_), Some(_)) => Val::list(Vec::new()),
                            _ => Val::Null,
                        }
                    }
                    other => return Err(runtime(format!("cannot slice a {}", other.type_name()))),
                }
            }
            Expr::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(self.eval(item, row, aggs)?);
                }
                Val::list(out)
            }
            Expr::Map(entries) => {
                let mut out = Vec::with_capacity(entries.len());
                for (k, v) in entries {
                    out.push((k.clone(), self.eval(v, row, aggs)?));
                }
                Val::map(out)
            }
            Expr::Not(inner) => match self.eval(inner, row, aggs)? {
                Val::Null => Val::Null,
                Val::Bool(b) => Val::Bool(!b),
                other => {
                    return Err(runtime(format!(
                        "NOT needs a boolean, not a {}",
                        other.type_name()
                    )));
                }
            },
            Expr::Neg(inner) => match self.eval(inner, row, aggs)? {
                Val::Null => Val::Null,
                Val::Int(i) => Val::Int(
                    i.checked_neg()
                        .ok_or_else(|| runtime("integer overflow".into()))?,
                ),
                Val::Float(f) => Val::Float(-f),
                other => return Err(runtime(format!("cannot negate a {}", other.type_name()))),
            },
            Expr::Chain(first, rest) => {
                if let [(op, Expr::Lit(constant))] = rest.as_slice()
                    && let Some(answer) = self.compare_stored(first, *op, constant, row)
                {
                    return Ok(answer);
                }
                let mut acc = self.eval(first, row, aggs)?;
                // The right operand of the comparison just made: `a < b < c` is
                // `a < b AND b < c`.
                let mut compared: Option<Val> = None;
                for (op, e) in rest {
                    // AND and OR skip what cannot change their answer.
                    if (*op == BinOp::And && acc == Val::Bool(false))
                        || (*op == BinOp::Or && acc == Val::Bool(true))
                    {
                        compared = None;
                        continue;
                    }
                    let right = self.eval(e, row, aggs)?;
                    let comparison = matches!(
                        op,
                        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
                    );
                    let next = comparison.then(|| right.clone());
                    acc = match compared.take() {
                        Some(left) if comparison => {
                            binary(BinOp::And, acc, binary(*op, left, right)?)?
                        }
                        _ => binary(*op, acc, right)?,
                    };
                    compared = next;
                }
                acc
            }
            Expr::IsNull(inner, negated) => {
                let null = self.eval(inner, row, aggs)? == Val::Null;
                Val::Bool(null != *negated)
            }
            Expr::HasLabels(inner, labels) => match self.eval(inner, row, aggs)? {
                Val::Null => Val::Null,
                Val::Node(ix) => Val::Bool(labels.iter().all(|l| self.has_label(ix, l))),
                Val::Rel(ix) => {
                    let t = value::rel_type(self.net, ix);
                    Val::Bool(labels.iter().all(|l| l == t))
                }
                other => {
                    return Err(runtime(format!(
                        "a label test needs a node, not a {}",
                        other.type_name()
                    )));
                }
            },
            Expr::Func(f, args) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a, row, aggs)?);
                }
                self.function(*f, values)?
            }
            Expr::Case {
                operand,
                alternatives,
                otherwise,
            } => {
                let subject = operand
                    .as_ref()
                    .map(|o| self.eval(o, row, aggs))
                    .transpose()?;
                for (when, then) in alternatives {
                    let w = self.eval(when, row, aggs)?;
                    let hit = match &subject {
                        Some(s) => value::equals(s, &w) == Some(true),
                        None => truthy(&w),
                    };
                    if hit {
                        return self.eval(then, row, aggs);
                    }
                }
                match otherwise {
                    Some(o) => self.eval(o, row, aggs)?,
                    None => Val::Null,
                }
            }
            Expr::ListComp {
                slot,
                list,
                predicate,
                projection,
            } => {
                let Some(items) = self.list_operand(list, row, aggs)? else {
                    return Ok(Val::Null);
                };
                let width = row.len();
                row.resize(width.max(slot + 1), Val::Null);
                let mut out = Vec::new();
                let result = (|| {
                    for item in items.iter() {
                        charge(1);
                        row[*slot] = item.clone();
                        if let Some(p) = predicate
                            && !truthy(&self.eval(p, row, aggs)?)
                        {
                            continue;
                        }
                        out.push(match projection {
                            Some(p) => self.eval(p, row, aggs)?,
                            None => item.clone(),
                        });
                    }
                    Ok(())
                })();
                row.truncate(width);
                result?;
                Val::list(out)
            }
            Expr::Subquery { steps, kind } => {
                let enough = (*kind == SubqueryKind::Exists).then_some(1);
                // The rows found are dropped here: they count only while they live.
                let mark = super::built_now();
                let found = self.subquery(steps, row, enough)?;
                super::check_built()?;
                super::reset_built(mark);
                match kind {
                    SubqueryKind::Exists => Val::Bool(!found.is_empty()),
                    SubqueryKind::Count => Val::Int(i64::try_from(found.len()).unwrap_or(i64::MAX)),
                    SubqueryKind::Collect => list_checked(
                        found
                            .into_iter()
                            .map(|r| r.into_iter().next().unwrap_or(Val::Null))
                            .collect(),
                    )?,
                }
            }
            Expr::Reduce {
                slot,
                initial,
                list,
                expression,
            } => {
                let mut acc = self.eval(initial, row, aggs)?;
                let Some(items) = self.list_operand(list, row, aggs)? else {
                    return Ok(Val::Null);
                };
                let width = row.len();
                row.resize(width.max(slot + 2), Val::Null);
                let result = (|| {
                    for (k, item) in items.iter().enumerate() {
                        charge(1);
                        row[*slot] = acc.clone();
                        row[*slot + 1] = item.clone();
                        // Each step's value replaces the last: only the last is kept.
                        let mark = super::built_now();
                        let next = self.eval(expression, row, aggs)?;
                        super::check_built()?;
                        super::reset_built(mark);
                        if k > 0 {
                            super::release(acc.weight());
                        }
                        super::built(next.weight());
                        acc = next;
                    }
                    Ok(())
                })();
                row.truncate(width);
                result?;
                acc
            }
            Expr::PatternComp { plan, projection } => {
                // The matches are dropped once projected: they count only while
                // they live, the list as it is built.
                let mark = super::built_now();
                let mut found = Vec::new();
                self.match_into(plan, vec![row.clone()], &mut Sink::Rows(&mut found), None)?;
                let mut items = Vec::with_capacity(found.len());
                for mut r in found {
                    items.push(self.eval(projection, &mut r, &[])?);
                }
                super::check_built()?;
                super::reset_built(mark);
                list_checked(items)?
            }
            Expr::Quantified {
                kind,
                slot,
                list,
                predicate,
            } => {
                let Some(items) = self.list_operand(list, row, aggs)? else {
                    return Ok(Val::Null);
                };
                let width = row.len();
                row.resize(width.max(slot + 1), Val::Null);
                let (mut yes, mut unknown, total) = (0usize, 0usize, items.len());
                let mut result = Ok(());
                for item in items.iter() {
                    charge(1);
                    row[*slot] = item.clone();
                    match self.eval(predicate, row, aggs) {
                        Ok(Val::Bool(true)) => yes += 1,
                        Ok(Val::Null) => unknown += 1,
                        Ok(_) => {}
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    }
                }
                row.truncate(width);
                result?;
                let no = total - yes - unknown;
                match kind {
                    Quantifier::All if no > 0 => Val::Bool(false),
                    Quantifier::All if unknown > 0 => Val::Null,
                    Quantifier::All => Val::Bool(true),
                    Quantifier::Any if yes > 0 => Val::Bool(true),
                    Quantifier::Any if unknown > 0 => Val::Null,
                    Quantifier::Any => Val::Bool(false),
                    Quantifier::None if yes > 0 => Val::Bool(false),
                    Quantifier::None if unknown > 0 => Val::Null,
                    Quantifier::None => Val::Bool(true),
                    Quantifier::Single if yes > 1 => Val::Bool(false),
                    Quantifier::Single if unknown > 0 => Val::Null,
                    Quantifier::Single => Val::Bool(yes == 1),
                }
            }
        })
    }

    /// The rows of a subquery's steps run on one row (the first `enough`
    /// when its steps are one MATCH).
    fn subquery(&self, steps: &[Step], row: &Row, enough: Option<usize>) -> Res<Vec<Row>> {
        let mut rows = vec![row.clone()];
        for step in steps {
            charge(1);
            rows = match step {
                Step::Match(m) => {
                    let mut out = Vec::new();
                    let enough = if steps.len() == 1 { enough } else { None };
                    self.match_into(m, rows, &mut Sink::Rows(&mut out), enough)?;
                    out
                }
                Step::Unwind { list } => self.unwind(list, rows)?,
                Step::Project(p) => self.project(p, rows)?,
            };
            if rows.is_empty() {
                break;
            }
        }
        Ok(rows)
    }

    /// `n.key op constant` compared on the stored attribute itself, when `n`
    /// is a node and both sides are strings or integers: what [`binary`]
    /// answers, without making the attribute a query value first (the
    /// filters of a scan read one attribute of every node). `None`: the
    /// general path decides.
    fn compare_stored(&self, left: &Expr, op: BinOp, constant: &Val, row: &Row) -> Option<Val> {
        let Expr::Prop(base, key) = left else {
            return None;
        };
        let Expr::Var(slot) = **base else {
            return None;
        };
        let Some(&Val::Node(ix)) = row.get(slot) else {
            return None;
        };
        if matches!(key.as_str(), "id" | "data") {
            return None;
        }
        let holds: fn(Ordering) -> bool = match op {
            BinOp::Eq => Ordering::is_eq,
            BinOp::Ne => Ordering::is_ne,
            BinOp::Lt => Ordering::is_lt,
            BinOp::Le => Ordering::is_le,
            BinOp::Gt => Ordering::is_gt,
            BinOp::Ge => Ordering::is_ge,
            _ => return None,
        };
        let ordering = self.with_node_attribute(ix, key, |stored| match (stored?, constant) {
            (Value::String(x), Val::Str(c)) => Some(x.as_str().cmp(c)),
            (Value::Number(n), Val::Int(c)) => Some(n.as_i64()?.cmp(c)),
            _ => None,
        })?;
        charge(1);
        Some(Val::Bool(holds(ordering)))
    }

    fn property(&self, base: &Val, key: &str) -> Res<Val> {
        Ok(match base {
            Val::Null => Val::Null,
            Val::Node(ix) => self.node_property(*ix, key),
            Val::Rel(ix) => value::rel_property(self.net, *ix, key),
            Val::Map(entries) => entries
                .iter()
                .find(|(k, _)| k == key)
                .map_or(Val::Null, |(_, v)| v.clone()),
            Val::Temporal(t) => super::temporal::property(t, key)?,
            other => {
                return Err(runtime(format!(
                    "cannot read property `{key}` of a {}",
                    other.type_name()
                )));
            }
        })
    }

    fn function(&self, f: Func, mut args: Vec<Val>) -> Res<Val> {
        let net = self.net;
        let g = net.graph();
        let arg = args.first().cloned().unwrap_or(Val::Null);
        let wrong =
            |name: &str, v: &Val| runtime(format!("{name}() does not take a {}", v.type_name()));
        Ok(match f {
            Func::Temporal(t) => super::temporal::call(t, args)?,
            Func::More(m) => super::functions::call(m, args)?,
            Func::Coalesce => args
                .into_iter()
                .find(|v| *v != Val::Null)
                .unwrap_or(Val::Null),
            Func::Exists => Val::Bool(arg != Val::Null),
            _ if arg == Val::Null => Val::Null,
            Func::Id => match arg {
                Val::Node(ix) => Val::str(net.id_at(ix).to_string()),
                Val::Rel(ix) => Val::Int(i64::try_from(g[ix].id).unwrap_or(i64::MAX)),
                other => return Err(wrong("id", &other)),
            },
            Func::Labels => match arg {
                Val::Node(ix) => {
                    Val::list(value::labels(net, ix).into_iter().map(Val::str).collect())
                }
                other => return Err(wrong("labels", &other)),
            },
            Func::Type => match arg {
                Val::Rel(ix) => Val::str(value::rel_type(net, ix).to_string()),
                other => return Err(wrong("type", &other)),
            },
            Func::Properties => match arg {
                Val::Node(ix) => Val::map(value::node_properties(net, ix, true)),
                Val::Rel(ix) => Val::map(value::rel_properties(net, ix)),
                Val::Map(m) => Val::Map(m),
                other => return Err(wrong("properties", &other)),
            },
            Func::Keys => match arg {
                Val::Node(ix) => Val::list(
                    value::node_properties(net, ix, true)
                        .into_iter()
                        .map(|(k, _)| Val::str(k))
                        .collect(),
                ),
                Val::Rel(ix) => Val::list(
                    value::rel_properties(net, ix)
                        .into_iter()
                        .map(|(k, _)| Val::str(k))
                        .collect(),
                ),
                Val::Map(m) => Val::list(m.iter().map(|(k, _)| Val::str(k.as_str())).collect()),
                other => return Err(wrong("keys", &other)),
            },
            Func::Length | Func::Size => match arg {
                Val::Path(p) => Val::Int(p.rels.len() as i64),
                Val::List(items) => Val::Int(items.len() as i64),
                Val::Str(s) => Val::Int(s.chars().count() as i64),
                other => {
                    return Err(wrong(
                        if f == Func::Size { "size" } else { "length" },
                        &other,
                    ));
                }
            },
            Func::Nodes => match arg {
                Val::Path(p) => Val::list(p.nodes.iter().map(|&n| Val::Node(n)).collect()),
                other => return Err(wrong("nodes", &other)),
            },
            Func::Relationships => match arg {
                Val::Path(p) => Val::list(p.rels.iter().map(|&r| Val::Rel(r)).collect()),
                other => return Err(wrong("relationships", &other)),
            },
            Func::StartNode | Func::EndNode => match arg {
                Val::Rel(ix) => {
                    let (s, t) = g.edge_endpoints(ix).unwrap_or_default();
                    Val::Node(if f == Func::StartNode { s } else { t })
                }
                other => return Err(wrong("startNode/endNode", &other)),
            },
            Func::Head | Func::Last => match arg {
                Val::List(items) => {
                    let item = if f == Func::Head {
                        items.first()
                    } else {
                        items.last()
                    };
                    item.cloned().unwrap_or(Val::Null)
                }
                other => return Err(wrong("head/last", &other)),
            },
            Func::Tail => match arg {
                Val::List(items) => Val::list(items.iter().skip(1).cloned().collect()),
                other => return Err(wrong("tail", &other)),
            },
            Func::Reverse => match arg {
                Val::List(items) => Val::list(items.iter().rev().cloned().collect()),
                Val::Str(s) => Val::str(s.chars().rev().collect::<String>()),
                other => return Err(wrong("reverse", &other)),
            },
            Func::Range => {
                let int = |v: &Val| match v {
                    Val::Int(i) => Ok(*i),
                    other => Err(runtime(format!(
                        "range() takes integers, not a {}",
                        other.type_name()
                    ))),
                };
                let (start, end) = (int(&args[0])?, int(&args[1])?);
                let step = match args.get(2) {
                    Some(v) => int(v)?,
                    None => 1,
                };
                if step == 0 {
                    return Err(runtime("range() needs a step other than 0".into()));
                }
                let count = if (step > 0 && end < start) || (step < 0 && end > start) {
                    0
                } else if step > 0 {
                    (i128::from(end) - i128::from(start)) / i128::from(step) + 1
                } else {
                    (i128::from(start) - i128::from(end)) / -i128::from(step) + 1
                };
                if count > MAX_ROWS as i128 {
                    return Err(QueryError::Limit {
                        reason: format!("range() makes at most {MAX_ROWS} numbers"),
                    });
                }
                let count = u64::try_from(count.max(0)).unwrap_or(0);
                charge(count);
                super::check_built()?;
                // Every item lies between start and end: it fits in 64 bits.
                Val::list(
                    (0..i128::from(count))
                        .map(|k| {
                            Val::Int(
                                i64::try_from(i128::from(start) + k * i128::from(step))
                                    .unwrap_or_default(),
                            )
                        })
                        .collect(),
                )
            }
            Func::ToString => match arg {
                Val::Str(s) => Val::str(s),
                Val::Temporal(t) => Val::str(super::temporal::text(&t)),
                Val::Int(i) => Val::str(i.to_string()),
                Val::Float(x) => Val::str(float_text(x)),
                Val::Bool(b) => Val::str(b.to_string()),
                other => return Err(wrong("toString", &other)),
            },
            Func::ToInteger => match arg {
                Val::Int(i) => Val::Int(i),
                Val::Float(x) if x.is_finite() && x.abs() < 9.2e18 => Val::Int(x.trunc() as i64),
                Val::Float(_) => Val::Null,
                Val::Str(s) => s
                    .trim()
                    .parse::<i64>()
                    .map(Val::Int)
                    .or_else(|_| {
                        s.trim().parse::<f64>().map(|x| {
                            if x.is_finite() && x.abs() < 9.2e18 {
                                Val::Int(x.trunc() as i64)
                            } else {
                                Val::Null
                            }
                        })
                    })
                    .unwrap_or(Val::Null),
                Val::Bool(b) => Val::Int(i64::from(b)),
                other => return Err(wrong("toInteger", &other)),
            },
            Func::ToFloat => match arg {
                Val::Int(i) => Val::Float(i as f64),
                Val::Float(x) => Val::Float(x),
                Val::Str(s) => s.trim().parse::<f64>().map_or(Val::Null, Val::Float),
                other => return Err(wrong("toFloat", &other)),
            },
            Func::ToBoolean => match arg {
                Val::Bool(b) => Val::Bool(b),
                Val::Str(s) => match s.trim().to_lowercase().as_str() {
                    "true" => Val::Bool(true),
                    "false" => Val::Bool(false),
                    _ => Val::Null,
                },
                Val::Int(i) => Val::Bool(i != 0),
                other => return Err(wrong("toBoolean", &other)),
            },
            Func::ToLower | Func::ToUpper | Func::Trim => match arg {
                Val::Str(s) => Val::str(match f {
                    Func::ToLower => s.to_lowercase(),
                    Func::ToUpper => s.to_uppercase(),
                    _ => s.trim().to_string(),
                }),
                other => return Err(wrong("toLower/toUpper/trim", &other)),
            },
            Func::Replace => match (args.remove(0), args.remove(0), args.remove(0)) {
                (Val::Str(s), Val::Str(from), Val::Str(to)) => {
                    if from.is_empty() {
                        Val::str(s)
                    } else {
                        let grows = to.len().saturating_sub(from.len()) * (s.len() / from.len());
                        if s.len() + grows > super::MAX_STRING_BYTES {
                            return Err(QueryError::Limit {
                                reason: format!(
                                    "replace() would make a string over {} bytes",
                                    super::MAX_STRING_BYTES
                                ),
                            });
                        }
                        Val::str(s.replace(&*from, &to))
                    }
                }
                (Val::Null, _, _) | (_, Val::Null, _) | (_, _, Val::Null) => Val::Null,
                _ => return Err(runtime("replace() takes three strings".into())),
            },
            Func::Substring => {
                let Val::Str(s) = arg else {
                    return Err(wrong("substring", &arg));
                };
                let int = |v: Option<&Val>| match v {
                    Some(Val::Int(i)) if *i >= 0 => Ok(Some(*i as usize)),
                    None => Ok(None),
                    _ => Err(runtime(
                        "substring() takes a string and non-negative integers".into(),
                    )),
                };
                let start = int(args.get(1))?.unwrap_or(0);
                let len = int(args.get(2))?;
                let chars = s.chars().skip(start);
                Val::str(match len {
                    Some(n) => chars.take(n).collect::<String>(),
                    None => chars.collect(),
                })
            }
            Func::Split => match (&args[0], &args[1]) {
                (Val::Str(s), Val::Str(sep)) => {
                    if sep.is_empty() {
                        Val::list(s.chars().map(|c| Val::str(c.to_string())).collect())
                    } else {
                        Val::list(s.split(&**sep).map(|p| Val::str(p.to_string())).collect())
                    }
                }
                (_, Val::Null) => Val::Null,
                _ => return Err(runtime("split() takes two strings".into())),
            },
            Func::Abs => match arg {
                Val::Int(i) => Val::Int(
                    i.checked_abs()
                        .ok_or_else(|| runtime("integer overflow".into()))?,
                ),
                Val::Float(x) => Val::Float(x.abs()),
                other => return Err(wrong("abs", &other)),
            },
            Func::Sign => match arg {
                Val::Int(i) => Val::Int(i.signum()),
                Val::Float(x) => Val::Int(if x > 0.0 {
                    1
                } else if x < 0.0 {
                    -1
                } else {
                    0
                }),
                other => return Err(wrong("sign", &other)),
            },
            Func::Round | Func::Floor | Func::Ceil | Func::Sqrt => {
                let x = match arg {
                    Val::Int(i) => i as f64,
                    Val::Float(x) => x,
                    other => return Err(wrong("round/floor/ceil/sqrt", &other)),
                };
                Val::Float(match f {
                    Func::Round => x.round(),
                    Func::Floor => x.floor(),
                    Func::Ceil => x.ceil(),
                    _ => x.sqrt(),
                })
            }
        })
    }
}

/// Whether a WHERE keeps its row: only `true` does.
fn truthy(v: &Val) -> bool {
    *v == Val::Bool(true)
}

/// A float as Cypher prints it: `1.0`, `2.5`, `1e300`.
pub(crate) fn float_text(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.1}")
    } else {
        x.to_string()
    }
}

fn bind_slot(slot: Option<usize>, bound: bool, value: Val, row: &mut Row) -> Option<usize> {
    match slot {
        Some(slot) if !bound => {
            row[slot] = value;
            Some(slot)
        }
        _ => None,
    }
}

fn bind_node(pat: &NodePat, ix: NodeIndex, row: &mut Row) -> Option<usize> {
    bind_slot(pat.slot, pat.bound, Val::Node(ix), row)
}

fn unbind(slot: Option<usize>, row: &mut Row) {
    if let Some(slot) = slot {
        row[slot] = Val::Null;
    }
}

/// Whether a node pattern names its node: bound before, or by `id`.
fn anchored(pat: &NodePat) -> bool {
    pat.bound || pat.properties.iter().any(|(k, _)| k == "id")
}

/// The path walked from its last node, unless a variable repeats inside the
/// path (reversed, it would be bound at another step).
pub(crate) fn reverse_path(part: &PathPat) -> Option<PathPat> {
    part.steps.last()?;
    let mut slots: Vec<usize> = std::iter::once(&part.start)
        .chain(part.steps.iter().map(|(_, n)| n))
        .filter_map(|n| n.slot)
        .chain(part.steps.iter().filter_map(|(r, _)| r.slot))
        .collect();
    let n = slots.len();
    slots.sort_unstable();
    slots.dedup();
    if slots.len() != n {
        return None;
    }
    let mut nodes: Vec<NodePat> = std::iter::once(part.start.clone())
        .chain(part.steps.iter().map(|(_, n)| n.clone()))
        .collect();
    let mut rels: Vec<RelPat> = part.steps.iter().map(|(r, _)| r.clone()).collect();
    nodes.reverse();
    rels.reverse();
    for r in &mut rels {
        r.dir = match r.dir {
            Dir::Out => Dir::In,
            Dir::In => Dir::Out,
            Dir::Both => Dir::Both,
        };
    }
    let mut nodes = nodes.into_iter();
    let start = nodes.next()?;
    Some(PathPat {
        slot: part.slot,
        start,
        steps: rels.into_iter().zip(nodes).collect(),
        text: part.text.clone(),
    })
}

fn number(v: &Val) -> Option<f64> {
    match v {
        Val::Int(i) => Some(*i as f64),
        Val::Float(f) => Some(*f),
        _ => None,
    }
}

/// One binary operator on two values.
fn binary(op: BinOp, a: Val, b: Val) -> Res<Val> {
    use Val::{Bool, Float, Int, Null};
    // Temporal values and durations: their own arithmetic (null operands
    // give null below, as for numbers).
    let arithmetic = match op {
        BinOp::Add => Some('+'),
        BinOp::Sub => Some('-'),
        BinOp::Mul => Some('*'),
        BinOp::Div => Some('/'),
        _ => None,
    };
    if let Some(symbol) = arithmetic
        && a != Null
        && b != Null
        && let Some(answer) = super::temporal::arithmetic(symbol, &a, &b)
    {
        return answer;
    }
    let type_error = |what: &str, a: &Val, b: &Val| {
        runtime(format!(
            "cannot {what} a {} and a {}",
            a.type_name(),
            b.type_name()
        ))
    };
    Ok(match op {
        BinOp::And | BinOp::Or | BinOp::Xor => {
            let as_bool = |v: &Val| match v {
                Null => Ok(None),
                Bool(b) => Ok(Some(*b)),
                other => Err(runtime(format!(
                    "{} needs booleans, not a {}",
                    match op {
                        BinOp::And => "AND",
                        BinOp::Or => "OR",
                        _ => "XOR",
                    },
                    other.type_name()
                ))),
            };
            let (x, y) = (as_bool(&a)?, as_bool(&b)?);
            match (op, x, y) {
                (BinOp::And, Some(false), _) | (BinOp::And, _, Some(false)) => Bool(false),
                (BinOp::And, Some(true), Some(true)) => Bool(true),
                (BinOp::Or, Some(true), _) | (BinOp::Or, _, Some(true)) => Bool(true),
                (BinOp::Or, Some(false), Some(false)) => Bool(false),
                (BinOp::Xor, Some(x), Some(y)) => Bool(x != y),
                _ => Null,
            }
        }
        BinOp::Eq => value::equals(&a, &b).map_or(Null, Bool),
        BinOp::Ne => value::equals(&a, &b).map_or(Null, |e| Bool(!e)),
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
            if matches!((&a, &b), (Float(x), Int(_) | Float(_)) | (Int(_), Float(x)) if x.is_nan())
                || matches!((&a, &b), (Float(_), Float(y)) if y.is_nan()) =>
        {
            // NaN is neither smaller nor larger than any number.
            Bool(false)
        }
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => match value::compare(&a, &b) {
            None => Null,
            Some(o) => Bool(match op {
                BinOp::Lt => o == Ordering::Less,
                BinOp::Le => o != Ordering::Greater,
                BinOp::Gt => o == Ordering::Greater,
                _ => o != Ordering::Less,
            }),
        },
        BinOp::In => match b {
            Null => Null,
            Val::List(items) => {
                let mut unknown = false;
                for item in items.iter() {
                    charge(1);
                    match value::equals(&a, item) {
                        Some(true) => return Ok(Bool(true)),
                        None => unknown = true,
                        Some(false) => {}
                    }
                }
                if unknown { Null } else { Bool(false) }
            }
            other => {
                return Err(runtime(format!(
                    "IN needs a list on its right, not a {}",
                    other.type_name()
                )));
            }
        },
        BinOp::StartsWith | BinOp::EndsWith | BinOp::Contains => match (&a, &b) {
            (Val::Str(s), Val::Str(t)) => Bool(match op {
                BinOp::StartsWith => s.starts_with(&**t),
                BinOp::EndsWith => s.ends_with(&**t),
                _ => s.contains(&**t),
            }),
            _ => Null,
        },
        _ if a == Null || b == Null => Null,
        BinOp::Add => match (a, b) {
            (Int(x), Int(y)) => Int(x
                .checked_add(y)
                .ok_or_else(|| runtime("integer overflow".into()))?),
            (Val::Str(x), Val::Str(y)) => Val::str(concat(&x, &y)?),
            (Val::Str(x), y @ (Int(_) | Float(_) | Bool(_))) => {
                Val::str(concat(&x, &scalar_text(&y))?)
            }
            (x @ (Int(_) | Float(_) | Bool(_)), Val::Str(y)) => {
                Val::str(concat(&scalar_text(&x), &y)?)
            }
            (Val::List(x), Val::List(y)) => {
                charge((x.len() + y.len()) as u64);
                let mut items = Vec::with_capacity(x.len() + y.len());
                items.extend(x.iter().cloned());
                items.extend(y.iter().cloned());
                list_checked(items)?
            }
            (Val::List(x), y) => {
                charge(x.len() as u64);
                let mut items = Vec::with_capacity(x.len() + 1);
                items.extend(x.iter().cloned());
                items.push(y);
                list_checked(items)?
            }
            (x, Val::List(y)) => {
                charge(y.len() as u64);
                let mut items = Vec::with_capacity(y.len() + 1);
                items.push(x);
                items.extend(y.iter().cloned());
                list_checked(items)?
            }
            (x, y) => match (number(&x), number(&y)) {
                (Some(p), Some(q)) => Float(p + q),
                _ => return Err(type_error("add", &x, &y)),
            },
        },
        BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => match (&a, &b) {
            (Int(x), Int(y)) => {
                let r = match op {
                    BinOp::Sub => x.checked_sub(*y),
                    BinOp::Mul => x.checked_mul(*y),
                    _ if *y == 0 => return Err(runtime("division by zero".into())),
                    BinOp::Div => x.checked_div(*y),
                    _ => x.checked_rem(*y),
                };
                Int(r.ok_or_else(|| runtime("integer overflow".into()))?)
            }
            _ => match (number(&a), number(&b)) {
                (Some(p), Some(q)) => Float(match op {
                    BinOp::Sub => p - q,
                    BinOp::Mul => p * q,
                    BinOp::Div => p / q,
                    _ => p % q,
                }),
                _ => return Err(type_error("compute with", &a, &b)),
            },
        },
        BinOp::Pow => match (number(&a), number(&b)) {
            (Some(p), Some(q)) => Float(p.powf(q)),
            _ => return Err(type_error("raise", &a, &b)),
        },
    })
}

fn scalar_text(v: &Val) -> String {
    match v {
        Val::Int(i) => i.to_string(),
        Val::Float(f) => float_text(*f),
        Val::Bool(b) => b.to_string(),
        Val::Str(s) => s.to_string(),
        _ => String::new(),
    }
}

fn concat(a: &str, b: &str) -> Res<String> {
    if a.len() + b.len() > super::MAX_STRING_BYTES {
        return Err(QueryError::Limit {
            reason: format!("a string would grow past {} bytes", super::MAX_STRING_BYTES),
        });
    }
    charge((a.len() + b.len()) as u64 / 64);
    super::check_built()?;
    Ok(format!("{a}{b}"))
}

/// The running state of one aggregate over one group.
/// One aggregate's running state in one group. Kept small (64 bytes): an
/// aggregation over many groups holds one per group and aggregate, and which
/// aggregate it is comes from its [`Agg`].
struct Acc {
    /// DISTINCT's keys seen, boxed: most accumulators have none.
    seen: Option<Box<HashSet<Vec<u8>>>>,
    count: i64,
    /// The sum of the integers, while it fits in an `i64` (see `int_overflow`).
    int_sum: i64,
    float_sum: f64,
    floats: bool,
    int_overflow: bool,
    /// collect()'s values, the numbers of stDev() and the percentiles, and
    /// min()'s or max()'s best value so far (the only item).
    items: Vec<Val>,
}

impl Acc {
    fn new(agg: &Agg) -> Acc {
        Acc {
            seen: agg.distinct.then(Box::default),
            count: 0,
            int_sum: 0,
            float_sum: 0.0,
            floats: false,
            int_overflow: false,
            items: Vec::new(),
        }
    }

    fn add(&mut self, agg: &Agg, value: Val) -> Res<()> {
        if agg.kind == AggKind::CountStar {
            self.count += 1;
            return Ok(());
        }
        if value == Val::Null {
            return Ok(());
        }
        if let Some(seen) = &mut self.seen {
            let mut key = Vec::new();
            value.key(&mut key);
            // Kept keys count as values built: a DISTINCT over a long stream of
            // matches is bounded like a collect().
            let pieces = key.len().div_ceil(16);
            if !seen.insert(key) {
                return Ok(());
            }
            grow(pieces)?;
        }
        self.count += 1;
        match agg.kind {
            AggKind::Sum | AggKind::Avg => match value {
                Val::Int(i) => {
                    match self.int_sum.checked_add(i) {
                        Some(sum) => self.int_sum = sum,
                        None => self.int_overflow = true,
                    }
                    self.float_sum += i as f64;
                }
                Val::Float(f) => {
                    self.floats = true;
                    self.float_sum += f;
                }
                other => {
                    return Err(runtime(format!(
                        "sum() and avg() take numbers, not a {}",
                        other.type_name()
                    )));
                }
            },
            AggKind::Min | AggKind::Max => {
                let better = match self.items.first() {
                    None => true,
                    Some(best) => {
                        let o = value::order(&value, best);
                        if agg.kind == AggKind::Min {
                            o == Ordering::Less
                        } else {
                            o == Ordering::Greater
                        }
                    }
                };
                if better {
                    // The best value so far is kept; the one it replaces is not.
                    grow(value.weight() as usize)?;
                    if let Some(old) = self.items.pop() {
                        super::release(old.weight());
                    }
                    self.items.push(value);
                }
            }
            AggKind::Collect => {
                grow(value.weight() as usize)?;
                self.items.push(value);
            }
            AggKind::StDev
            | AggKind::StDevP
            | AggKind::PercentileCont(_)
            | AggKind::PercentileDisc(_) => {
                if !matches!(value, Val::Int(_) | Val::Float(_)) {
                    return Err(runtime(format!(
                        "stDev() and percentiles take numbers, not a {}",
                        value.type_name()
                    )));
                }
                grow(1)?;
                self.items.push(value);
            }
            AggKind::Count | AggKind::CountStar => {}
        }
        Ok(())
    }

    fn finish(mut self, agg: &Agg) -> Val {
        match agg.kind {
            AggKind::CountStar | AggKind::Count => Val::Int(self.count),
            AggKind::Sum if !self.floats && !self.int_overflow => Val::Int(self.int_sum),
            AggKind::Sum => Val::Float(self.float_sum),
            AggKind::Avg if self.count == 0 => Val::Null,
            AggKind::Avg => Val::Float(self.float_sum / self.count as f64),
            AggKind::Min | AggKind::Max => self.items.pop().unwrap_or(Val::Null),
            // The items were counted as kept when they were added.
            AggKind::Collect => Val::list_counted(self.items),
            AggKind::StDev | AggKind::StDevP => {
                super::functions::std_dev(&self.items, agg.kind == AggKind::StDevP)
            }
            AggKind::PercentileCont(p) => super::functions::percentile(self.items, p, true),
            AggKind::PercentileDisc(p) => super::functions::percentile(self.items, p, false),
        }
    }
}
