//! `network_query`: a read-only openCypher query over one network
//! ([`crate::query`]), its rows paged with cursors.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::MAX_SCORES_LIMIT;
use crate::error::{Error, Result};
use crate::mcp::answers::{AnswerKey, Weigh, answer};
use crate::mcp::page::{Page, reply_bytes};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success, check_limit};
use crate::query::{self, QueryError};

fn default_query_limit() -> usize {
    50
}

/// The schema of `parameters`: any JSON values by name.
fn parameters_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "object",
        "description": "Values of the $name parameters."
    })
}

/// Parameters of `network_query`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QueryParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    // Described by the tool's description: left undescribed to keep tools/list small.
    pub query: String,
    #[serde(default)]
    #[schemars(schema_with = "parameters_schema")]
    pub parameters: Map<String, Value>,
    /// Rows per page.
    #[serde(default = "default_query_limit")]
    #[schemars(range(min = 1, max = MAX_SCORES_LIMIT))]
    pub limit: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// Rows of any JSON values, said as a schema object rather than a bare `true`,
/// which strict clients' schema checks reject.
fn rows_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "array",
        "items": {"type": "array", "items": {"description": "Any JSON value."}}
    })
}

/// Result of `network_query`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct QueryOutput {
    /// "success" (also when no row matched: `rows` is empty).
    pub status: Success,
    /// The column names: each RETURN item's alias, or its text.
    pub columns: Vec<String>,
    /// This page of rows, each a list of values in column order. A node is {id, labels, properties}, a relationship {id, type, source, target, properties}, a path {nodes, relationships}.
    #[schemars(schema_with = "rows_schema")]
    pub rows: Vec<Vec<Value>>,
    /// How many rows the query returns in all.
    pub total: usize,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

/// The error object of a query that was not run, advice in tool terms.
fn query_error(error: QueryError) -> Error {
    match error {
        QueryError::Write { clause, position } => Error::InvalidValue {
            field: "query".into(),
            reason: format!(
                "at {position}: `{clause}` writes, and the query tool only reads; its clauses are {}. Change the network with network_add_node(s) and network_add_edge(s) (for CREATE and MERGE), network_update_node(s) (SET, REMOVE), network_remove_node and network_remove_edge (DELETE)",
                query::SUPPORTED_CLAUSES
            ),
        },
        QueryError::Parameter { .. } => Error::InvalidValue {
            field: "parameters".into(),
            reason: error.to_string(),
        },
        other => Error::InvalidValue {
            field: "query".into(),
            reason: other.to_string(),
        },
    }
}

/// A row larger than the page alone: its values shown while they fit, the
/// others replaced by a note.
fn cut_row(row: Vec<Value>, bytes: usize) -> Vec<Value> {
    let mut left = bytes;
    row.into_iter()
        .map(|value| {
            let size = reply_bytes(&value);
            if size <= left {
                left -= size;
                value
            } else {
                left = 0;
                Value::String(format!(
                    "(cut: {size} bytes; return less, e.g. size(list) or list[0..10])"
                ))
            }
        })
        .collect()
}

/// A query's rows, kept between pages ([`crate::mcp::answers`]): a later page
/// then costs O(limit), not the query again.
struct Rows(query::Answer);

impl Weigh for Rows {
    fn bytes(&self) -> usize {
        // Each value is a 32-byte slot plus what it holds, about as much again.
        usize::try_from(self.0.weight())
            .unwrap_or(usize::MAX)
            .saturating_mul(64)
    }
}

fn run_query(ctx: &ToolContext<'_>, p: QueryParams) -> Result<QueryOutput> {
    let limit = check_limit(p.limit, MAX_SCORES_LIMIT)?;
    // The parameters as text: what a cursor's call hash reads.
    let parameters = serde_json::to_string(&p.parameters).unwrap_or_default();
    ctx.registry.read(&p.network_name, |net| {
        let page = Page::open(
            ctx,
            net,
            "network_query",
            (&p.query, &parameters),
            p.cursor.as_deref(),
            limit,
            MAX_SCORES_LIMIT,
        )?;
        // Run once for all pages while the network stays as it is.
        let key = AnswerKey::new("network_query", &[net], (&p.query, &parameters));
        let kept = answer(ctx, key, || {
            query::run(net, &p.query, &p.parameters)
                .map(Rows)
                .map_err(query_error)
        })?;
        let answer = &kept.0;
        let total = answer.len();
        let end = page.end().min(total);
        let start = page.offset.min(end);
        let mut cut = None;
        let rows = page.fill_cut((start..end).map(|i| answer.row_json(net, i)), |row, bytes| {
            cut = Some(start + 1);
            cut_row(row, bytes)
        });
        let mut paging = Paging::of_total(&page, rows.len(), total);
        // A row too large for a reply is a success cut short: said so.
        if let Some(row) = cut {
            paging.truncated = true;
            paging.add_note(format!(
                "Row {row} is larger than a reply: its values past the reply's size are replaced by a note saying how large they were; return less of them (e.g. size(list) or list[0..10])."
            ));
        }
        let columns = answer.columns.clone();
        kept.keep_if(paging.next_cursor.is_some());
        Ok(QueryOutput {
            status: Success::Success,
            columns,
            rows,
            total,
            paging,
        })
    })
}

/// `network_query`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_query",
            title: "Cypher query",
            description: "Read-only Cypher: MATCH, OPTIONAL MATCH, -[*]-> paths, WHERE, WITH, RETURN (DISTINCT, ORDER BY, SKIP, LIMIT), aggregates, $params. Nodes: id, data, attributes; labels from `labels`. Edges: weight, attributes; type from `relation`. E.g. MATCH (a:task)-[:blocks]->(b) RETURN a.id, count(b)",
            toolset: Toolset::Algorithms,
            effect: Effect::Read,
            long_running: true,
        },
        run_query,
    )
}
