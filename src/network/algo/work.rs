//! Executing a plan with several workers: claiming ready tasks under leases,
//! completing, releasing and renewing claims, and progress.
//!
//! A plan is a network whose nodes are tasks and whose edges say which task needs
//! which first (as in [`Network::ready_nodes`]). The state of each task lives in
//! its own attributes, named by [`WorkAttributes`], so that every other tool and
//! format sees it, and durable mode keeps it like any other write:
//!
//! * **done**: the node has every attribute value of [`WorkAttributes::done`]
//!   (by default `"status": "done"`);
//! * **claimed**: not done, and [`WorkAttributes::claimed_by`] names a worker whose
//!   lease ([`WorkAttributes::lease_expires`], milliseconds since the Unix epoch)
//!   has not run out;
//! * **ready**: not done, not claimed, every prerequisite done (a parent's
//!   children included), and no other task of its exclusion group claimed. A claim whose
//!   lease ran out no longer holds its task: the task is ready again (or blocked,
//!   if a prerequisite was reopened since);
//! * **excluded**: would be ready, but another task of its exclusion group
//!   ([`WorkAttributes::exclusion`]) is claimed: tasks that share a value of
//!   that attribute (migrations of one database, say) run one at a time;
//! * **blocked**: not done, not claimed, and waiting on a prerequisite.
//!
//! **Parents.** A task may name its parent (an epic) by node id in
//! [`WorkAttributes::parent`]. A parent's children are prerequisites of it: it
//! is blocked until every child is done, then ready like any task (a worker
//! claims and closes it, a review say), or completed with its last child
//! ([`Parents::Complete`]). A parent id that names no node is ignored. Parent
//! chains that loop make every task of the loop wait on the next: blocked for
//! good, as in a cycle of edges. Nothing walks parent chains recursively.
//!
//! **Exclusion groups.** While a task of a group is claimed (lease not run out,
//! not done), the other tasks of its group are not ready; completing or
//! releasing it, or its lease running out, frees the group. Claims never take
//! two tasks of one group, but writes of the attributes by other tools can
//! leave two claimed at once: both stay claimed, and no other task of the group
//! is ready until both end.
//!
//! Time is an argument (`now`, milliseconds since the Unix epoch): the core reads no
//! clock, so that the same calls at the same times give the same state, which is
//! what a journal replay needs. A worker still holds a claim whose lease ran out as
//! long as no other worker took it: it may complete, renew or release it.
//! `claimed_by` stays on a completed task as the record of who did it.
//!
//! Every call checks all its input before it changes anything: a failed call
//! changes nothing.

use std::borrow::Cow;

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::EdgeRef;
use serde_json::{Map, Value};

use super::critical::CriticalPath;
use super::options::{TaskOrder, TaskSelection, priority_rank};
use crate::error::{Error, Result};
use crate::network::graph::{
    Attributes, Direction, Frontier, Network, Ranked, RelationFilter, validate,
};
pub use crate::network::graph::{Group, PlanIndex};

/// Where a plan keeps the state of its tasks, and which way its edges point.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkAttributes {
    /// The attribute values that make a task done; completing sets them.
    /// Default: `{"status": "done"}`.
    pub done: Map<String, Value>,
    /// The attribute naming the worker that holds a task. Default: `"claimed_by"`.
    pub claimed_by: String,
    /// The attribute holding the end of a claim's lease, in milliseconds since the
    /// Unix epoch. Default: `"lease_expires_ms"`.
    pub lease_expires: String,
    /// Which neighbours a task needs first: [`Direction::Out`] when `A → B` means
    /// A needs B (the default), [`Direction::In`] when it means A comes before B.
    pub prerequisites: Direction,
    /// Which edges make prerequisites, by relation type (default: every edge).
    /// An edge the filter does not keep holds no task back.
    pub relations: RelationFilter,
    /// The attribute naming a task's parent (its epic) by node id: a parent
    /// waits on its children. Default: `"parent"`.
    pub parent: String,
    /// The attribute naming a task's exclusion group (a string or a number; a
    /// task without it, or with another value, is in no group): tasks of one
    /// group are claimed one at a time. Default: `"exclusion_group"`.
    pub exclusion: String,
}

impl Default for WorkAttributes {
    fn default() -> Self {
        let mut done = Map::new();
        done.insert("status".into(), Value::from("done"));
        WorkAttributes {
            done,
            claimed_by: "claimed_by".into(),
            lease_expires: "lease_expires_ms".into(),
            prerequisites: Direction::Out,
            relations: RelationFilter::all(),
            parent: "parent".into(),
            exclusion: "exclusion_group".into(),
        }
    }
}

impl WorkAttributes {
    /// Checks the names: valid attribute keys, `done` not empty, and no attribute
    /// used for two things.
    pub fn validate(&self) -> Result<()> {
        validate::attributes("done_attributes", &self.done)?;
        if self.done.is_empty() {
            return Err(Error::InvalidValue {
                field: "done_attributes".into(),
                reason: "it is empty, so every task would count as done; give the attribute values a done task has, e.g. {\"status\": \"done\"}".into(),
            });
        }
        let named = [
            ("claim_attribute", &self.claimed_by),
            ("lease_attribute", &self.lease_expires),
            ("parent_attribute", &self.parent),
            ("exclusion_attribute", &self.exclusion),
        ];
        for (field, name) in named {
            validate::id(field, name)?;
        }
        // The first name that repeats an earlier one, or a done attribute.
        let clash = named.iter().enumerate().find(|(i, (_, name))| {
            self.done.contains_key(name.as_str()) || named[..*i].iter().any(|(_, n)| n == name)
        });
        if let Some((_, (field, name))) = clash {
            return Err(Error::InvalidValue {
                field: (*field).into(),
                reason: format!(
                    "attribute '{name}' is already used for another part of the state; done_attributes, claim_attribute, lease_attribute, parent_attribute and exclusion_attribute must name different attributes"
                ),
            });
        }
        Ok(())
    }

    /// Which way to look from a task for its prerequisites.
    fn needs(&self) -> &'static [petgraph::Direction] {
        match self.prerequisites {
            Direction::Out => &[Outgoing],
            Direction::In => &[Incoming],
            Direction::Both => &[Outgoing, Incoming],
        }
    }

    /// Which way to look from a task for the tasks that need it.
    fn needed_by(&self) -> &'static [petgraph::Direction] {
        match self.prerequisites {
            Direction::Out => &[Incoming],
            Direction::In => &[Outgoing],
            Direction::Both => &[Outgoing, Incoming],
        }
    }
}

/// The state of one task at one time (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskState {
    /// Done.
    Done,
    /// Held by a worker whose lease has not run out.
    Claimed,
    /// Can be claimed now.
    Ready,
    /// Would be ready, but another task of its exclusion group is claimed.
    Excluded,
    /// Waits on a prerequisite that is not done (a child, for a parent).
    Blocked,
}

/// What completing a task does to its parent (see [`Network::complete_claimed_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Parents {
    /// Leave it: once its last child is done it is ready, for a worker to
    /// claim and close.
    #[default]
    Leave,
    /// Complete it too when its last child is done, and so on up the chain.
    Complete,
}

/// One task a claim took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    /// The task.
    pub node: NodeIndex,
    /// The worker whose lease on it had run out, if any.
    pub taken_from: Option<String>,
}

/// What [`Network::complete_claimed`] did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Completion {
    /// The tasks it marked done, in the order given.
    pub completed: Vec<NodeIndex>,
    /// The tasks this worker had completed before (a repeated call), in the order given.
    pub already_done: Vec<NodeIndex>,
    /// The tasks that became ready because of it, sorted by index: those
    /// whose last prerequisite or child it completed, and those of an
    /// exclusion group it freed.
    pub newly_ready: Vec<NodeIndex>,
    /// The parents completed with their last child ([`Parents::Complete`]),
    /// nearest first.
    pub parents_completed: Vec<NodeIndex>,
}

/// How far a plan is, from [`Network::work_progress`].
#[derive(Debug, Clone, PartialEq)]
pub struct WorkProgress {
    /// Tasks done.
    pub done: usize,
    /// Tasks held under a lease that has not run out.
    pub claimed: usize,
    /// Tasks that can be claimed now.
    pub ready: usize,
    /// Tasks waiting on a prerequisite.
    pub blocked: usize,
    /// Tasks held back by a claimed task of their exclusion group.
    pub excluded: usize,
    /// Claims whose lease ran out and that no worker took again: their tasks count
    /// as ready (or blocked).
    pub expired: usize,
    /// Every task not done that names a worker, whose lease holds or ran out,
    /// sorted by index: a list that changes only when the network does, not
    /// as time passes, so that it pages exactly.
    pub claims: Vec<NodeIndex>,
}

impl WorkProgress {
    /// Whether every task is done.
    pub fn finished(&self) -> bool {
        self.claimed == 0 && self.ready == 0 && self.blocked == 0 && self.excluded == 0
    }
}

impl Frontier {
    fn matches(&self, version: u64, spec: &WorkAttributes) -> bool {
        self.key
            .as_ref()
            .is_some_and(|(v, done, d, relations, names)| {
                *v == version
                    && *done == spec.done
                    && *d == spec.prerequisites
                    && *relations == spec.relations
                    && names[0] == spec.claimed_by
                    && names[1] == spec.parent
                    && names[2] == spec.exclusion
            })
    }
}

/// Why a claim came back short, from [`Network::claim_ready_counted`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    /// Ready tasks the claim's filter did not admit (0 without a filter).
    pub unmatched: usize,
    /// Tasks held under a live lease.
    pub claimed: usize,
    /// Tasks waiting on a prerequisite.
    pub blocked: usize,
    /// Tasks that would be ready but for a claimed task of their exclusion group.
    pub excluded: usize,
    /// One of those groups, and the claimed task holding it.
    pub exclusion: Option<(Group, NodeIndex)>,
    /// Tasks done.
    pub done: usize,
    /// Whether every task is done.
    pub finished: bool,
    /// The earliest end of a live lease held by another worker than the one claiming.
    pub next_lease_end: Option<u64>,
}

impl Network {
    /// Whether task `ix` has every done attribute value.
    pub(crate) fn is_done(&self, ix: NodeIndex, spec: &WorkAttributes) -> bool {
        let attributes = &self.graph()[ix].attributes;
        spec.done.iter().all(|(k, v)| attributes.get(k) == Some(v))
    }

    /// The worker named on task `ix` and the end of its lease (0 when the lease
    /// attribute is missing or not a whole number: such a claim has run out).
    pub fn claim_on(&self, ix: NodeIndex, spec: &WorkAttributes) -> Option<(&str, u64)> {
        let attributes = &self.graph().node_weight(ix)?.attributes;
        let worker = attributes.get(&spec.claimed_by)?.as_str()?;
        let expires = attributes
            .get(&spec.lease_expires)
            .and_then(Value::as_u64)
            .unwrap_or(0);
        Some((worker, expires))
    }

    /// Whether task `ix` is held under a lease that has not run out at `now`.
    fn is_held(&self, ix: NodeIndex, spec: &WorkAttributes, now: u64) -> bool {
        self.claim_on(ix, spec)
            .is_some_and(|(_, expires)| expires > now)
    }

    /// Whether every prerequisite of task `ix` by an edge is done (a self-loop
    /// makes a task its own prerequisite).
    fn edge_prerequisites_done(&self, ix: NodeIndex, spec: &WorkAttributes) -> bool {
        spec.needs()
            .iter()
            .all(|&d| self.related(ix, d, spec).all(|w| self.is_done(w, spec)))
    }

    /// Whether every prerequisite of task `ix` is done: its edges', and its
    /// children by `index`'s count. O(degree).
    fn prerequisites_done_in(
        &self,
        index: &PlanIndex,
        ix: NodeIndex,
        spec: &WorkAttributes,
    ) -> bool {
        !index.unfinished.contains_key(&ix) && self.edge_prerequisites_done(ix, spec)
    }

    /// Task `ix`'s prerequisites: by edges, then its children.
    fn prerequisites_of<'s>(
        &'s self,
        index: &'s PlanIndex,
        ix: NodeIndex,
        spec: &'s WorkAttributes,
    ) -> impl Iterator<Item = NodeIndex> + 's {
        spec.needs()
            .iter()
            .flat_map(move |&d| self.related(ix, d, spec))
            .chain(index.children.get(&ix).into_iter().flatten().copied())
    }

    /// The tasks that need task `ix`: by edges, then its parent.
    fn dependents_of<'s>(
        &'s self,
        ix: NodeIndex,
        spec: &'s WorkAttributes,
    ) -> impl Iterator<Item = NodeIndex> + 's {
        spec.needed_by()
            .iter()
            .flat_map(move |&d| self.related(ix, d, spec))
            .chain(self.parent_of(ix, spec))
    }

    /// The node task `ix` names as its parent, if its parent attribute names
    /// one: a string is a node id, a number the node whose id is that number
    /// as JSON writes it.
    pub fn parent_of(&self, ix: NodeIndex, spec: &WorkAttributes) -> Option<NodeIndex> {
        // The one reading of a parent, shared with the roll-ups and the epic
        // level, so that a number names the same parent everywhere.
        self.parent_named(ix, &spec.parent)
    }

    /// Task `ix`'s exclusion group: a string or number value of the exclusion
    /// attribute.
    pub fn group_of(&self, ix: NodeIndex, spec: &WorkAttributes) -> Option<Group> {
        match self
            .graph()
            .node_weight(ix)?
            .attributes
            .get(&spec.exclusion)?
        {
            Value::String(text) => Some(Group::Text(text.as_str().into())),
            Value::Number(n) => Some(Group::Number(n.to_string().into())),
            _ => None,
        }
    }

    /// The parents, children and exclusion groups of the plan: what
    /// [`Network::task_state_in`] reads beside a task's own edges. O(V).
    ///
    /// # Errors
    /// [`WorkAttributes::validate`]'s.
    pub fn plan_index(&self, spec: &WorkAttributes) -> Result<PlanIndex> {
        spec.validate()?;
        Ok(self.build_plan_index(spec))
    }

    /// [`Network::plan_index`], borrowed from what the last work call kept
    /// when it is current (no other kind of write since, and the same `spec`):
    /// then O(1), else built in O(V). A read that asks about several tasks
    /// takes it once and passes it to [`Network::task_state_in`].
    ///
    /// # Errors
    /// [`WorkAttributes::validate`]'s.
    pub fn plan_index_shared(&self, spec: &WorkAttributes) -> Result<Cow<'_, PlanIndex>> {
        spec.validate()?;
        Ok(self.shared_plan_index(spec))
    }

    fn shared_plan_index(&self, spec: &WorkAttributes) -> Cow<'_, PlanIndex> {
        if self.frontier().matches(self.version(), spec) {
            Cow::Borrowed(&self.frontier().plan)
        } else {
            Cow::Owned(self.build_plan_index(spec))
        }
    }

    fn build_plan_index(&self, spec: &WorkAttributes) -> PlanIndex {
        let mut index = PlanIndex::default();
        for ix in self.graph().node_indices() {
            crate::budget::charge(1);
            let done = self.is_done(ix, spec);
            if let Some(parent) = self.parent_of(ix, spec) {
                index.children.entry(parent).or_default().push(ix);
                if !done {
                    *index.unfinished.entry(parent).or_default() += 1;
                }
            }
            if let Some(group) = self.group_of(ix, spec) {
                if !done && self.claim_on(ix, spec).is_some() {
                    index.named.entry(group.clone()).or_default().push(ix);
                }
                index.members.entry(group).or_default().push(ix);
            }
        }
        index
    }

    /// The claimed task (lease live at `now`, not done) that holds the
    /// exclusion group of task `ix`, if another than `ix` does. O(the named
    /// tasks of its group), usually one.
    pub fn exclusion_holder_in(
        &self,
        index: &PlanIndex,
        ix: NodeIndex,
        spec: &WorkAttributes,
        now: u64,
    ) -> Option<NodeIndex> {
        let group = self.group_of(ix, spec)?;
        self.group_holder(index, &group, Some(ix), spec, now)
    }

    /// The first task of `group` held at `now`, other than `except`.
    fn group_holder(
        &self,
        index: &PlanIndex,
        group: &Group,
        except: Option<NodeIndex>,
        spec: &WorkAttributes,
        now: u64,
    ) -> Option<NodeIndex> {
        index
            .named
            .get(group)?
            .iter()
            .copied()
            .find(|&t| Some(t) != except && self.is_held(t, spec, now))
    }

    /// The state of task `ix` at time `now`, with `index` from
    /// [`Network::plan_index`] for the same `spec`. O(degree + the named
    /// tasks of its group).
    pub fn task_state_in(
        &self,
        index: &PlanIndex,
        ix: NodeIndex,
        spec: &WorkAttributes,
        now: u64,
    ) -> TaskState {
        if self.is_done(ix, spec) {
            TaskState::Done
        } else if self.is_held(ix, spec, now) {
            TaskState::Claimed
        } else if !self.prerequisites_done_in(index, ix, spec) {
            TaskState::Blocked
        } else if self.exclusion_holder_in(index, ix, spec, now).is_some() {
            TaskState::Excluded
        } else {
            TaskState::Ready
        }
    }

    /// The neighbours of task `ix` along `d` by edges that `spec.relations` keeps.
    fn related<'s>(
        &'s self,
        ix: NodeIndex,
        d: petgraph::Direction,
        spec: &'s WorkAttributes,
    ) -> impl Iterator<Item = NodeIndex> + 's {
        self.graph()
            .edges_directed(ix, d)
            .filter(|e| spec.relations.keeps(e.weight()))
            .map(move |e| {
                if e.source() == ix {
                    e.target()
                } else {
                    e.source()
                }
            })
    }

    /// The state of task `ix` at time `now`. O(degree) after a work call
    /// (claim, complete, release, renew) with the same `spec` and no other
    /// kind of write since, whose index of parents and groups it reads; else
    /// O(V), to index them first. To ask about many tasks, take the index
    /// once ([`Network::plan_index_shared`]) and use
    /// [`Network::task_state_in`]: O(V + k) for k tasks, not O(k × V).
    pub fn task_state(&self, ix: NodeIndex, spec: &WorkAttributes, now: u64) -> TaskState {
        self.task_state_in(&self.shared_plan_index(spec), ix, spec, now)
    }

    /// Claims up to `count` ready tasks for `worker`, each with a lease that ends
    /// `lease_ms` milliseconds after `now`: sets the claim and lease attributes and
    /// returns the tasks. Ready means not done, every prerequisite done (a
    /// parent's children included), not held by a lease that has not run out
    /// (an expired claim is taken over), and no other task of its exclusion
    /// group held; one claim takes at most one task of a group. Fewer than
    /// `count` (or none) when fewer are ready.
    ///
    /// Order: the first ready tasks by index (insertion order), as
    /// [`Network::ready_nodes`] lists them. Complexity: see
    /// [`Network::claim_ready_counted`].
    ///
    /// ```
    /// use networks_mcp::network::{Network, work::WorkAttributes};
    ///
    /// // "app" needs "lib"; "lib" needs "log".
    /// let mut net = Network::new();
    /// net.add_nodes(["app", "lib", "log"])?;
    /// net.add_edge("app", "lib", 1.0)?;
    /// net.add_edge("lib", "log", 1.0)?;
    /// let plan = WorkAttributes::default();
    ///
    /// let claimed = net.claim_ready(&plan, "w1", 5, 60_000, 1_000)?;
    /// assert_eq!(claimed.len(), 1);
    /// assert_eq!(net.id_at(claimed[0].node), "log");
    /// // Held: nobody else gets it until its lease runs out at 61,000 ms.
    /// assert!(net.claim_ready(&plan, "w2", 5, 60_000, 2_000)?.is_empty());
    /// let done = net.complete_claimed(&plan, "w1", &["log"], 3_000)?;
    /// assert_eq!(net.ids(&done.newly_ready), ["lib"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn claim_ready(
        &mut self,
        spec: &WorkAttributes,
        worker: &str,
        count: usize,
        lease_ms: u64,
        now: u64,
    ) -> Result<Vec<Claimed>> {
        self.claim_ready_counted(spec, worker, count, lease_ms, now)
            .map(|(claimed, _)| claimed)
    }

    /// [`Network::claim_ready`], and when it took fewer than `count` tasks, why:
    /// the state of the rest of the plan.
    ///
    /// Complexity: O(V + E) on the first work call at a version that another
    /// kind of write made (to build the frontier); then O(log V + h + k), h being
    /// the tasks skipped before the k-th ready task in insertion order: those
    /// held, and those whose exclusion group is held. A task of a held group
    /// is skipped once: the claim that meets it parks it (O(log V)) until the
    /// group is freed (its holder completed or released, or the hold's last
    /// lease run out), so a long-held group costs the claims after it
    /// nothing. O(C) more for the reason when the claim comes back short, C
    /// the tasks whose prerequisites are done. Each task looked at is one
    /// step of the call's budget ([`crate::budget::charge`]).
    pub fn claim_ready_counted(
        &mut self,
        spec: &WorkAttributes,
        worker: &str,
        count: usize,
        lease_ms: u64,
        now: u64,
    ) -> Result<(Vec<Claimed>, Option<Waiting>)> {
        self.claim_ready_selected(
            spec,
            &TaskSelection::default(),
            worker,
            count,
            lease_ms,
            now,
        )
    }

    /// [`Network::claim_ready_counted`] choosing among the ready tasks: only
    /// those `selection`'s filter admits, first in its order (see
    /// [`TaskOrder`]; the default selection claims as
    /// [`Network::claim_ready`]). `Waiting::unmatched` counts the ready tasks
    /// the filter left.
    ///
    /// Complexity: as [`Network::claim_ready_counted`], plus the tasks the
    /// filter skips before the k-th it admits. The first call in an order
    /// other than insertion ranks the frontier's candidates (O(C log C + their
    /// edges)); the work calls keep that ranking from then on, at O(log V +
    /// degree) per task that enters or leaves it, until a call asks for
    /// another order or another kind of write moves the version.
    ///
    /// ```
    /// use networks_mcp::network::{Network, NodeSpec, TaskOrder, TaskSelection, work::WorkAttributes};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes([
    ///     NodeSpec::new("docs"),
    ///     NodeSpec::new("feature").with_attribute("priority", 2),
    ///     NodeSpec::new("fix").with_attribute("priority", 0),
    /// ])?;
    /// let by_priority = TaskSelection {
    ///     order: TaskOrder::Priority("priority".into()),
    ///     ..TaskSelection::default()
    /// };
    /// let plan = WorkAttributes::default();
    /// let (claimed, _) = net.claim_ready_selected(&plan, &by_priority, "w1", 3, 60_000, 0)?;
    /// // Lower number first; "docs" has no priority: last.
    /// assert_eq!(net.ids(&claimed.iter().map(|c| c.node).collect::<Vec<_>>()), ["fix", "feature", "docs"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn claim_ready_selected(
        &mut self,
        spec: &WorkAttributes,
        selection: &TaskSelection,
        worker: &str,
        count: usize,
        lease_ms: u64,
        now: u64,
    ) -> Result<(Vec<Claimed>, Option<Waiting>)> {
        spec.validate()?;
        validate::id("worker", worker)?;
        validate_selection(spec, selection)?;
        self.ensure_frontier(spec);
        self.ensure_ranked(spec, &selection.order);
        self.wake_parked(spec, now);
        let lease_ms = lease_ms.max(1);
        let filter = &selection.filter;
        let mut chosen = Vec::new();
        // The groups this claim took a task of: at most one task each.
        let mut taken: Vec<Group> = Vec::new();
        // Candidates met whose group is held: parked after the claim, so that
        // the next claims do not meet them again while it is.
        let mut to_park: Vec<(NodeIndex, Group)> = Vec::new();
        let mut take = |net: &Self, ix: NodeIndex| {
            if chosen.len() >= count {
                return false;
            }
            crate::budget::charge(1);
            if net.is_held(ix, spec, now) || !filter.admits(&net.graph()[ix].attributes) {
                return true;
            }
            let group = net.group_of(ix, spec);
            if let Some(group) = group {
                let plan = &net.frontier().plan;
                if taken.contains(&group)
                    || net
                        .group_holder(plan, &group, Some(ix), spec, now)
                        .is_some()
                {
                    to_park.push((ix, group));
                    return true;
                }
                taken.push(group);
            }
            let taken_from = net.claim_on(ix, spec).map(|(w, _)| w.to_string());
            chosen.push(Claimed {
                node: ix,
                taken_from,
            });
            true
        };
        match (&selection.order, &self.frontier().ranked) {
            (TaskOrder::Insertion, _) | (_, None) => {
                for &ix in &self.frontier().candidates {
                    if !take(self, ix) {
                        break;
                    }
                }
            }
            (_, Some(ranked)) => {
                for &(_, _, ix) in &ranked.order {
                    if !take(self, ix) {
                        break;
                    }
                }
            }
        }
        let expires = now.saturating_add(lease_ms);
        for claimed in &chosen {
            self.set_work_attributes(
                claimed.node,
                [
                    (spec.claimed_by.as_str(), Value::from(worker)),
                    (spec.lease_expires.as_str(), Value::from(expires)),
                ],
                &[],
            );
            if let Some(group) = self.group_of(claimed.node, spec) {
                let named = self.frontier_mut().plan.named.entry(group).or_default();
                if !named.contains(&claimed.node) {
                    named.push(claimed.node);
                }
            }
        }
        for (ix, group) in to_park {
            self.park(ix, group, spec, now);
        }
        self.frontier_at_current_version();
        let waiting = (chosen.len() < count).then(|| {
            let frontier = self.frontier();
            // The candidates, parked ones included, in index order.
            let mut all: Vec<NodeIndex> = frontier
                .parked
                .values()
                .flat_map(|p| p.tasks.iter().copied())
                .collect();
            let parked_count = all.len();
            all.extend(frontier.candidates.iter().copied());
            all.sort_unstable();
            let held: Vec<(NodeIndex, &str, u64)> = all
                .iter()
                .chain(&frontier.named_blocked)
                .filter_map(|&ix| self.claim_on(ix, spec).map(|(w, e)| (ix, w, e)))
                .filter(|&(_, _, expires)| expires > now)
                .collect();
            let held_blocked = held
                .iter()
                .filter(|(ix, _, _)| frontier.named_blocked.contains(ix))
                .count();
            let total = self.node_count();
            let not_candidates = total - frontier.done - frontier.candidates.len() - parked_count;
            let (mut unmatched, mut excluded, mut exclusion) = (0, 0, None);
            for &ix in &all {
                if self.is_held(ix, spec, now) {
                    continue;
                }
                if let Some(holder) = self.exclusion_holder_in(&frontier.plan, ix, spec, now) {
                    excluded += 1;
                    if exclusion.is_none() {
                        exclusion = self.group_of(ix, spec).map(|g| (g, holder));
                    }
                } else if !filter.admits(&self.graph()[ix].attributes) {
                    unmatched += 1;
                }
            }
            Waiting {
                unmatched,
                excluded,
                exclusion,
                claimed: held.len(),
                blocked: not_candidates - held_blocked,
                done: frontier.done,
                finished: frontier.done == total,
                next_lease_end: held
                    .iter()
                    .filter(|(_, w, _)| *w != worker)
                    .map(|&(_, _, e)| e)
                    .min(),
            }
        });
        Ok((chosen, waiting))
    }

    /// When `group`'s hold ends as seen at `now`: the last end of a live
    /// lease on one of its named tasks; `None` when none holds it.
    fn hold_end(&self, group: &Group, spec: &WorkAttributes, now: u64) -> Option<u64> {
        self.frontier()
            .plan
            .named
            .get(group)?
            .iter()
            .filter_map(|&t| self.claim_on(t, spec).map(|(_, expires)| expires))
            .filter(|&expires| expires > now)
            .max()
    }

    /// Parks candidate `ix`, whose exclusion group `group` another task holds
    /// at `now`: out of the candidates and the ranking until the group is
    /// freed. O(log V) (and O(the group's named tasks) for the hold's end).
    fn park(&mut self, ix: NodeIndex, group: Group, spec: &WorkAttributes, now: u64) {
        let Some(until) = self.hold_end(&group, spec, now) else {
            return;
        };
        if !self.frontier_mut().candidates.remove(&ix) {
            return;
        }
        self.unrank(ix);
        let frontier = self.frontier_mut();
        let parked = frontier.parked.entry(group.clone()).or_default();
        parked.tasks.push(ix);
        if parked.until != until {
            parked.until = until;
            frontier.wakes.entry(until).or_default().push(group);
        }
    }

    /// Puts `group`'s parked tasks back among the candidates (and in the
    /// ranking): the group is free, or may be. O(its parked tasks × log V).
    fn unpark(&mut self, group: &Group, spec: &WorkAttributes) {
        let Some(parked) = self.frontier_mut().parked.remove(group) else {
            return;
        };
        for ix in parked.tasks {
            self.frontier_mut().candidates.insert(ix);
            self.rank(ix, spec);
        }
    }

    /// Sets when parked `group` wakes to its hold's end as seen at `now`
    /// (a lease renewed, shorter or longer), or puts its tasks back if
    /// nothing holds it.
    fn rehold(&mut self, group: &Group, spec: &WorkAttributes, now: u64) {
        if !self.frontier().parked.contains_key(group) {
            return;
        }
        match self.hold_end(group, spec, now) {
            Some(until) => {
                let frontier = self.frontier_mut();
                if let Some(parked) = frontier.parked.get_mut(group)
                    && parked.until != until
                {
                    parked.until = until;
                    frontier.wakes.entry(until).or_default().push(group.clone());
                }
            }
            None => self.unpark(group, spec),
        }
    }

    /// Looks again at the parked groups whose hold's end has come by `now`:
    /// a group still held (a lease renewed, or another claim) stays parked
    /// until its new end; the others' tasks are candidates again.
    fn wake_parked(&mut self, spec: &WorkAttributes, now: u64) {
        while let Some(entry) = self.frontier_mut().wakes.first_entry() {
            if *entry.key() > now {
                break;
            }
            let (at, groups) = entry.remove_entry();
            for group in groups {
                let current = self.frontier().parked.get(&group).map(|p| p.until);
                if current != Some(at) {
                    continue;
                }
                match self.hold_end(&group, spec, now) {
                    Some(until) => {
                        let frontier = self.frontier_mut();
                        if let Some(parked) = frontier.parked.get_mut(&group) {
                            parked.until = until;
                        }
                        frontier.wakes.entry(until).or_default().push(group);
                    }
                    None => self.unpark(&group, spec),
                }
            }
        }
    }

    /// Builds the frontier unless it is current for this version and `spec`.
    fn ensure_frontier(&mut self, spec: &WorkAttributes) {
        if self.frontier().matches(self.version(), spec) {
            return;
        }
        let mut frontier = Frontier {
            key: Some((
                self.version(),
                spec.done.clone(),
                spec.prerequisites,
                spec.relations.clone(),
                [
                    spec.claimed_by.clone(),
                    spec.parent.clone(),
                    spec.exclusion.clone(),
                ],
            )),
            plan: self.build_plan_index(spec),
            ..Frontier::default()
        };
        for ix in self.graph().node_indices() {
            if self.is_done(ix, spec) {
                frontier.done += 1;
            } else if self.prerequisites_done_in(&frontier.plan, ix, spec) {
                frontier.candidates.insert(ix);
            } else if self.claim_on(ix, spec).is_some() {
                frontier.named_blocked.insert(ix);
            }
        }
        *self.frontier_mut() = frontier;
    }

    /// Ranks the frontier's candidates for `order` unless they are ranked for
    /// it already (insertion order needs no ranking).
    fn ensure_ranked(&mut self, spec: &WorkAttributes, order: &TaskOrder) {
        let priority = match order {
            TaskOrder::Insertion => return,
            TaskOrder::Impact => None,
            TaskOrder::Priority(attribute) => Some(attribute.clone()),
        };
        if self
            .frontier()
            .ranked
            .as_ref()
            .is_some_and(|r| r.priority == priority)
        {
            return;
        }
        let mut ranked = Ranked {
            priority,
            ..Ranked::default()
        };
        for &ix in &self.frontier().candidates {
            let key = self.rank_key(ix, spec, ranked.priority.as_deref());
            ranked.order.insert((key.0, key.1, ix));
            ranked.keys.insert(ix, key);
        }
        self.frontier_mut().ranked = Some(ranked);
    }

    /// Task `ix`'s key in a ranking by `priority`: its priority rank, then
    /// its impact, most first.
    fn rank_key(&self, ix: NodeIndex, spec: &WorkAttributes, priority: Option<&str>) -> (u64, u64) {
        let mut dependents: Vec<NodeIndex> = self
            .dependents_of(ix, spec)
            .filter(|&w| w != ix && !self.is_done(w, spec))
            .collect();
        dependents.sort_unstable();
        dependents.dedup();
        (
            priority_rank(&self.graph()[ix].attributes, priority),
            u64::MAX - dependents.len() as u64,
        )
    }

    /// Adds candidate `ix` to the frontier's ranking, if it keeps one.
    fn rank(&mut self, ix: NodeIndex, spec: &WorkAttributes) {
        let Some(priority) = self.frontier().ranked.as_ref().map(|r| r.priority.clone()) else {
            return;
        };
        let key = self.rank_key(ix, spec, priority.as_deref());
        if let Some(ranked) = self.frontier_mut().ranked.as_mut()
            && ranked.keys.insert(ix, key).is_none()
        {
            ranked.order.insert((key.0, key.1, ix));
        }
    }

    /// Takes `ix` out of the frontier's ranking, if it is in it.
    fn unrank(&mut self, ix: NodeIndex) {
        if let Some(ranked) = self.frontier_mut().ranked.as_mut()
            && let Some(key) = ranked.keys.remove(&ix)
        {
            ranked.order.remove(&(key.0, key.1, ix));
        }
    }

    /// Records that the frontier, updated by a work call, is that of the
    /// version the call left the network at.
    fn frontier_at_current_version(&mut self) {
        let version = self.version();
        if let Some((v, _, _, _, _)) = self.frontier_mut().key.as_mut() {
            *v = version;
        }
    }

    /// Marks the tasks `ids`, held by `worker`, done: sets the done attributes and
    /// removes the lease (the claim attribute stays, naming who did it). Returns
    /// them and the tasks that became ready at `now` because of them. Repeating the call is
    /// harmless: tasks this worker already completed are reported as such.
    /// A parent whose last child this completes becomes ready (as
    /// [`Network::complete_claimed_with`] with [`Parents::Leave`]).
    ///
    /// # Errors
    /// Unknown ids, all named; [`Error::ClaimNotHeld`] naming every task the worker
    /// does not hold (claimed by another, not claimed, or done by another). A
    /// worker still holds a task whose lease ran out if nobody took it since.
    ///
    /// Complexity: O(k + the edges around the k tasks and their dependents).
    pub fn complete_claimed(
        &mut self,
        spec: &WorkAttributes,
        worker: &str,
        ids: &[&str],
        now: u64,
    ) -> Result<Completion> {
        self.complete_claimed_with(spec, worker, ids, now, Parents::Leave)
    }

    /// [`Network::complete_claimed`], and with [`Parents::Complete`], a parent
    /// whose last child not done this completes is completed too (the done
    /// attributes set, its lease removed), then its own parent in turn, up the
    /// chain: one step at a time, never recursively, each parent at most once.
    /// `Completion::parents_completed` lists them.
    ///
    /// Complexity: O(k + p + the edges around them and their dependents), p
    /// the parents completed; each task completed costs O(1) more for its
    /// parent (a count of children not done is kept per parent), and one that
    /// frees its exclusion group O(the group's size) to find who is ready now.
    ///
    /// ```
    /// use networks_mcp::network::{Network, NodeSpec, work::{Parents, WorkAttributes}};
    ///
    /// // An epic with two migrations of one database: one at a time.
    /// let mut net = Network::new();
    /// net.add_nodes([
    ///     NodeSpec::new("epic"),
    ///     NodeSpec::new("m1").with_attribute("parent", "epic").with_attribute("exclusion_group", "db"),
    ///     NodeSpec::new("m2").with_attribute("parent", "epic").with_attribute("exclusion_group", "db"),
    /// ])?;
    /// let plan = WorkAttributes::default();
    /// let claimed = net.claim_ready(&plan, "w1", 3, 60_000, 0)?;
    /// assert_eq!(net.id_at(claimed[0].node), "m1");
    /// assert_eq!(claimed.len(), 1); // m2 waits for the group, the epic for both
    /// let done = net.complete_claimed_with(&plan, "w1", &["m1"], 1, Parents::Complete)?;
    /// assert_eq!(net.ids(&done.newly_ready), ["m2"]);
    /// net.claim_ready(&plan, "w1", 1, 60_000, 2)?;
    /// let done = net.complete_claimed_with(&plan, "w1", &["m2"], 3, Parents::Complete)?;
    /// assert_eq!(net.ids(&done.parents_completed), ["epic"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn complete_claimed_with(
        &mut self,
        spec: &WorkAttributes,
        worker: &str,
        ids: &[&str],
        now: u64,
        parents: Parents,
    ) -> Result<Completion> {
        let tasks = self.held_tasks(spec, worker, ids, true)?;
        self.ensure_frontier(spec);
        let mut completion = Completion::default();
        // Tasks to mark done now: those asked, then the parents they finish.
        // A stack: a parent is completed right after its last child.
        let mut queue: Vec<(NodeIndex, bool)> = Vec::new();
        for &(ix, done) in tasks.iter().rev() {
            if done {
                completion.already_done.push(ix);
            } else {
                queue.push((ix, true));
            }
        }
        completion.already_done.reverse();
        let mut finished: Vec<NodeIndex> = Vec::new();
        let mut freed: Vec<Group> = Vec::new();
        while let Some((ix, asked)) = queue.pop() {
            if self.is_done(ix, spec) {
                continue;
            }
            let held_group = self
                .group_of(ix, spec)
                .filter(|_| self.is_held(ix, spec, now));
            let done_values = spec.done.iter().map(|(k, v)| (k.as_str(), v.clone()));
            self.set_work_attributes(ix, done_values, std::slice::from_ref(&spec.lease_expires));
            self.unrank(ix);
            let group = self.group_of(ix, spec);
            let parent = self.parent_of(ix, spec);
            let frontier = self.frontier_mut();
            frontier.candidates.remove(&ix);
            frontier.named_blocked.remove(&ix);
            frontier.done += 1;
            if let Some(group) = &group
                && let Some(named) = frontier.plan.named.get_mut(group)
            {
                named.retain(|&t| t != ix);
            }
            if let Some(group) = &group
                && let Some(parked) = frontier.parked.get_mut(group)
            {
                parked.tasks.retain(|&t| t != ix);
            }
            if let Some(group) = held_group
                && !freed.contains(&group)
            {
                freed.push(group);
            }
            if let Some(parent) = parent
                && let Some(left) = frontier.plan.unfinished.get_mut(&parent)
            {
                *left -= 1;
                if *left == 0 {
                    frontier.plan.unfinished.remove(&parent);
                    if parents == Parents::Complete && !self.is_done(parent, spec) {
                        queue.push((parent, false));
                    }
                }
            }
            finished.push(ix);
            if asked {
                completion.completed.push(ix);
            } else {
                completion.parents_completed.push(ix);
            }
        }
        let mut candidates: Vec<NodeIndex> = Vec::new();
        for &ix in &finished {
            candidates.extend(self.dependents_of(ix, spec));
        }
        candidates.sort_unstable();
        candidates.dedup();
        candidates.retain(|&ix| {
            !self.is_done(ix, spec) && self.prerequisites_done_in(&self.frontier().plan, ix, spec)
        });
        for &ix in &candidates {
            let frontier = self.frontier_mut();
            frontier.named_blocked.remove(&ix);
            frontier.candidates.insert(ix);
            self.rank(ix, spec);
        }
        if self.frontier().ranked.is_some() {
            // A completed task no longer counts in the impact of the tasks it
            // needed: usually none is a candidate (they are done), but a task
            // completed while a prerequisite was reopened leaves one behind.
            let mut needed: Vec<NodeIndex> = Vec::new();
            for &ix in &finished {
                needed.extend(self.prerequisites_of(&self.frontier().plan, ix, spec));
            }
            needed.sort_unstable();
            needed.dedup();
            for ix in needed {
                if self.frontier().candidates.contains(&ix) {
                    self.unrank(ix);
                    self.rank(ix, spec);
                }
            }
        }
        self.frontier_at_current_version();
        // A freed group's tasks that are candidates are ready again, unless
        // another claim of the group (written by hand) still holds it.
        for group in &freed {
            self.unpark(group, spec);
            let plan = &self.frontier().plan;
            if self.group_holder(plan, group, None, spec, now).is_some() {
                continue;
            }
            if let Some(members) = plan.members.get(group) {
                candidates.extend(members.iter().copied().filter(|ix| {
                    self.frontier().candidates.contains(ix) && !self.is_held(*ix, spec, now)
                }));
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        let plan = &self.frontier().plan;
        completion.newly_ready = candidates
            .into_iter()
            .filter(|&ix| {
                !self.is_held(ix, spec, now)
                    && self.exclusion_holder_in(plan, ix, spec, now).is_none()
            })
            .collect();
        Ok(completion)
    }

    /// Gives the tasks `ids`, held by `worker` and not done, back to the pool:
    /// removes their claim and lease attributes. Returns them in the order given.
    ///
    /// # Errors
    /// As [`Network::complete_claimed`]; a done task cannot be released.
    pub fn release_claimed(
        &mut self,
        spec: &WorkAttributes,
        worker: &str,
        ids: &[&str],
    ) -> Result<Vec<NodeIndex>> {
        let tasks = self.held_tasks(spec, worker, ids, false)?;
        self.ensure_frontier(spec);
        let removed = [spec.claimed_by.clone(), spec.lease_expires.clone()];
        for &(ix, _) in &tasks {
            self.set_work_attributes(ix, [], &removed);
            let group = self.group_of(ix, spec);
            let frontier = self.frontier_mut();
            frontier.named_blocked.remove(&ix);
            if let Some(group) = group {
                if let Some(named) = frontier.plan.named.get_mut(&group) {
                    named.retain(|&t| t != ix);
                }
                // The group may be free now: its parked tasks are candidates
                // again (the next claim parks them anew if it is not).
                self.unpark(&group, spec);
            }
        }
        self.frontier_at_current_version();
        Ok(tasks.into_iter().map(|(ix, _)| ix).collect())
    }

    /// Extends the leases of the tasks `ids`, held by `worker` and not done, to
    /// end `lease_ms` milliseconds after `now`. Returns them, deduplicated, in the
    /// order given.
    ///
    /// # Errors
    /// As [`Network::release_claimed`].
    pub fn renew_claimed(
        &mut self,
        spec: &WorkAttributes,
        worker: &str,
        ids: &[&str],
        lease_ms: u64,
        now: u64,
    ) -> Result<Vec<NodeIndex>> {
        let tasks = self.held_tasks(spec, worker, ids, false)?;
        self.ensure_frontier(spec);
        let expires = now.saturating_add(lease_ms.max(1));
        for &(ix, _) in &tasks {
            self.set_work_attributes(
                ix,
                [(spec.lease_expires.as_str(), Value::from(expires))],
                &[],
            );
            // A renewal may end a hold sooner than it would have: a parked
            // group wakes at its hold's end as it is now.
            if let Some(group) = self.group_of(ix, spec) {
                self.rehold(&group, spec, now);
            }
        }
        self.frontier_at_current_version();
        Ok(tasks.into_iter().map(|(ix, _)| ix).collect())
    }

    /// Why task `task` is not ready: [`Network::blockers`] along the edges
    /// `spec` follows, with each parent's children among its prerequisites
    /// (from `index`, built by [`Network::plan_index`] for `spec`). A parent
    /// chain that loops ends the walk as a cycle of edges does.
    /// Breadth-first: O(reached + their edges and children).
    pub fn task_blockers(
        &self,
        index: &PlanIndex,
        task: NodeIndex,
        spec: &WorkAttributes,
    ) -> crate::network::blocked::Blockers {
        self.blockers_following(
            task,
            spec.prerequisites,
            |w| self.is_done(w, spec),
            &spec.relations,
            |v| index.children.get(&v).map_or(&[][..], Vec::as_slice),
        )
    }

    /// Counts the tasks by state at time `now` and lists the claimed ones. O(V + E).
    pub fn work_progress(&self, spec: &WorkAttributes, now: u64) -> Result<WorkProgress> {
        spec.validate()?;
        let mut progress = WorkProgress {
            done: 0,
            claimed: 0,
            ready: 0,
            blocked: 0,
            excluded: 0,
            expired: 0,
            claims: Vec::new(),
        };
        let index = self.shared_plan_index(spec);
        for ix in self.graph().node_indices() {
            let state = self.task_state_in(&index, ix, spec, now);
            match state {
                TaskState::Done => progress.done += 1,
                TaskState::Claimed => progress.claimed += 1,
                TaskState::Ready => progress.ready += 1,
                TaskState::Excluded => progress.excluded += 1,
                TaskState::Blocked => progress.blocked += 1,
            }
            if state != TaskState::Done && self.claim_on(ix, spec).is_some() {
                progress.claims.push(ix);
                if state != TaskState::Claimed {
                    progress.expired += 1;
                }
            }
        }
        Ok(progress)
    }

    /// The longest path by weight through the tasks not done: what is left of the
    /// critical path ([`Network::critical_path`], same ties), in edge direction.
    /// A parent waits on its children as on prerequisites (the one done
    /// rule): a step from a parent to a child not done (edge direction `Out`)
    /// or from a child to its parent (`In`) weighs nothing and has no edge,
    /// so the path's `edges` then lists fewer than its steps, in order.
    /// `None` if the tasks not done hold a cycle, of edges or of parents.
    /// O(V + E).
    ///
    /// ```
    /// use networks_mcp::network::{Network, NodeSpec, work::WorkAttributes};
    ///
    /// // "ship" needs the epic "launch", whose child "api" needs "db".
    /// let mut net = Network::new();
    /// net.add_nodes([
    ///     NodeSpec::new("ship"),
    ///     NodeSpec::new("launch"),
    ///     NodeSpec::new("api").with_attribute("parent", "launch"),
    ///     NodeSpec::new("db"),
    /// ])?;
    /// net.add_edge("ship", "launch", 1.0)?;
    /// net.add_edge("api", "db", 2.0)?;
    /// let path = net.remaining_critical_path(&WorkAttributes::default())?.unwrap();
    /// assert_eq!(net.ids(&path.nodes), ["ship", "launch", "api", "db"]);
    /// assert_eq!((path.edges.len(), path.total_weight), (2, 3.0));
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn remaining_critical_path(&self, spec: &WorkAttributes) -> Result<Option<CriticalPath>> {
        spec.validate()?;
        let keep = |ix: NodeIndex| !self.is_done(ix, spec);
        let links = self.parent_links(&self.shared_plan_index(spec), spec, &keep);
        self.longest_path_linked(&keep, &spec.relations, &links)
            .transpose()
    }

    /// Each parent and child both kept by `keep`, as a step in edge
    /// direction: (parent, child) when edges point from a task to what it
    /// needs ([`Direction::Out`], and `Both`), (child, parent) otherwise.
    pub(crate) fn parent_links(
        &self,
        index: &PlanIndex,
        spec: &WorkAttributes,
        keep: &dyn Fn(NodeIndex) -> bool,
    ) -> Vec<(NodeIndex, NodeIndex)> {
        let mut links = Vec::new();
        for (&parent, children) in &index.children {
            if !keep(parent) {
                continue;
            }
            for &child in children {
                crate::budget::charge(1);
                if keep(child) {
                    links.push(match spec.prerequisites {
                        Direction::In => (child, parent),
                        Direction::Out | Direction::Both => (parent, child),
                    });
                }
            }
        }
        // The map's order is not the network's: sorted, so that ties break
        // the same way every time.
        links.sort_unstable();
        links
    }

    /// The tasks `ids` (deduplicated, in the order given) with whether each is
    /// done, after checking that `worker` holds every one: not done and claimed by
    /// it, or, when `done_ok`, done with its name on it.
    fn held_tasks(
        &self,
        spec: &WorkAttributes,
        worker: &str,
        ids: &[&str],
        done_ok: bool,
    ) -> Result<Vec<(NodeIndex, bool)>> {
        spec.validate()?;
        validate::id("worker", worker)?;
        let indices = self.require_all("node_ids", ids.iter().copied())?;
        let mut seen = hashbrown::HashSet::with_capacity(indices.len());
        let mut tasks = Vec::with_capacity(indices.len());
        let mut not_held = Vec::new();
        for ix in indices {
            if !seen.insert(ix) {
                continue;
            }
            let holder = self.claim_on(ix, spec).map(|(w, _)| w);
            let done = self.is_done(ix, spec);
            if holder == Some(worker) && (done_ok || !done) {
                tasks.push((ix, done));
            } else {
                not_held.push((self.id_at(ix).to_string(), holder.map(str::to_string), done));
            }
        }
        if !not_held.is_empty() {
            return Err(Error::ClaimNotHeld {
                network: self.name().to_string(),
                worker: worker.to_string(),
                tasks: not_held,
            });
        }
        Ok(tasks)
    }

    /// Sets and removes attributes of task `ix`; one change of version if any
    /// value differs.
    fn set_work_attributes<'k>(
        &mut self,
        ix: NodeIndex,
        set: impl IntoIterator<Item = (&'k str, Value)>,
        remove: &[String],
    ) {
        let mut map = self.graph()[ix].attributes.to_map();
        for (key, value) in set {
            map.insert(key.to_string(), value);
        }
        for key in remove {
            map.shift_remove(key);
        }
        self.set_attributes(ix, Attributes::from_map(map));
    }
}

/// Checks a selection's names: a valid priority attribute that is not part
/// of the state, valid filter attributes and labels.
fn validate_selection(spec: &WorkAttributes, selection: &TaskSelection) -> Result<()> {
    if let TaskOrder::Priority(attribute) = &selection.order {
        validate::id("priority_attribute", attribute)?;
        if *attribute == spec.claimed_by
            || *attribute == spec.lease_expires
            || spec.done.contains_key(attribute)
        {
            return Err(Error::InvalidValue {
                field: "priority_attribute".into(),
                reason: format!(
                    "attribute '{attribute}' holds the state of a task (done, claim or lease); name the attribute with each task's priority number, e.g. \"priority\""
                ),
            });
        }
    }
    validate::attributes("match_attributes", &selection.filter.attributes)?;
    for label in &selection.filter.labels {
        validate::id("labels", label)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_calls_keep_the_frontier_current() {
        let mut net = Network::new();
        net.add_nodes(["a", "b", "c"]).unwrap();
        net.add_edge("b", "a", 1.0).unwrap();
        let plan = WorkAttributes::default();
        net.claim_ready(&plan, "w", 1, 1_000, 0).unwrap();
        assert!(net.frontier().matches(net.version(), &plan));
        let current = |net: &Network| net.frontier().matches(net.version(), &plan);
        net.complete_claimed(&plan, "w", &["a"], 0).unwrap();
        assert!(current(&net));
        net.claim_ready(&plan, "w", 2, 1_000, 0).unwrap();
        net.renew_claimed(&plan, "w", &["b"], 5_000, 10).unwrap();
        assert!(current(&net));
        net.release_claimed(&plan, "w", &["c"]).unwrap();
        assert!(current(&net));
        // Another kind of write: the next work call rebuilds.
        net.add_node("d").unwrap();
        assert!(!current(&net));
    }

    /// A plan whose first `group` tasks share exclusion group "db", then
    /// `free` tasks in no group.
    fn held_group_plan(group: usize, free: usize) -> Network {
        use crate::network::NodeSpec;
        let mut net = Network::new();
        net.add_nodes(
            (0..group)
                .map(|i| NodeSpec::new(format!("db{i}")).with_attribute("exclusion_group", "db"))
                .chain((0..free).map(|i| NodeSpec::new(format!("f{i}")))),
        )
        .unwrap();
        net
    }

    /// A held group's tasks are skipped once, then parked: the next claims
    /// look at O(1) tasks, not at every task of the group.
    #[test]
    fn a_held_group_is_parked_not_skipped_on_every_claim() {
        use crate::budget::Budget;
        let n = 20_000;
        let mut net = held_group_plan(n, 50);
        let plan = WorkAttributes::default();
        let ids = |net: &Network, c: &[Claimed]| -> Vec<String> {
            c.iter().map(|c| net.id_at(c.node).to_string()).collect()
        };
        let held = net.claim_ready(&plan, "holder", 1, 1_000_000, 0).unwrap();
        assert_eq!(ids(&net, &held), ["db0"]);
        // This claim meets the other tasks of the held group once.
        let first = net.claim_ready(&plan, "w", 1, 1_000, 1).unwrap();
        assert_eq!(ids(&net, &first), ["f0"]);
        // From now on a claim looks at a handful of tasks: well within 100
        // steps, where skipping the group would take 20,000.
        for i in 1..40 {
            let budget = Budget::unlimited().with_max_steps(100);
            let claimed = budget
                .run(|| net.claim_ready(&plan, "w", 1, 1_000, 1 + i))
                .expect("a claim past a parked group is cheap")
                .unwrap();
            assert_eq!(ids(&net, &claimed), [format!("f{i}")]);
        }
        // Completing the holder frees the group: its other tasks are ready
        // (until one of them is claimed).
        let done = net
            .complete_claimed(&plan, "holder", &["db0"], 100)
            .unwrap();
        assert_eq!(done.newly_ready.len(), n - 1);
        assert_eq!(net.id_at(done.newly_ready[0]), "db1");
        let next = net.claim_ready(&plan, "w", 2, 1_000, 101).unwrap();
        assert_eq!(ids(&net, &next), ["db1", "f40"]);
        // The parked tasks are counted as excluded when a claim comes short.
        let (_, waiting) = net
            .claim_ready_counted(&plan, "w", 100, 1_000, 102)
            .unwrap();
        let waiting = waiting.unwrap();
        assert_eq!(waiting.excluded, n - 2);
        assert_eq!(waiting.blocked, 0);
        assert_eq!(net.work_progress(&plan, 102).unwrap().excluded, n - 2);
    }

    /// A parked group wakes when its hold's lease runs out, and stays parked
    /// while a renewal keeps it held; a release frees it at once.
    #[test]
    fn a_parked_group_wakes_when_its_lease_ends_or_its_holder_lets_go() {
        let mut net = held_group_plan(5, 3);
        let plan = WorkAttributes::default();
        let claim = |net: &mut Network, worker: &str, count, lease, now| -> Vec<String> {
            let claimed = net.claim_ready(&plan, worker, count, lease, now).unwrap();
            claimed
                .iter()
                .map(|c| net.id_at(c.node).to_string())
                .collect()
        };
        assert_eq!(claim(&mut net, "holder", 1, 100, 0), ["db0"]);
        assert_eq!(claim(&mut net, "w", 1, 1_000, 1), ["f0"]);
        // Renewed past its first end: still held at 150.
        net.renew_claimed(&plan, "holder", &["db0"], 200, 50)
            .unwrap();
        assert_eq!(claim(&mut net, "w", 1, 1_000, 150), ["f1"]);
        // Its lease ran out at 250: the group's tasks are ready again, db0 first.
        assert_eq!(claim(&mut net, "w2", 1, 1_000, 300), ["db0"]);
        assert_eq!(claim(&mut net, "w", 1, 1_000, 301), ["f2"]);
        // A release frees the group at once.
        net.release_claimed(&plan, "w2", &["db0"]).unwrap();
        assert_eq!(claim(&mut net, "w", 5, 1_000, 302), ["db0"]);
    }

    /// A renewal that ends a hold sooner than its first lease wakes the
    /// parked group sooner: the claims then see the group's tasks in their
    /// order, as if none had been parked.
    #[test]
    fn a_shorter_renewal_wakes_a_parked_group_at_its_new_end() {
        use crate::network::NodeSpec;
        // db0..db3 need "gate"; db4 does not: the holder takes gate and db4.
        let mut net = Network::new();
        net.add_nodes(std::iter::once(NodeSpec::new("gate")).chain(
            (0..5).map(|i| NodeSpec::new(format!("db{i}")).with_attribute("exclusion_group", "db")),
        ))
        .unwrap();
        for i in 0..4 {
            net.add_edge(&format!("db{i}"), "gate", 1.0).unwrap();
        }
        let plan = WorkAttributes::default();
        let claim = |net: &mut Network, worker: &str, count, now| -> Vec<String> {
            let claimed = net.claim_ready(&plan, worker, count, 1_000, now).unwrap();
            claimed
                .iter()
                .map(|c| net.id_at(c.node).to_string())
                .collect()
        };
        assert_eq!(claim(&mut net, "h", 2, 0), ["gate", "db4"]);
        net.complete_claimed(&plan, "h", &["gate"], 1).unwrap();
        // db0..db3 are ready but for db4: parked until 1,000.
        assert!(claim(&mut net, "w", 1, 2).is_empty());
        // Renewed at 3 for 10 ms: the hold ends at 13, and at 20 the group's
        // first task by insertion is taken, not the holder's.
        net.renew_claimed(&plan, "h", &["db4"], 10, 3).unwrap();
        assert_eq!(claim(&mut net, "w", 1, 20), ["db0"]);
    }

    /// After a work call, a task's state reads the index of parents and
    /// groups the call kept: asking about k tasks costs O(k), not O(k × V).
    #[test]
    fn task_states_after_a_work_call_share_its_index() {
        use crate::budget::Budget;
        let n = 10_000;
        let mut net = held_group_plan(n, 10);
        let plan = WorkAttributes::default();
        net.claim_ready(&plan, "w", 1, 1_000, 0).unwrap();
        let budget = Budget::unlimited().with_max_steps(1_000);
        let states = budget
            .run(|| {
                (0..100)
                    .map(|i| net.task_state(NodeIndex::new(i), &plan, 1))
                    .collect::<Vec<_>>()
            })
            .expect("100 states without indexing the plan 100 times");
        assert_eq!(states[0], TaskState::Claimed);
        assert!(states[1..].iter().all(|&s| s == TaskState::Excluded));
        // The same answers as an index built afresh.
        let fresh = net.plan_index(&plan).unwrap();
        for (i, &state) in states.iter().enumerate() {
            let ix = NodeIndex::new(i);
            assert_eq!(net.task_state_in(&fresh, ix, &plan, 1), state);
        }
        // Another kind of write: the index is built again, once per call.
        net.add_node("late").unwrap();
        let stale = budget.run(|| net.task_state(NodeIndex::new(0), &plan, 1));
        assert!(stale.is_err(), "a stale index is rebuilt: O(V)");
    }

    /// The ranking the work calls keep equals one built afresh.
    #[test]
    fn the_kept_ranking_is_the_fresh_one() {
        use crate::network::NodeSpec;
        let mut net = Network::new();
        let n = 60;
        net.add_nodes((0..n).map(|i| {
            let spec = NodeSpec::new(format!("t{i}"));
            match i % 4 {
                0 => spec,
                1 => spec.with_attribute("priority", "high"),
                _ => spec.with_attribute("priority", (i * 7 % 5) as i64 - 1),
            }
        }))
        .unwrap();
        for i in 0..n {
            for j in [i * 2 + 1, i * 3 + 2] {
                if j < n {
                    net.add_edge(&format!("t{i}"), &format!("t{j}"), 1.0)
                        .unwrap();
                }
            }
        }
        let plan = WorkAttributes::default();
        for order in [TaskOrder::Impact, TaskOrder::Priority("priority".into())] {
            let mut copy = net.clone();
            let selection = TaskSelection {
                order: order.clone(),
                ..TaskSelection::default()
            };
            let mut now = 0;
            loop {
                now += 1;
                let (claimed, _) = copy
                    .claim_ready_selected(&plan, &selection, "w", 3, 1_000_000, now)
                    .unwrap();
                if claimed.is_empty() {
                    break;
                }
                let kept: Vec<_> = copy
                    .frontier()
                    .ranked
                    .as_ref()
                    .unwrap()
                    .order
                    .iter()
                    .copied()
                    .collect();
                let mut fresh = copy.clone();
                fresh.frontier_mut().ranked = None;
                fresh.ensure_ranked(&plan, &order);
                let rebuilt: Vec<_> = fresh
                    .frontier()
                    .ranked
                    .as_ref()
                    .unwrap()
                    .order
                    .iter()
                    .copied()
                    .collect();
                assert_eq!(kept, rebuilt);
                // Claimed in key order: the first claimed has the smallest key.
                let first = claimed[0].node;
                assert!(kept.iter().find(|k| k.2 == first).is_some());
                let ids: Vec<String> = claimed
                    .iter()
                    .map(|c| copy.id_at(c.node).to_string())
                    .collect();
                let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
                copy.complete_claimed(&plan, "w", &ids, now).unwrap();
            }
            assert_eq!(copy.frontier().done, n);
        }
    }

    #[test]
    fn priority_puts_lower_numbers_first_and_the_rest_last() {
        use crate::network::NodeSpec;
        let mut net = Network::new();
        net.add_nodes([
            NodeSpec::new("none"),
            NodeSpec::new("text").with_attribute("priority", "P0"),
            NodeSpec::new("p2").with_attribute("priority", 2),
            NodeSpec::new("neg").with_attribute("priority", -1.5),
            NodeSpec::new("p0").with_attribute("priority", 0),
            NodeSpec::new("p2-hub").with_attribute("priority", 2),
            NodeSpec::new("user"),
            NodeSpec::new("user2"),
        ])
        .unwrap();
        net.add_edge("user", "p2-hub", 1.0).unwrap();
        net.add_edge("user2", "p2-hub", 1.0).unwrap();
        net.add_edge("user", "none", 1.0).unwrap();
        let plan = WorkAttributes::default();
        let by = |order| TaskSelection {
            order,
            ..TaskSelection::default()
        };
        let ids = |net: &Network, c: Vec<Claimed>| -> Vec<String> {
            c.iter().map(|c| net.id_at(c.node).to_string()).collect()
        };
        let (c, _) = net
            .clone()
            .claim_ready_selected(
                &plan,
                &by(TaskOrder::Priority("priority".into())),
                "w",
                10,
                10,
                0,
            )
            .unwrap();
        assert_eq!(ids(&net, c), ["neg", "p0", "p2-hub", "p2", "none", "text"]);
        let (c, _) = net
            .clone()
            .claim_ready_selected(&plan, &by(TaskOrder::Impact), "w", 10, 10, 0)
            .unwrap();
        assert_eq!(ids(&net, c), ["p2-hub", "none", "text", "p2", "neg", "p0"]);
        let (c, _) = net
            .clone()
            .claim_ready_selected(&plan, &by(TaskOrder::Insertion), "w", 10, 10, 0)
            .unwrap();
        assert_eq!(ids(&net, c), ["none", "text", "p2", "neg", "p0", "p2-hub"]);
    }

    #[test]
    fn a_filter_claims_only_what_it_admits_and_counts_the_rest() {
        use crate::network::{NodeSpec, TaskFilter};
        let mut net = Network::new();
        net.add_nodes([
            NodeSpec::new("a").with_attribute("labels", "db, api"),
            NodeSpec::new("b").with_attribute("labels", "ui"),
            NodeSpec::new("c")
                .with_attribute("role", "dba")
                .with_attribute("labels", "db"),
        ])
        .unwrap();
        let plan = WorkAttributes::default();
        let mut filter = TaskFilter {
            labels: vec!["db".into()],
            ..TaskFilter::default()
        };
        let selection = TaskSelection {
            filter: filter.clone(),
            ..TaskSelection::default()
        };
        let (c, waiting) = net
            .clone()
            .claim_ready_selected(&plan, &selection, "w", 5, 10, 0)
            .unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(waiting.unwrap().unmatched, 1);
        filter.attributes.insert("role".into(), "dba".into());
        let selection = TaskSelection {
            filter,
            ..TaskSelection::default()
        };
        let (c, _) = net
            .claim_ready_selected(&plan, &selection, "w", 5, 10, 0)
            .unwrap();
        assert_eq!(net.id_at(c[0].node), "c");
        assert_eq!(c.len(), 1);
    }

    fn ids_of(net: &Network, claimed: &[Claimed]) -> Vec<String> {
        claimed
            .iter()
            .map(|c| net.id_at(c.node).to_string())
            .collect()
    }

    fn migrations() -> Network {
        use crate::network::NodeSpec;
        let mut net = Network::new();
        net.add_nodes([
            NodeSpec::new("m1").with_attribute("exclusion_group", "db"),
            NodeSpec::new("m2").with_attribute("exclusion_group", "db"),
            NodeSpec::new("n1").with_attribute("exclusion_group", 7),
            NodeSpec::new("n2").with_attribute("exclusion_group", "7"),
            NodeSpec::new("free").with_attribute("exclusion_group", Value::Null),
        ])
        .unwrap();
        net
    }

    #[test]
    fn a_claimed_task_holds_its_group_until_it_ends() {
        let mut net = migrations();
        let plan = WorkAttributes::default();
        // One of "db"; 7 and "7" are two groups; null is none.
        let (c, waiting) = net.claim_ready_counted(&plan, "w1", 10, 100, 0).unwrap();
        assert_eq!(ids_of(&net, &c), ["m1", "n1", "n2", "free"]);
        let waiting = waiting.unwrap();
        assert_eq!(waiting.excluded, 1);
        let (group, holder) = waiting.exclusion.unwrap();
        assert_eq!(
            (group.to_string(), net.id_at(holder)),
            ("\"db\"".into(), "m1")
        );
        let m2 = net.index_of("m2").unwrap();
        assert_eq!(net.task_state(m2, &plan, 50), TaskState::Excluded);
        assert_eq!(net.work_progress(&plan, 50).unwrap().excluded, 1);
        assert!(
            net.claim_ready(&plan, "w2", 10, 100, 50)
                .unwrap()
                .is_empty()
        );
        // Completing m1 frees the group: m2 is newly ready.
        let done = net.complete_claimed(&plan, "w1", &["m1"], 60).unwrap();
        assert_eq!(net.ids(&done.newly_ready), ["m2"]);
        let c = net.claim_ready(&plan, "w2", 10, 100, 60).unwrap();
        assert_eq!(ids_of(&net, &c), ["m2"]);
        // Releasing frees it too; so does a lease running out.
        net.release_claimed(&plan, "w2", &["m2"]).unwrap();
        assert_eq!(net.task_state(m2, &plan, 61), TaskState::Ready);
        let c = net.claim_ready(&plan, "w2", 1, 10, 61).unwrap();
        assert_eq!(ids_of(&net, &c), ["m2"]);
        assert_eq!(net.task_state(m2, &plan, 71), TaskState::Ready);
    }

    #[test]
    fn two_claims_of_one_group_written_by_hand_both_hold_it() {
        use crate::network::NodeSpec;
        let mut net = Network::new();
        net.add_nodes([
            NodeSpec::new("a")
                .with_attribute("exclusion_group", "g")
                .with_attribute("claimed_by", "x")
                .with_attribute("lease_expires_ms", 100),
            NodeSpec::new("b")
                .with_attribute("exclusion_group", "g")
                .with_attribute("claimed_by", "y")
                .with_attribute("lease_expires_ms", 200),
            NodeSpec::new("c").with_attribute("exclusion_group", "g"),
        ])
        .unwrap();
        let plan = WorkAttributes::default();
        let state =
            |net: &Network, id: &str, now| net.task_state(net.index_of(id).unwrap(), &plan, now);
        assert_eq!(state(&net, "a", 0), TaskState::Claimed);
        assert_eq!(state(&net, "b", 0), TaskState::Claimed);
        assert!(net.claim_ready(&plan, "w", 5, 10, 0).unwrap().is_empty());
        net.complete_claimed(&plan, "x", &["a"], 0).unwrap();
        assert_eq!(state(&net, "c", 0), TaskState::Excluded);
        assert!(net.claim_ready(&plan, "w", 5, 10, 0).unwrap().is_empty());
        // b's lease runs out at 200: c and b itself are free again, one at a time.
        let c = net.claim_ready(&plan, "w", 5, 10, 200).unwrap();
        assert_eq!(ids_of(&net, &c), ["b"]);
    }

    fn epics() -> Network {
        use crate::network::NodeSpec;
        let mut net = Network::new();
        net.add_nodes([
            NodeSpec::new("root"),
            NodeSpec::new("epic").with_attribute("parent", "root"),
            NodeSpec::new("c1").with_attribute("parent", "epic"),
            NodeSpec::new("c2").with_attribute("parent", "epic"),
            NodeSpec::new("x").with_attribute("parent", "nowhere"),
        ])
        .unwrap();
        net.add_edge("c1", "x", 1.0).unwrap();
        net
    }

    #[test]
    fn a_parent_waits_on_its_children() {
        let mut net = epics();
        let plan = WorkAttributes::default();
        let c = net.claim_ready(&plan, "w", 10, 100, 0).unwrap();
        // "nowhere" names no node: ignored.
        assert_eq!(ids_of(&net, &c), ["c2", "x"]);
        let epic = net.index_of("epic").unwrap();
        assert_eq!(net.task_state(epic, &plan, 0), TaskState::Blocked);
        let index = net.plan_index(&plan).unwrap();
        let why = net.task_blockers(&index, epic, &plan);
        let listed: Vec<&str> = why.blockers.iter().map(|b| net.id_at(b.node)).collect();
        assert_eq!(listed, ["c1", "c2", "x"]);
        let done = net.complete_claimed(&plan, "w", &["x", "c2"], 1).unwrap();
        assert_eq!(net.ids(&done.newly_ready), ["c1"]);
        net.claim_ready(&plan, "w", 1, 100, 1).unwrap();
        let done = net.complete_claimed(&plan, "w", &["c1"], 2).unwrap();
        assert_eq!(net.ids(&done.newly_ready), ["epic"]);
        assert!(done.parents_completed.is_empty());
    }

    #[test]
    fn completing_parents_climbs_the_chain() {
        let mut net = epics();
        let plan = WorkAttributes::default();
        net.claim_ready(&plan, "w", 10, 100, 0).unwrap();
        net.complete_claimed_with(&plan, "w", &["x"], 1, Parents::Complete)
            .unwrap();
        net.claim_ready(&plan, "w", 10, 100, 1).unwrap();
        let done = net
            .complete_claimed_with(&plan, "w", &["c1", "c2"], 2, Parents::Complete)
            .unwrap();
        assert_eq!(net.ids(&done.completed), ["c1", "c2"]);
        assert_eq!(net.ids(&done.parents_completed), ["epic", "root"]);
        assert!(net.work_progress(&plan, 2).unwrap().finished());
    }

    #[test]
    fn parents_that_loop_wait_on_each_other() {
        use crate::network::NodeSpec;
        let mut net = Network::new();
        net.add_nodes([
            NodeSpec::new("a").with_attribute("parent", "b"),
            NodeSpec::new("b").with_attribute("parent", "a"),
            NodeSpec::new("me").with_attribute("parent", "me"),
        ])
        .unwrap();
        let plan = WorkAttributes::default();
        let (c, waiting) = net.claim_ready_counted(&plan, "w", 3, 100, 0).unwrap();
        assert!(c.is_empty());
        assert_eq!(waiting.unwrap().blocked, 3);
        let index = net.plan_index(&plan).unwrap();
        let a = net.index_of("a").unwrap();
        let why = net.task_blockers(&index, a, &plan);
        assert_eq!(why.blockers.len(), 1);
        assert_eq!(net.id_at(why.blockers[0].node), "b");
    }

    #[test]
    fn parent_and_exclusion_names_must_be_their_own() {
        for (parent, exclusion, field) in [
            ("claimed_by", "exclusion_group", "parent_attribute"),
            ("parent", "status", "exclusion_attribute"),
            ("parent", "parent", "exclusion_attribute"),
            ("parent", "lease_expires_ms", "exclusion_attribute"),
        ] {
            let plan = WorkAttributes {
                parent: parent.into(),
                exclusion: exclusion.into(),
                ..WorkAttributes::default()
            };
            match plan.validate() {
                Err(Error::InvalidValue { field: f, .. }) => assert_eq!(f, field),
                other => panic!("{parent}/{exclusion}: {other:?}"),
            }
        }
        let plan = WorkAttributes {
            exclusion: String::new(),
            ..WorkAttributes::default()
        };
        assert!(plan.validate().is_err());
    }
}
