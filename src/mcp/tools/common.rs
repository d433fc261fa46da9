//! Types shared by several tools' parameters and results, and what the bodies
//! of more than one tool family need (the memory estimate of `--max-memory`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::sync::{LazyLock, Mutex, PoisonError};

use crate::mcp::page::Page;
use crate::mcp::tool::ToolContext;
use crate::network::{EdgeView, Network};
use crate::registry::NetworkRegistry;

/// `status` of a plain success.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Success {
    /// The call did what was asked.
    Success,
}

/// `status` of an idempotent create: `success` when created, `duplicate` when it already existed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CreateStatus {
    /// Created now.
    Success,
    /// Already existed; nothing changed.
    Duplicate,
}

/// The JSON schema of a flat attribute map. That its values are flat is said once,
/// in the server instructions (`attributes`), and checked by `validate::attributes`.
pub fn flat_attributes_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "object" })
}

/// The JSON schema of a free JSON payload.
pub fn any_json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "description": "Any JSON value: a string, number, object, array... Stored as given."
    })
}

/// An edge as tools return it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EdgeOut {
    /// Stable edge id (use it with network_remove_edge).
    pub edge_id: u64,
    /// Source node id.
    pub source: String,
    /// Target node id.
    pub target: String,
    /// Edge weight.
    pub weight: f64,
    /// Flat attributes.
    pub attributes: Map<String, Value>,
}

impl From<EdgeView<'_>> for EdgeOut {
    fn from(edge: EdgeView<'_>) -> Self {
        EdgeOut {
            edge_id: edge.id,
            source: edge.source.to_string(),
            target: edge.target.to_string(),
            weight: edge.weight,
            attributes: edge.attributes.to_map(),
        }
    }
}

/// The default for optional `attributes` parameters.
pub fn no_attributes() -> Map<String, Value> {
    Map::new()
}

/// Checks a `limit` parameter against its allowed range.
pub fn check_limit(limit: usize, max: usize) -> crate::Result<usize> {
    check_range("limit", limit, max)
}

/// Checks a count parameter named `field` against 1..=max.
pub fn check_range(field: &str, limit: usize, max: usize) -> crate::Result<usize> {
    if limit == 0 || limit > max {
        return Err(crate::Error::InvalidValue {
            field: field.into(),
            reason: format!("{limit} is out of range; give a number from 1 to {max}"),
        });
    }
    Ok(limit)
}

/// The error of one invalid item of a batch (or of an imported document): it names
/// the list (`field`) and the item's position, so nothing else needs to be guessed.
pub fn batch_item_error(field: &str, index: usize, inner: crate::Error) -> crate::Error {
    crate::Error::InvalidBatchItem {
        field: field.into(),
        index,
        inner: Box::new(inner),
    }
}

/// How a list result continues: flattened into every paged result.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Paging {
    /// True when more items follow this page.
    pub truncated: bool,
    /// Pass it as `cursor`, with the other parameters unchanged, for the next page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// When cut: how to get the rest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more: Option<String>,
}

impl Paging {
    /// The paging of `page` when it returned `returned` items of `total` (when
    /// known), and `beyond` says whether any item lies past the page.
    pub fn of(page: &Page, returned: usize, total: Option<usize>, beyond: bool) -> Paging {
        let next_cursor = page.next(beyond);
        Paging {
            truncated: next_cursor.is_some(),
            more: page.more(returned, total, &next_cursor),
            next_cursor,
        }
    }

    /// Adds `note` to `more`: how to see more of what a page shows cut (a
    /// group's members, an example's list), whether or not more pages follow.
    pub fn add_note(&mut self, note: String) {
        self.more = Some(match self.more.take() {
            Some(pages) => format!("{pages} {note}"),
            None => note,
        });
    }

    /// The paging of a page of a result of `total` items.
    pub fn of_total(page: &Page, returned: usize, total: usize) -> Paging {
        Paging::of(page, returned, Some(total), page.end() < total)
    }
}

/// Each network's estimate at the state it was computed at: instance → (version,
/// bytes). Equal (instance, version) means equal content, so an entry is exact
/// until its network changes; only networks written since the last count are
/// walked again.
static ESTIMATES: LazyLock<Mutex<HashMap<u64, (u64, usize)>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// [`Network::estimated_bytes`], from [`ESTIMATES`] when the network has not
/// changed since it was last counted.
pub(crate) fn network_bytes(net: &Network) -> usize {
    let (instance, version) = (net.instance(), net.version());
    let cache = || ESTIMATES.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&(at, bytes)) = cache().get(&instance)
        && at == version
    {
        return bytes;
    }
    // Counted without the cache's lock held: it may take a while on a big network.
    let bytes = net.estimated_bytes();
    cache().insert(instance, (version, bytes));
    bytes
}

/// The estimated bytes all networks of `registry` hold (`--max-memory`). Never
/// waits for a network: one whose lock is taken now (a long call, or a write
/// waiting for the journal) counts as it was last counted, so the count may run
/// under the journal's order lock. Entries of networks no longer in the
/// registry are dropped from the cache.
pub(crate) fn networks_bytes(registry: &NetworkRegistry) -> usize {
    let mut live = HashSet::new();
    let mut total = 0usize;
    for (_, handle) in registry.handles() {
        let bytes = match handle.try_read() {
            Some(net) => {
                live.insert(net.instance());
                let bytes = network_bytes(&net);
                handle.set_estimate(bytes);
                bytes
            }
            None => handle.last_estimate(),
        };
        total = total.saturating_add(bytes);
    }
    // Another server in the same process may lose entries here: it only counts
    // them again. A network skipped above keeps its entry only if it is live
    // elsewhere; otherwise it is counted again next time.
    ESTIMATES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .retain(|instance, _| live.contains(instance));
    total
}

/// What all networks hold, when `--max-memory` bounds it (`None` when it is
/// off, so that nothing is counted).
pub(crate) fn memory_held(ctx: &ToolContext<'_>) -> Option<usize> {
    (ctx.limits.max_memory != usize::MAX).then(|| networks_bytes(ctx.registry))
}

/// Promises `added` bytes to a network being made (`what`: "this copy", "this
/// import"), atomically against every other copy or import in flight, when
/// `--max-memory` bounds what all networks hold (`held`, from
/// [`memory_held`]); keep the reservation until the network is registered.
pub(crate) fn reserve_memory(
    ctx: &ToolContext<'_>,
    held: Option<usize>,
    added: usize,
    what: &str,
) -> crate::Result<Option<crate::registry::Reservation>> {
    let Some(held) = held else {
        return Ok(None);
    };
    match ctx
        .registry
        .reserve_bytes(held, added, ctx.limits.max_memory)
    {
        Ok(reservation) => Ok(Some(reservation)),
        Err(promised) => ctx
            .limits
            .check_memory(held.saturating_add(promised), added, what)
            .map(|()| None),
    }
}

/// The most relation types one `relations` or `ignore_relations` list names.
pub const MAX_RELATIONS: usize = 100;
/// The longest relation type name, in bytes.
pub const MAX_RELATION_BYTES: usize = 256;

/// The edges a call follows, from its `relations`, `ignore_relations` and
/// `relation_attribute` parameters: only the types of `relations`, or all but
/// those of `ignore_relations` (giving both is an error), or, with neither,
/// the network's default ([`Network::default_relations`]: all but its
/// non-blocking types). `""` names plain edges (no relation attribute).
pub fn relation_filter(
    net: &Network,
    relations: Option<&[String]>,
    ignore_relations: Option<&[String]>,
    relation_attribute: Option<&str>,
) -> crate::Result<crate::network::RelationFilter> {
    use crate::network::RelationFilter;
    let check = check_relation_names;
    let filter = match (relations, ignore_relations) {
        (Some(_), Some(_)) => {
            return Err(crate::Error::InvalidArguments {
                message: "give relations (follow only these relation types) or ignore_relations (follow all but these), not both".into(),
                field: Some("ignore_relations".into()),
            });
        }
        (Some(only), None) => {
            check("relations", only)?;
            RelationFilter::only(only)
        }
        (None, Some(except)) => {
            check("ignore_relations", except)?;
            RelationFilter::except(except)
        }
        (None, None) => net.default_relations(),
    };
    let filter = match relation_attribute {
        Some(attribute) => {
            crate::network::validate::id("relation_attribute", attribute)?;
            filter.on_attribute(attribute)
        }
        None => filter,
    };
    match (relations, ignore_relations) {
        (Some(named), _) => warn_unknown_relations(net, &filter, "relations", named),
        (_, Some(named)) => warn_unknown_relations(net, &filter, "ignore_relations", named),
        (None, None) => {}
    }
    Ok(filter)
}

/// The most distinct relation types a warning's scan collects to name them.
const MAX_RELATION_TYPES_SCANNED: usize = 1_000;

/// Warns ([`WarningCode::UnknownRelation`]) about each relation type of `named`
/// that no edge of `net` has under `filter`'s attribute: a filter naming only
/// such types follows nothing, and one ignoring them ignores nothing, both in
/// silence otherwise. The message lists the types that exist and the closest
/// one (`Normal` → `normal`). One pass over the edges, stopped as soon as every
/// named type is found, so a correct filter costs little; run only when a
/// caller collects warnings.
pub fn warn_unknown_relations(
    net: &Network,
    filter: &crate::network::RelationFilter,
    field: &str,
    named: &[String],
) {
    use crate::warnings::{WarningCode, closest, list_names, warn};
    if named.is_empty() || !crate::warnings::collecting() {
        return;
    }
    // A set: a filter names up to MAX_RELATIONS types, and each edge asks it once.
    let mut missing: HashSet<&str> = named.iter().map(String::as_str).collect();
    let mut present: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for (scanned, edge) in net.graph().edge_weights().enumerate() {
        if scanned % 4096 == 4095 {
            crate::budget::charge(4096);
        }
        let relation = filter.relation_of(edge);
        if missing.remove(relation) && missing.is_empty() {
            return;
        }
        if present.len() < MAX_RELATION_TYPES_SCANNED {
            present.insert(relation);
        }
    }
    let mut missing: Vec<&str> = missing.into_iter().collect();
    missing.sort_unstable();
    let attribute = filter.attribute();
    // Plain edges are named by "" in a filter; the list says so.
    let plain = present.contains("");
    let typed = list_names(present.iter().copied().filter(|n| !n.is_empty()));
    let listed = match (plain, present.len()) {
        (true, 1) => "only plain edges (\"\")".to_string(),
        (true, _) => format!("{typed}, and plain edges (\"\")"),
        (false, _) => typed,
    };
    for name in missing {
        let nearest = closest(name, present.iter().copied().filter(|n| !n.is_empty()))
            .map(|n| format!(" Did you mean \"{n}\"?"))
            .unwrap_or_default();
        let effect = match field {
            "relations" => "so no edge of that type is followed",
            _ => "so it ignores nothing",
        };
        let shown = if name.is_empty() {
            "\"\" (plain edges)"
        } else {
            name
        };
        warn(
            WarningCode::UnknownRelation,
            format!(
                "{field} names \"{shown}\", a relation type no edge has (edge attribute \"{attribute}\"), {effect}.{nearest} Relation types here: {listed}."
            ),
        );
    }
}

/// Checks a list of relation type names against [`MAX_RELATIONS`] and
/// [`MAX_RELATION_BYTES`]; `field` names the parameter.
pub fn check_relation_names(field: &str, names: &[String]) -> crate::Result<()> {
    if names.len() > MAX_RELATIONS {
        return Err(crate::Error::InvalidValue {
            field: field.into(),
            reason: format!(
                "it names {} relation types; give at most {MAX_RELATIONS}",
                names.len()
            ),
        });
    }
    if let Some(long) = names.iter().find(|n| n.len() > MAX_RELATION_BYTES) {
        return Err(crate::Error::InvalidValue {
            field: field.into(),
            reason: format!(
                "a relation type is {} bytes long; give names of at most {MAX_RELATION_BYTES} bytes",
                long.len()
            ),
        });
    }
    Ok(())
}

/// The `order` parameter of the tools that list or claim ready tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReadyOrder {
    /// Insertion order.
    Insertion,
    /// By the number in `priority_attribute`, lower first.
    Priority,
    /// Most direct dependents not done first.
    Impact,
}

/// The schema of an optional `order`: the three names, without the `null`
/// an `Option` would add (leaving it out is the default).
pub fn ready_order_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "string", "enum": ["insertion", "priority", "impact"]})
}

/// The most labels one `labels` filter names.
pub const MAX_LABELS: usize = 100;

/// How a worker picks among the ready tasks, from the parameters `order`,
/// `priority_attribute` (default `"priority"`; giving it alone orders by it),
/// `match_attributes` and `labels`. Without any, insertion order and every
/// task: the answers of before these parameters.
pub fn task_selection(
    order: Option<ReadyOrder>,
    priority_attribute: Option<&str>,
    match_attributes: Option<&Map<String, Value>>,
    labels: Option<&[String]>,
) -> crate::Result<crate::network::TaskSelection> {
    use crate::network::{TaskFilter, TaskOrder, TaskSelection, validate};
    let order = match (order, priority_attribute) {
        (None | Some(ReadyOrder::Insertion), None) => TaskOrder::Insertion,
        (None | Some(ReadyOrder::Priority), attribute) => {
            let attribute = attribute.unwrap_or("priority");
            validate::id("priority_attribute", attribute)?;
            TaskOrder::Priority(attribute.to_string())
        }
        (Some(ReadyOrder::Impact), None) => TaskOrder::Impact,
        (Some(other), Some(_)) => {
            return Err(crate::Error::InvalidArguments {
                message: format!(
                    "priority_attribute orders only with order \"priority\", not {:?}: drop one of them",
                    format!("{other:?}").to_lowercase()
                ),
                field: Some("priority_attribute".into()),
            });
        }
    };
    let attributes = match_attributes.cloned().unwrap_or_default();
    validate::attributes("match_attributes", &attributes)?;
    let labels = labels.map(<[String]>::to_vec).unwrap_or_default();
    if labels.len() > MAX_LABELS {
        return Err(crate::Error::InvalidValue {
            field: "labels".into(),
            reason: format!(
                "it names {} labels; name at most {MAX_LABELS}",
                labels.len()
            ),
        });
    }
    for label in &labels {
        validate::id("labels", label)?;
    }
    Ok(TaskSelection {
        order,
        filter: TaskFilter { attributes, labels },
    })
}
