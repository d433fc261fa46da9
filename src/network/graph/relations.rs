//! Relation types of edges, and the filter that says which of them a call follows.
//!
//! An edge's relation type is the string value of one of its attributes (by
//! default [`DEFAULT_RELATION_ATTRIBUTE`], `"relation"`). An edge without that
//! attribute, or whose value is not a non-empty string, is a *plain* edge: a
//! dependency like any edge of a network that has no relation types. The name
//! [`PLAIN`] (the empty string) selects plain edges in a filter.
//!
//! A [`RelationFilter`] is an edge predicate: follow every edge, only edges of
//! some relation types, or every edge but those of some types. It is checked
//! while an algorithm walks (nothing is rebuilt per call):
//! - on petgraph's edge lists, by reading the edge's attribute and looking its
//!   value up in a hash set of the names: no allocation, expected O(1) for
//!   attribute values of bounded length;
//! - on the compact adjacency rows, by a column of interned relation classes
//!   parallel to the rows ([`RelationColumns`], built once per network version
//!   and attribute in O(V + E), like the rows), and a table of kept classes: one
//!   array read per edge.

use std::borrow::Cow;
use std::sync::Arc;

use hashbrown::{HashMap, HashSet};
use petgraph::stable_graph::StableDiGraph;
use petgraph::visit::NodeIndexable;

use super::edge_ids::EdgeIdIndex;
use super::rows::{Rows, SlotEdit};
use super::{Edge, Node};

/// The attribute that names an edge's relation type unless a call names another.
pub const DEFAULT_RELATION_ATTRIBUTE: &str = "relation";

/// The name that stands for plain edges (no relation type) in a filter: the empty
/// string.
pub const PLAIN: &str = "";

/// Which edges an algorithm follows, by relation type (see the module docs).
///
/// ```
/// use networks_mcp::network::{EdgeSpec, Network, RelationFilter};
///
/// let mut net = Network::new();
/// net.add_nodes(["a", "b", "c"])?;
/// net.add_edge_with(EdgeSpec::new("a", "b").with_attribute("relation", "blocks"))?;
/// net.add_edge_with(EdgeSpec::new("b", "c").with_attribute("relation", "related"))?;
/// net.add_edge_with(EdgeSpec::new("a", "c"))?; // plain
/// let blocking = RelationFilter::except(["related"]);
/// let kept: Vec<bool> = net.graph().edge_weights().map(|e| blocking.keeps(e)).collect();
/// assert_eq!(kept, [true, false, true]);
/// let plain_only = RelationFilter::only([""]);
/// assert!(plain_only.keeps_name(""));
/// assert!(!plain_only.keeps_name("blocks"));
/// # Ok::<(), networks_mcp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelationFilter {
    attribute: Cow<'static, str>,
    rule: Rule,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Rule {
    All,
    Only(HashSet<Box<str>>),
    Except(HashSet<Box<str>>),
}

impl Default for RelationFilter {
    fn default() -> Self {
        RelationFilter::all()
    }
}

/// The filter that follows every edge, for calls that take none.
static ALL: RelationFilter = RelationFilter::all();

impl RelationFilter {
    /// Follows every edge (what every algorithm does without a filter).
    pub const fn all() -> Self {
        RelationFilter {
            attribute: Cow::Borrowed(DEFAULT_RELATION_ATTRIBUTE),
            rule: Rule::All,
        }
    }

    /// A shared [`RelationFilter::all`].
    pub(crate) fn every_edge() -> &'static RelationFilter {
        &ALL
    }

    /// Follows only edges of these relation types ([`PLAIN`], `""`, for plain edges).
    pub fn only<I, S>(names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        RelationFilter {
            attribute: DEFAULT_RELATION_ATTRIBUTE.into(),
            rule: Rule::Only(names.into_iter().map(|s| s.as_ref().into()).collect()),
        }
    }

    /// Follows every edge but those of these relation types. No names: every edge.
    pub fn except<I, S>(names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let names: HashSet<Box<str>> = names.into_iter().map(|s| s.as_ref().into()).collect();
        RelationFilter {
            attribute: DEFAULT_RELATION_ATTRIBUTE.into(),
            rule: if names.is_empty() {
                Rule::All
            } else {
                Rule::Except(names)
            },
        }
    }

    /// The same filter reading relation types from attribute `attribute`.
    pub fn on_attribute(mut self, attribute: impl AsRef<str>) -> Self {
        self.attribute = Cow::Owned(attribute.as_ref().to_string());
        self
    }

    /// The attribute that names an edge's relation type.
    pub fn attribute(&self) -> &str {
        &self.attribute
    }

    /// Whether the filter follows every edge.
    pub fn is_all(&self) -> bool {
        matches!(self.rule, Rule::All)
    }

    /// The relation type of `edge` under this filter's attribute ([`PLAIN`] for a
    /// plain edge).
    #[inline]
    pub fn relation_of<'e>(&self, edge: &'e Edge) -> &'e str {
        relation_value(edge, &self.attribute)
    }

    /// Whether the filter follows edges of relation type `name`.
    #[inline]
    pub fn keeps_name(&self, name: &str) -> bool {
        match &self.rule {
            Rule::All => true,
            Rule::Only(names) => names.contains(name),
            Rule::Except(names) => !names.contains(name),
        }
    }

    /// Whether the filter follows `edge`. No allocation; O(1) expected for
    /// relation values of bounded length.
    #[inline]
    pub fn keeps(&self, edge: &Edge) -> bool {
        self.is_all() || self.keeps_name(self.relation_of(edge))
    }
}

/// The relation type of `edge` under `attribute`: its string value, or
/// [`PLAIN`] when the attribute is missing or not a string.
#[inline]
fn relation_value<'e>(edge: &'e Edge, attribute: &str) -> &'e str {
    if edge.attributes.is_empty() {
        return PLAIN;
    }
    edge.attributes
        .get(attribute)
        .and_then(|v| v.as_str())
        .unwrap_or(PLAIN)
}

/// The relation types of one attribute, interned, as columns parallel to both
/// directions' adjacency rows: `out[slot]` is the class of the edge at `slot` of
/// the out rows; `names[class]` its relation type (class 0 is [`PLAIN`]). Kept
/// in step with the rows by each write, as the rows themselves are.
#[derive(Debug)]
pub(crate) struct RelationColumns {
    pub(crate) attribute: Box<str>,
    names: Vec<Box<str>>,
    classes: HashMap<Box<str>, u32>,
    out: Vec<u32>,
    inn: Vec<u32>,
}

impl RelationColumns {
    /// Interns the relation types of `attribute` and places each edge's class
    /// in the slot its rows give it (edges newest first into each owner's row).
    /// O(V + E) expected.
    pub(crate) fn build(
        graph: &StableDiGraph<Node, Edge>,
        edge_ids: &EdgeIdIndex,
        attribute: &str,
        out_rows: &Rows,
        in_rows: &Rows,
    ) -> RelationColumns {
        let mut columns = RelationColumns {
            attribute: attribute.into(),
            names: vec![PLAIN.into()],
            classes: HashMap::from_iter([(Box::<str>::from(PLAIN), 0)]),
            out: vec![0u32; out_rows.slots()],
            inn: vec![0u32; in_rows.slots()],
        };
        let mut next_out: Vec<u32> = out_rows.spans().map(|r| r.start as u32).collect();
        let mut next_in: Vec<u32> = in_rows.spans().map(|r| r.start as u32).collect();
        debug_assert!(next_out.len() >= graph.node_bound());
        edge_ids.for_each_newest_first(|ix| {
            if let (Some((a, b)), Some(e)) = (graph.edge_endpoints(ix), graph.edge_weight(ix)) {
                let class = columns.class_of(e);
                let o = &mut next_out[a.index()];
                columns.out[*o as usize] = class;
                *o += 1;
                let i = &mut next_in[b.index()];
                columns.inn[*i as usize] = class;
                *i += 1;
            }
        });
        columns
    }

    /// The class of `edge`'s relation type, interned now if it is new.
    pub(crate) fn class_of(&mut self, edge: &Edge) -> u32 {
        let name = relation_value(edge, &self.attribute);
        if let Some(&class) = self.classes.get(name) {
            return class;
        }
        let class = self.names.len() as u32;
        self.names.push(name.into());
        self.classes.insert(name.into(), class);
        class
    }

    fn column_mut(&mut self, dir: petgraph::Direction) -> &mut Vec<u32> {
        match dir {
            petgraph::Direction::Outgoing => &mut self.out,
            petgraph::Direction::Incoming => &mut self.inn,
        }
    }

    /// Follows an edge added to the rows of `dir`: the row's move, if it made
    /// one, then `class` in the edge's slot.
    pub(crate) fn follow(
        &mut self,
        dir: petgraph::Direction,
        edit: Option<&SlotEdit>,
        slot: usize,
        class: u32,
    ) {
        super::rows::place(self.column_mut(dir), edit, slot, class, 0);
    }

    /// Follows an edge removed from the rows of `dir`.
    pub(crate) fn shift(&mut self, dir: petgraph::Direction, edit: &SlotEdit) {
        edit.apply(self.column_mut(dir), 0);
    }

    /// The classes of one direction, parallel to its rows' slots.
    pub(crate) fn column(&self, dir: petgraph::Direction) -> &[u32] {
        match dir {
            petgraph::Direction::Outgoing => &self.out,
            petgraph::Direction::Incoming => &self.inn,
        }
    }

    /// The relation types, by class (class 0 is [`PLAIN`]).
    #[cfg_attr(not(feature = "query"), allow(dead_code))]
    pub(crate) fn names(&self) -> &[Box<str>] {
        &self.names
    }

    /// Which classes `filter` follows.
    pub(crate) fn kept_classes(&self, filter: &RelationFilter) -> Vec<bool> {
        self.names.iter().map(|n| filter.keeps_name(n)).collect()
    }
}

/// A filter resolved against one network's relation columns: a class column
/// per direction and the table of kept classes. Shared by the rows views of a
/// call.
#[derive(Debug, Clone)]
pub(crate) struct ResolvedFilter {
    pub(crate) columns: Arc<RelationColumns>,
    pub(crate) keep: Arc<[bool]>,
}

impl std::hash::Hash for RelationFilter {
    /// Equal filters hash equally: the names in sorted order.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.attribute.hash(state);
        let (tag, names) = match &self.rule {
            Rule::All => (0u8, None),
            Rule::Only(names) => (1, Some(names)),
            Rule::Except(names) => (2, Some(names)),
        };
        tag.hash(state);
        if let Some(names) = names {
            let mut sorted: Vec<&str> = names.iter().map(|n| &**n).collect();
            sorted.sort_unstable();
            sorted.hash(state);
        }
    }
}
