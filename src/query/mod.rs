//! Read-only openCypher queries over one [`Network`].
//!
//! [`run`] parses a query with the `open-cypher` crate (the openCypher 2024.3
//! grammar; a LALRPOP table parser) and runs a documented subset of it:
//! `MATCH` and `OPTIONAL MATCH` with node and relationship patterns, direction,
//! variable length `*min..max` (either bound may be left out) and path variables;
//! `WHERE` (with pattern predicates and `EXISTS { }`, `COUNT { }`, `COLLECT { }`
//! subqueries);
//! `WITH` and `RETURN` with `DISTINCT`, aliases, `ORDER BY`, `SKIP`, `LIMIT`
//! and the aggregates `count`, `sum`, `min`, `max`, `avg`, `collect`, `stDev`,
//! `stDevP`, `percentileCont`, `percentileDisc`; `UNWIND`; `UNION [ALL]`;
//! parameters (`$name`). Writing clauses are refused.
//!
//! # Functions
//!
//! - Graph and lists: `id labels type properties keys length nodes
//!   relationships startNode endNode size coalesce head last tail reverse range
//!   exists`, list and pattern comprehensions, `reduce`, `all/any/none/single`.
//! - Conversion and strings: `toString toInteger toFloat toBoolean toLower
//!   toUpper trim ltrim rtrim left right replace substring split`.
//! - Mathematics (`functions`): `abs round floor ceil sqrt sign exp log log10
//!   e pi sin cos tan cot asin acos atan atan2 degrees radians haversin rand`.
//! - Temporal values (`temporal`): `date localtime time localdatetime datetime`
//!   from nothing (now, one clock per query), an ISO 8601 string, a map of
//!   fields or another temporal value; their `.transaction()`, `.statement()`,
//!   `.realtime()`, `.truncate()`; `datetime.fromEpoch`,
//!   `datetime.fromEpochMillis`; `duration` and `duration.between`, `.inMonths`,
//!   `.inDays`, `.inSeconds`. A temporal value is one value for the bounds, and
//!   a row writes it as the string `toString()` gives (`2015-07-21`,
//!   `P1DT2H`). An unknown function's error lists them all.
//!
//! # The data model
//!
//! - A node's properties are its `id`, its attributes and, as `data`, its JSON
//!   payload (an attribute named `id` or `data` is hidden by them). Its labels
//!   come from its `labels` attribute, split at commas (`"db, api"` is `:db` and
//!   `:api`), the convention of the work tools' label filter. The `label`
//!   attribute is *not* a label: Mermaid and GraphML imports write display text
//!   there.
//! - A relationship's properties are its `weight` and its attributes; its type
//!   is its `relation` attribute, or `EDGE` when it has none (as the Cypher
//!   export writes it). `id(r)` is the edge id, `id(n)` the node id.
//!
//! # Bounds
//!
//! A query is at most [`MAX_QUERY_BYTES`] long, [`MAX_TOKENS`] tokens, and
//! nests brackets at most [`MAX_NESTING`] deep, all checked on the token stream
//! before parsing; expressions nest at most [`MAX_EXPRESSION_DEPTH`] levels
//! (checked while planning, so no evaluation recurses deeper; a pattern
//! comprehension or subquery inside an expression counts from zero again, but
//! each sits inside brackets, so [`MAX_NESTING`] bounds how deep they nest), a path pattern
//! has at most [`MAX_PATH_LENGTH`] relationships, and no clause makes more than
//! [`MAX_ROWS`] rows. A variable-length pattern has no hop cap: a path never
//! repeats a relationship, so its walk ends, and the walk keeps its own stack.
//! Work is charged to the call budget ([`crate::budget`]), which stops a walk
//! over too many paths; the values a query keeps are at most [`MAX_VALUES`].
//! No bound cuts an answer short: past one, the query fails.
//!
//! ```
//! use networks_mcp::network::{EdgeSpec, Network, NodeSpec};
//! use networks_mcp::query;
//!
//! let mut net = Network::new();
//! net.add_node_with(NodeSpec::new("api").with_attribute("labels", "service"))?;
//! net.add_node_with(NodeSpec::new("db").with_attribute("labels", "store"))?;
//! net.add_edge_with(EdgeSpec::new("api", "db").with_attribute("relation", "reads"))?;
//!
//! let answer = query::run(
//!     &net,
//!     "MATCH (s:service)-[:reads]->(t) RETURN s.id AS service, t.id AS store",
//!     &serde_json::Map::new(),
//! )
//! .unwrap();
//! assert_eq!(answer.columns, ["service", "store"]);
//! assert_eq!(answer.row_json(&net, 0), vec![serde_json::json!("api"), serde_json::json!("db")]);
//! # Ok::<(), networks_mcp::Error>(())
//! ```

mod exec;
mod explain;
mod functions;
mod group_index;
mod parsed;
mod plan;
mod pushdown;
mod temporal;
mod value;

use open_cypher::TokenKind;
use serde_json::{Map, Value};

use crate::network::Network;

/// The longest query, in bytes.
pub const MAX_QUERY_BYTES: usize = 16 * 1024;
/// The most tokens (words, numbers, symbols; not spaces or comments) in a query.
pub const MAX_TOKENS: usize = 2_000;
/// The deepest nesting of `(`, `[` and `{` in a query.
pub const MAX_NESTING: usize = 32;
/// The deepest nesting of expressions (operands of operators and functions).
pub const MAX_EXPRESSION_DEPTH: usize = 48;
/// The most relationships in one path pattern.
pub const MAX_PATH_LENGTH: usize = 32;
/// The most rows one clause may make.
pub const MAX_ROWS: usize = 250_000;
/// The most groups one aggregation may keep (a MATCH feeds its matches into
/// the groups one by one, so counting over more matches than [`MAX_ROWS`] is
/// fine; the groups themselves are kept). Each group also counts its key, row
/// and accumulators against [`MAX_VALUES`].
pub const MAX_GROUPS: usize = 1_000_000;
/// The most values one query may keep: list items, map entries, and 16-byte
/// pieces of the strings it makes. Values dropped as the query goes (a match's
/// path, a WHERE's operands, the keys of a row added to a group) are counted
/// only while they live; an aggregation counts what its groups keep.
pub const MAX_VALUES: u64 = 10_000_000;
/// The longest string a query may build, in bytes.
pub const MAX_STRING_BYTES: usize = 1 << 20;

/// The clauses [`run`] supports, as its errors list them.
pub const SUPPORTED_CLAUSES: &str = "MATCH, OPTIONAL MATCH, WHERE, WITH, UNWIND, RETURN (with DISTINCT, ORDER BY, SKIP, LIMIT), UNION [ALL]";

/// Why a query was not run. Nothing is ever changed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum QueryError {
    /// The text is not valid openCypher, or uses a name that is not defined.
    Syntax {
        /// Where, as `line L, column C`.
        position: String,
        /// What is wrong.
        message: String,
    },
    /// A writing clause (`CREATE`, `MERGE`, `SET`, `DELETE`, `REMOVE`).
    Write {
        /// The clause's keyword.
        clause: String,
        /// Where, as `line L, column C`.
        position: String,
    },
    /// Valid openCypher outside the supported subset.
    Unsupported {
        /// What is not supported (`` `CALL` ``, "subqueries"...).
        what: String,
        /// Where, as `line L, column C`.
        position: String,
    },
    /// A parameter the query uses was not given.
    Parameter {
        /// Its name, without `$`.
        name: String,
        /// Where, as `line L, column C`.
        position: String,
    },
    /// A function the subset does not have.
    UnknownFunction {
        /// Its name, lower-cased.
        name: String,
        /// Where, as `line L, column C`.
        position: String,
    },
    /// The query or its work is over one of the bounds of this module.
    Limit {
        /// Which bound, and what to do.
        reason: String,
    },
    /// An expression failed while running (a type error, a division by zero).
    Runtime {
        /// What failed.
        message: String,
    },
}

impl QueryError {
    fn syntax(source: &str, at: usize, message: String) -> QueryError {
        QueryError::Syntax {
            position: position(source, at),
            message,
        }
    }

    fn unsupported(source: &str, at: usize, what: &str) -> QueryError {
        QueryError::Unsupported {
            what: what.to_string(),
            position: position(source, at),
        }
    }
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryError::Syntax { position, message } => write!(f, "at {position}: {message}"),
            QueryError::Write { clause, position } => write!(
                f,
                "at {position}: `{clause}` writes, and queries only read (the supported clauses are {SUPPORTED_CLAUSES}); change the network through the library's edit calls"
            ),
            QueryError::Unsupported { what, position } => {
                let what = if what.chars().all(|c| c.is_ascii_uppercase() || c == ' ') {
                    format!("`{what}`")
                } else {
                    what.clone()
                };
                write!(
                    f,
                    "at {position}: {what} is not supported: the query tool only reads, with the clauses {SUPPORTED_CLAUSES}"
                )
            }
            QueryError::Parameter { name, position } => write!(
                f,
                "at {position}: the parameter ${name} is not given; pass it in the parameters, e.g. {{\"{name}\": ...}}"
            ),
            QueryError::UnknownFunction { name, position } => write!(
                f,
                "at {position}: there is no function {name}(); the functions are {}",
                plan::function_names()
            ),
            QueryError::Limit { reason } => f.write_str(reason),
            QueryError::Runtime { message } => {
                write!(f, "the query failed while running: {message}")
            }
        }
    }
}

/// A query's answer: its column names and its rows, in order.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The names of the columns: each item's alias, or its text.
    pub columns: Vec<String>,
    rows: Vec<Vec<value::Val>>,
}

impl Answer {
    /// How many rows the answer has.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the answer has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// How many values the rows hold, counted as trees (a string as one per
    /// 16 bytes): a measure of the memory the answer keeps.
    pub fn weight(&self) -> u64 {
        self.rows
            .iter()
            .flatten()
            .fold(0u64, |w, v| w.saturating_add(v.weight()))
    }

    /// Row `i` as JSON values, one per column: scalars, lists and maps as
    /// themselves, a node as `{id, labels, properties}`, a relationship as
    /// `{id, type, source, target, properties}`, a path as `{nodes,
    /// relationships}`. `net` must be the network the query ran on, unchanged.
    ///
    /// # Panics
    ///
    /// When `i` is not below [`Answer::len`].
    pub fn row_json(&self, net: &Network, i: usize) -> Vec<Value> {
        self.rows[i].iter().map(|v| v.to_json(net)).collect()
    }
}

fn charge(steps: u64) {
    crate::budget::charge(steps);
}

/// Whether the last query [`run`] on this thread read something that changes
/// from run to run: `rand()`, or the clock (`datetime()`, `timestamp()`, …).
/// Its answer may then differ from the same query's next.
#[doc(hidden)]
pub fn read_nondeterministic() -> bool {
    functions::random_read(false) || temporal::clock_read()
}

thread_local! {
    /// The weight of the values built so far by the query running on this
    /// thread ([`value::Val::weight`]); reset by [`run`].
    static BUILT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts `weight` more values built.
fn built(weight: u64) {
    BUILT.with(|b| b.set(b.get().saturating_add(weight)));
}

/// The weight counted so far, for [`reset_built`].
fn built_now() -> u64 {
    BUILT.with(std::cell::Cell::get)
}

/// Forgets what was counted since [`built_now`] answered `mark`: values that
/// were dropped (the keys of a row added to a group, a WHERE's operands).
fn reset_built(mark: u64) {
    BUILT.with(|b| b.set(b.get().min(mark)));
}

/// Counts `weight` fewer values: one that was counted and is dropped.
fn release(weight: u64) {
    BUILT.with(|b| b.set(b.get().saturating_sub(weight)));
}

/// Fails once the values built pass [`MAX_VALUES`]: called for every row, so a
/// query stops within one row's expressions of the bound.
fn check_built() -> Result<(), QueryError> {
    if BUILT.with(std::cell::Cell::get) > MAX_VALUES {
        return Err(QueryError::Limit {
            reason: format!(
                "the query builds more than {MAX_VALUES} values (list items and map entries counted as trees, 16-byte pieces of strings); collect or return less"
            ),
        });
    }
    Ok(())
}

/// `line L, column C` (both from 1; columns in characters) of byte `at`.
fn position(source: &str, at: usize) -> String {
    let at = at.min(source.len());
    let before = source.get(..at).unwrap_or(source);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    format!("line {line}, column {column}")
}

/// Checks the bounds that must hold before the parser sees a query: its length,
/// its number of tokens and its bracket nesting (the parser builds a tree as
/// deep as the nesting, which is then dropped recursively).
fn check_shape(source: &str) -> Result<(), QueryError> {
    if source.len() > MAX_QUERY_BYTES {
        return Err(QueryError::Limit {
            reason: format!(
                "the query is {} bytes long; a query is at most {MAX_QUERY_BYTES} bytes. Pass values as parameters instead of writing them into the text",
                source.len()
            ),
        });
    }
    let lexed = open_cypher::lex(source);
    let mut depth = 0usize;
    let mut tokens = 0usize;
    for token in &lexed.tokens {
        if token.kind.is_trivia() {
            continue;
        }
        tokens += 1;
        match token.kind {
            TokenKind::LeftParen | TokenKind::LeftBracket | TokenKind::LeftBrace => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(QueryError::Limit {
                        reason: format!(
                            "brackets nest more than {MAX_NESTING} deep (at {}); flatten the expression",
                            position(source, token.span.start)
                        ),
                    });
                }
            }
            TokenKind::RightParen | TokenKind::RightBracket | TokenKind::RightBrace => {
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
    }
    charge(tokens as u64);
    if tokens > MAX_TOKENS {
        return Err(QueryError::Limit {
            reason: format!(
                "the query has {tokens} tokens; a query has at most {MAX_TOKENS}. Pass long lists as parameters"
            ),
        });
    }
    Ok(())
}

/// The refusal of a query that does not parse because it uses a clause
/// outside the subset that the grammar of the parser lacks, or refuses in the
/// place it stands (`CALL { … }`, `LOAD CSV`, `FOREACH`, `USE`, `INSERT`,
/// schema commands...): the first such clause, found on the token stream, so
/// the words of strings, comments, escaped names and property keys never count.
fn clause_refusal(source: &str) -> Option<QueryError> {
    let lexed = open_cypher::lex(source);
    let words: Vec<(String, usize, TokenKind)> = lexed
        .tokens
        .iter()
        .filter(|t| !t.kind.is_trivia())
        .map(|t| {
            let text = source.get(t.span.start..t.span.end).unwrap_or("");
            (text.to_ascii_uppercase(), t.span.start, t.kind)
        })
        .collect();
    let word = |i: usize| words.get(i).map_or("", |w| w.0.as_str());
    for (i, (text, at, kind)) in words.iter().enumerate() {
        // A property key (`n.call`) or a label (`:Load`) is not a clause.
        if i > 0 && matches!(words[i - 1].2, TokenKind::Dot | TokenKind::Colon) {
            continue;
        }
        let next = word(i + 1);
        let write = |clause: &str| {
            Some(QueryError::Write {
                clause: clause.to_string(),
                position: position(source, *at),
            })
        };
        let unsupported = |what: &str| Some(QueryError::unsupported(source, *at, what));
        let found = match text.as_str() {
            "CALL" if next == "{" || next == "(" => unsupported("`CALL { … }` (subqueries)"),
            "CALL" if matches!(words.get(i + 1).map(|w| w.2), Some(TokenKind::Identifier)) => {
                unsupported("CALL")
            }
            "LOAD" if next == "CSV" => unsupported("LOAD CSV"),
            "FOREACH" if next == "(" => write("FOREACH"),
            "USE" if i == 0 || word(i - 1) == "UNION" || word(i - 1) == "ALL" => unsupported("USE"),
            "INSERT" if next == "(" => write("INSERT"),
            "NODETACH" | "DETACH" if next == "DELETE" => write("DELETE"),
            "CREATE" | "MERGE" | "DELETE" | "SET" | "REMOVE" | "DROP" | "ALTER"
                if matches!(
                    next,
                    "INDEX"
                        | "CONSTRAINT"
                        | "DATABASE"
                        | "ALIAS"
                        | "USER"
                        | "ROLE"
                        | "GRAPH"
                        | "OR"
                ) =>
            {
                write(&format!("{text} {next}"))
            }
            "SHOW" | "TERMINATE" | "GRANT" | "DENY" | "REVOKE" if i == 0 => unsupported(text),
            // GQL's linear clauses, where a clause would start: first, or
            // after a complete expression.
            "LET" | "FILTER" | "FINISH" | "NEXT" | "SELECT"
                if *kind == TokenKind::Identifier
                    && (i == 0 || ends_expression(words[i - 1].2))
                    && !matches!(next, "(" | "." | "=" | ",") =>
            {
                unsupported(text)
            }
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    // Else a writing clause inside what did not parse (a FOREACH's or a
    // subquery's body): the query writes.
    for (i, (text, at, kind)) in words.iter().enumerate() {
        let after_dot = i > 0 && matches!(words[i - 1].2, TokenKind::Dot | TokenKind::Colon);
        // A map key (`{set: 1}`) is not a clause either.
        let map_key = word(i + 1) == ":";
        if !after_dot
            && !map_key
            && *kind != TokenKind::Identifier
            && plan::WRITE_CLAUSES.contains(&text.as_str())
        {
            return Some(QueryError::Write {
                clause: text.clone(),
                position: position(source, *at),
            });
        }
    }
    None
}

/// Whether a token of this kind can end an expression.
fn ends_expression(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::RightParen
            | TokenKind::RightBracket
            | TokenKind::RightBrace
            | TokenKind::Identifier
            | TokenKind::EscapedIdentifier
    )
}

/// The most distinct names (labels, types, keys) a scan for warnings keeps to
/// list them.
const MAX_NAMES_SCANNED: usize = 1_000;

/// Warns ([`crate::warnings`]) about each relationship type, node label and
/// property key the query names that nothing in `net` has: a pattern with it
/// matches nothing and a property read is null everywhere, which an agent would
/// take for the answer. Only when the call collects warnings; one pass over the
/// nodes (for labels and node keys) and one over the edges (for types and
/// relationship keys), each stopped as soon as every name is found, so a query
/// whose names exist costs little; charged to the call's budget.
fn warn_unknown_names(net: &Network, names: &plan::Names) {
    use crate::warnings::{WarningCode, closest, list_names, warn};
    use std::collections::BTreeSet;
    if !crate::warnings::collecting() {
        return;
    }
    let missing = |asked: &[String], known: &[&str]| -> Vec<String> {
        asked
            .iter()
            .filter(|n| !known.contains(&n.as_str()))
            .cloned()
            .collect()
    };
    let mut labels = missing(&names.labels, &[]);
    let mut node_keys = missing(&names.node_keys, &["id"]);
    let (mut seen_labels, mut seen_node_keys) = (BTreeSet::new(), BTreeSet::from(["id"]));
    if !labels.is_empty() || !node_keys.is_empty() {
        for (n, node) in net.graph().node_weights().enumerate() {
            if n % 1024 == 1023 {
                charge(1024);
            }
            if node.data.is_some() && seen_node_keys.len() < MAX_NAMES_SCANNED {
                seen_node_keys.insert("data");
            }
            for (key, _) in node.attributes.iter() {
                if seen_node_keys.len() < MAX_NAMES_SCANNED {
                    seen_node_keys.insert(key);
                }
            }
            if let Some(serde_json::Value::String(text)) =
                node.attributes.get(value::LABELS_ATTRIBUTE)
            {
                for label in text.split(',').map(str::trim).filter(|l| !l.is_empty()) {
                    if seen_labels.len() < MAX_NAMES_SCANNED {
                        seen_labels.insert(label);
                    }
                }
            }
            labels.retain(|l| !seen_labels.contains(l.as_str()));
            node_keys.retain(|k| !seen_node_keys.contains(k.as_str()));
            if labels.is_empty() && node_keys.is_empty() {
                break;
            }
        }
    }
    let mut types = missing(&names.types, &[]);
    let mut rel_keys = missing(&names.rel_keys, &["weight"]);
    let (mut seen_types, mut seen_rel_keys) = (BTreeSet::new(), BTreeSet::from(["weight"]));
    if !types.is_empty() || !rel_keys.is_empty() {
        for (n, edge) in net.graph().edge_weights().enumerate() {
            if n % 1024 == 1023 {
                charge(1024);
            }
            let relation = match edge.attributes.get(value::TYPE_ATTRIBUTE) {
                Some(serde_json::Value::String(t)) if !t.is_empty() => t.as_str(),
                _ => value::DEFAULT_TYPE,
            };
            if seen_types.len() < MAX_NAMES_SCANNED {
                seen_types.insert(relation);
            }
            for (key, _) in edge.attributes.iter() {
                if seen_rel_keys.len() < MAX_NAMES_SCANNED {
                    seen_rel_keys.insert(key);
                }
            }
            types.retain(|t| !seen_types.contains(t.as_str()));
            rel_keys.retain(|k| !seen_rel_keys.contains(k.as_str()));
            if types.is_empty() && rel_keys.is_empty() {
                break;
            }
        }
    }
    let hint = |asked: &str, seen: &BTreeSet<&str>| {
        closest(asked, seen.iter().copied())
            .map(|n| format!(" Did you mean \"{n}\"?"))
            .unwrap_or_default()
    };
    for name in &types {
        warn(
            WarningCode::UnknownRelation,
            format!(
                "The query names the relationship type \"{name}\", which no edge has (a type is the edge's \"{}\" attribute, or {}), so that pattern matches nothing.{} Types here: {}.",
                value::TYPE_ATTRIBUTE,
                value::DEFAULT_TYPE,
                hint(name, &seen_types),
                list_names(seen_types.iter().copied())
            ),
        );
    }
    for name in &labels {
        warn(
            WarningCode::UnknownLabel,
            format!(
                "The query names the label \"{name}\", which no node has (labels come from the comma-separated \"{}\" attribute), so it matches nothing.{} Labels here: {}.",
                value::LABELS_ATTRIBUTE,
                hint(name, &seen_labels),
                list_names(seen_labels.iter().copied())
            ),
        );
    }
    warn_unknown_ids(net, &names.node_ids);
    for (keys, seen, what) in [
        (&node_keys, &seen_node_keys, "node"),
        (&rel_keys, &seen_rel_keys, "relationship"),
    ] {
        for key in keys {
            warn(
                WarningCode::UnknownAttribute,
                format!(
                    "The query reads the {what} property \"{key}\", which no {what} has, so it is null everywhere.{} {}{} properties here: {}.",
                    hint(key, seen),
                    what[..1].to_uppercase(),
                    &what[1..],
                    list_names(seen.iter().copied())
                ),
            );
        }
    }
}

/// The node ids the query matches on that name no node, named with the
/// nearest ids one pass over the ids finds (for the first few only): a pattern
/// anchored on such an id matches nothing, and an agent would take the empty
/// answer for the truth about a node it misspelled.
fn warn_unknown_ids(net: &Network, ids: &[String]) {
    use crate::warnings::{WarningCode, closest, warn};
    /// Missing ids given suggestions; each costs a pass over the ids.
    const SUGGESTED: usize = 3;
    let missing: Vec<&String> = ids.iter().filter(|id| net.index_of(id).is_none()).collect();
    for (n, id) in missing.iter().enumerate() {
        let hint = if n < SUGGESTED {
            charge(net.node_count() as u64);
            closest(id, net.graph().node_weights().map(|node| node.id.as_str()))
                .map(|near| format!(" Did you mean \"{near}\"?"))
                .unwrap_or_default()
        } else {
            String::new()
        };
        warn(
            WarningCode::UnknownValue,
            format!(
                "The query matches the node id \"{id}\", which no node has, so that pattern matches nothing.{hint}"
            ),
        );
    }
}

/// Runs the read-only `query` on `net` with `parameters` (`$name` → value).
///
/// Deterministic: rows come in the order of the matches (nodes and edges in
/// insertion order) unless ORDER BY says otherwise. Charges the installed call
/// budget for every node, edge and row it touches.
///
/// # Errors
///
/// [`QueryError`]: a syntax error, a writing clause, something outside the
/// subset or over a bound, a missing parameter, or an expression that fails
/// (each with its position in the query where there is one).
pub fn run(
    net: &Network,
    query: &str,
    parameters: &Map<String, Value>,
) -> Result<Answer, QueryError> {
    check_shape(query)?;
    let (mode, text) = explain::strip(query);
    let query: &str = &text;
    let program =
        parsed::program(query, |q| open_cypher::parse(q).map(|p| p.program)).map_err(|errors| {
            // A clause the grammar does not have, or has only inside a write,
            // is named as such rather than by what the parser expected instead.
            if let Some(refusal) = clause_refusal(query) {
                return refusal;
            }
            let first = errors.diagnostics().first();
            QueryError::Syntax {
                position: position(query, first.map_or(0, |d| d.primary_span.start)),
                message: first.map_or_else(
                    || "the query does not parse".to_string(),
                    |d| match &d.help {
                        Some(help) => format!("{}; {help}", d.message),
                        None => d.message.clone(),
                    },
                ),
            }
        })?;
    BUILT.with(|b| b.set(0));
    temporal::reset_clock();
    functions::random_read(true);
    let plan = plan::plan(query, &program, parameters)?;
    warn_unknown_names(net, &plan.names);
    let rows = match mode {
        explain::Mode::Run => exec::run(net, &plan)?,
        explain::Mode::Explain => explain::rows(net, &plan, None),
        explain::Mode::Profile => {
            let profiled = exec::profile(net, &plan)?;
            explain::rows(net, &plan, Some(&profiled))
        }
    };
    let columns = match mode {
        explain::Mode::Run => plan.columns,
        _ => explain::COLUMNS.iter().map(|c| c.to_string()).collect(),
    };
    Ok(Answer { columns, rows })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parser is LALRPOP's table-driven LR automaton, but the tree it builds
    /// is as deep as the input nests, and dropping it recurses. Measured here on
    /// a small stack: this is why [`check_shape`] bounds nesting before parsing.
    #[test]
    fn nesting_is_refused_before_parsing() {
        let deep = format!("RETURN {}1{}", "(".repeat(5000), ")".repeat(5000));
        let err = run(&Network::new(), &deep, &Map::new()).unwrap_err();
        assert!(err.to_string().contains("nest more than"), "{err}");
        let long_chain = format!("RETURN 1{}", " + 1".repeat(900));
        let answer = run(&Network::new(), &long_chain, &Map::new()).unwrap();
        assert_eq!(answer.row_json(&Network::new(), 0), vec![Value::from(901)]);
    }

    /// Measured on a compute worker's stack (tokio's blocking threads: 2 MiB),
    /// in a debug build: the parser (LALRPOP's table-driven automaton) and the
    /// drop of its tree take 2,000 nested `NOT`s, even in 256 KiB; planning and
    /// evaluation recurse only to their own bounds, the matcher once per pattern
    /// part and relationship (a variable-length one walks with a stack of its own).
    #[test]
    fn the_deepest_queries_within_the_bounds_fit_a_worker_stack() {
        let nots = format!("RETURN {}true", "NOT ".repeat(MAX_TOKENS - 2));
        let parse_only = nots.clone();
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || assert!(open_cypher::parse(&parse_only).is_ok()))
            .unwrap()
            .join()
            .expect("no stack overflow in the parser");
        let minus = format!("RETURN {}1", "- ".repeat(MAX_EXPRESSION_DEPTH - 1));
        let parens = format!(
            "RETURN {}1{}",
            "abs(".repeat(MAX_NESTING - 1),
            ")".repeat(MAX_NESTING - 1)
        );
        let parts = (0..MAX_TOKENS / 6)
            .map(|i| format!("(a{i})"))
            .collect::<Vec<_>>()
            .join(",");
        let many_parts = format!("MATCH {parts} RETURN count(*)");
        let long_path = format!(
            "MATCH (a){} RETURN count(*)",
            "-[*0..10]->()".repeat(MAX_PATH_LENGTH)
        );
        // Values nest one level per WITH: as deep as the token bound allows,
        // then converted, compared, ordered and grouped.
        let nested = format!(
            "WITH [1] AS a {}RETURN a, a = a, [a] IN [[a]] ORDER BY a",
            "WITH [a, 1] AS a ".repeat((MAX_TOKENS - 20) / 10)
        );
        let grouped = nested
            .replace("ORDER BY a", "")
            .replace("RETURN a,", "RETURN count(DISTINCT a), collect(a),");
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let mut net = Network::new();
                net.add_node("x").unwrap();
                net.add_edge("x", "x", 1.0).unwrap();
                let none = Map::new();
                let err = run(&net, &nots, &none).unwrap_err();
                assert!(err.to_string().contains("nest at most"), "{err}");
                assert_eq!(
                    run(&net, &minus, &none).unwrap().row_json(&net, 0),
                    vec![Value::from(-1)]
                );
                assert_eq!(
                    run(&net, &parens, &none).unwrap().row_json(&net, 0),
                    vec![Value::from(1)]
                );
                assert_eq!(
                    run(&net, &many_parts, &none).unwrap().row_json(&net, 0),
                    vec![Value::from(1)]
                );
                assert_eq!(
                    run(&net, &long_path, &none).unwrap().row_json(&net, 0),
                    vec![Value::from(33)]
                );
                let answer = run(&net, &nested, &none).unwrap();
                assert_eq!(answer.row_json(&net, 0)[1], Value::Bool(true));
                let answer = run(&net, &grouped, &none).unwrap();
                assert_eq!(answer.row_json(&net, 0)[0], Value::from(1));
            })
            .unwrap()
            .join()
            .expect("no stack overflow");
    }

    /// A variable-length pattern keeps its own stack: a path 20,000 hops long
    /// is walked on a 256 KiB stack, in a debug build.
    #[test]
    fn a_path_thousands_of_hops_long_needs_no_stack() {
        let mut net = Network::new();
        let n = 20_000;
        for i in 0..n {
            net.add_node(&format!("n{i}")).unwrap();
        }
        for i in 1..n {
            net.add_edge(&format!("n{}", i - 1), &format!("n{i}"), 1.0)
                .unwrap();
        }
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let none = Map::new();
                for (query, want) in [
                    ("MATCH ({id: 'n0'})-[*]->(b) RETURN count(*)", n - 1),
                    (
                        "MATCH p = ({id: 'n0'})-[*]->({id: 'n19999'}) RETURN length(p)",
                        n - 1,
                    ),
                    (
                        "MATCH ({id: 'n19999'})<-[r*0..]-(a) RETURN max(size(r))",
                        n - 1,
                    ),
                    ("MATCH (a)-[*]-({id: 'n0'}) RETURN count(*)", n - 1),
                ] {
                    let answer = run(&net, query, &none).unwrap();
                    assert_eq!(answer.row_json(&net, 0), vec![Value::from(want)], "{query}");
                }
            })
            .unwrap()
            .join()
            .expect("no stack overflow");
    }
}
