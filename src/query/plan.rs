//! From open-cypher's syntax tree to what [`super::exec`] runs: clauses checked
//! against the supported subset, variables resolved to row slots, parameters
//! substituted, aggregates lifted out of projections.
//!
//! Conversion recurses only into genuinely nested expressions (parentheses,
//! operands of unary operators, function arguments, lists), counting the depth
//! and refusing past [`MAX_EXPRESSION_DEPTH`]; chains of binary operators
//! (`a AND b AND c …`, `1 + 2 + 3 …`), which the parser builds left-deep, are
//! walked in a loop into one flat [`Expr::Chain`], so their length costs no depth.

use open_cypher::ast::{self, BinaryOperator, ClauseKind, ExprKind, LiteralKind};
use serde_json::{Map, Value};

use super::value::Val;
use super::{MAX_EXPRESSION_DEPTH, MAX_PATH_LENGTH, QueryError};

/// A binary operator of an [`Expr::Chain`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum BinOp {
    Or,
    Xor,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    StartsWith,
    EndsWith,
    Contains,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
}

/// A built-in function.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Func {
    Id,
    Labels,
    Type,
    Properties,
    Keys,
    Length,
    Nodes,
    Relationships,
    StartNode,
    EndNode,
    Size,
    Coalesce,
    Head,
    Last,
    Tail,
    Reverse,
    Range,
    ToString,
    ToInteger,
    ToFloat,
    ToBoolean,
    ToLower,
    ToUpper,
    Trim,
    Replace,
    Substring,
    Split,
    Abs,
    Round,
    Floor,
    Ceil,
    Sqrt,
    Sign,
    Exists,
    /// A temporal function ([`super::temporal`]).
    Temporal(super::temporal::Fn),
    /// A mathematical or string function of [`super::functions`].
    More(super::functions::Fn),
}

const FUNCTIONS: &[(&str, Func, usize, usize)] = &[
    ("id", Func::Id, 1, 1),
    ("labels", Func::Labels, 1, 1),
    ("type", Func::Type, 1, 1),
    ("properties", Func::Properties, 1, 1),
    ("keys", Func::Keys, 1, 1),
    ("length", Func::Length, 1, 1),
    ("nodes", Func::Nodes, 1, 1),
    ("relationships", Func::Relationships, 1, 1),
    ("startnode", Func::StartNode, 1, 1),
    ("endnode", Func::EndNode, 1, 1),
    ("size", Func::Size, 1, 1),
    ("coalesce", Func::Coalesce, 1, usize::MAX),
    ("head", Func::Head, 1, 1),
    ("last", Func::Last, 1, 1),
    ("tail", Func::Tail, 1, 1),
    ("reverse", Func::Reverse, 1, 1),
    ("range", Func::Range, 2, 3),
    ("tostring", Func::ToString, 1, 1),
    ("tointeger", Func::ToInteger, 1, 1),
    ("tofloat", Func::ToFloat, 1, 1),
    ("toboolean", Func::ToBoolean, 1, 1),
    ("tolower", Func::ToLower, 1, 1),
    ("toupper", Func::ToUpper, 1, 1),
    ("trim", Func::Trim, 1, 1),
    ("replace", Func::Replace, 3, 3),
    ("substring", Func::Substring, 2, 3),
    ("split", Func::Split, 2, 2),
    ("abs", Func::Abs, 1, 1),
    ("round", Func::Round, 1, 1),
    ("floor", Func::Floor, 1, 1),
    ("ceil", Func::Ceil, 1, 1),
    ("sqrt", Func::Sqrt, 1, 1),
    ("sign", Func::Sign, 1, 1),
    ("exists", Func::Exists, 1, 1),
];

/// The functions, as the error of an unknown one lists them.
pub(crate) fn function_names() -> String {
    let mut names: Vec<&str> = FUNCTIONS.iter().map(|f| f.0).collect();
    names.extend(super::functions::FUNCTIONS.iter().map(|f| f.0));
    names.extend(super::temporal::FUNCTIONS.iter().map(|f| f.0));
    names.extend(AGGREGATES.iter().map(|a| a.0));
    names.join(", ")
}

/// The aggregate functions, by name.
const AGGREGATES: &[(&str, AggKind)] = &[
    ("count", AggKind::Count),
    ("sum", AggKind::Sum),
    ("min", AggKind::Min),
    ("max", AggKind::Max),
    ("avg", AggKind::Avg),
    ("collect", AggKind::Collect),
    ("stdev", AggKind::StDev),
    ("stdevp", AggKind::StDevP),
    ("percentilecont", AggKind::PercentileCont(0.0)),
    ("percentiledisc", AggKind::PercentileDisc(0.0)),
];

/// An aggregate function.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum AggKind {
    CountStar,
    Count,
    Sum,
    Min,
    Max,
    Avg,
    Collect,
    /// The sample standard deviation.
    StDev,
    /// The population standard deviation.
    StDevP,
    /// The percentile (0 to 1), interpolated between values.
    PercentileCont(f64),
    /// The percentile (0 to 1): the nearest value.
    PercentileDisc(f64),
}

/// One aggregate of a projection.
#[derive(Debug, Clone)]
pub(crate) struct Agg {
    pub kind: AggKind,
    pub distinct: bool,
    pub arg: Option<Expr>,
}

/// An expression, its variables resolved to row slots.
#[derive(Debug, Clone)]
pub(crate) enum Expr {
    Lit(Val),
    Var(usize),
    Prop(Box<Expr>, String),
    Index(Box<Expr>, Box<Expr>),
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    List(Vec<Expr>),
    Map(Vec<(String, Expr)>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    /// `first op₁ e₁ op₂ e₂ …`, evaluated left to right.
    Chain(Box<Expr>, Vec<(BinOp, Expr)>),
    IsNull(Box<Expr>, bool),
    HasLabels(Box<Expr>, Vec<String>),
    Func(Func, Vec<Expr>),
    /// The value of the projection's aggregate of this number.
    Agg(usize),
    Case {
        operand: Option<Box<Expr>>,
        alternatives: Vec<(Expr, Expr)>,
        otherwise: Option<Box<Expr>>,
    },
    /// `[x IN list WHERE pred | proj]`: `slot` is x's.
    ListComp {
        slot: usize,
        list: Box<Expr>,
        predicate: Option<Box<Expr>>,
        projection: Option<Box<Expr>>,
    },
    /// A pattern predicate `(a)-->(b)` or `EXISTS { ... }`: whether the steps,
    /// run on the current row, find a row; `COUNT { ... }`: how many;
    /// `COLLECT { ... }`: the list of their one column.
    Subquery {
        steps: Vec<Step>,
        kind: SubqueryKind,
    },
    /// `reduce(acc = initial, x IN list | expression)`: `acc` and `x` are the
    /// slots `slot` and `slot + 1`.
    Reduce {
        slot: usize,
        initial: Box<Expr>,
        list: Box<Expr>,
        expression: Box<Expr>,
    },
    /// `[p = (a)-->(b) WHERE pred | proj]`: `proj` of every match.
    PatternComp {
        plan: Box<MatchPlan>,
        projection: Box<Expr>,
    },
    /// `all/any/none/single(x IN list WHERE pred)`.
    Quantified {
        kind: Quantifier,
        slot: usize,
        list: Box<Expr>,
        predicate: Box<Expr>,
    },
}

/// What a subquery expression answers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SubqueryKind {
    Exists,
    Count,
    Collect,
}

/// The kind of a quantified predicate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Quantifier {
    All,
    Any,
    None,
    Single,
}

/// Which way a relationship pattern goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Dir {
    Out,
    In,
    Both,
}

/// A node pattern `(v:Label {k: e})`.
#[derive(Debug, Clone)]
pub(crate) struct NodePat {
    /// The variable's name, for EXPLAIN.
    pub name: Option<String>,
    pub slot: Option<usize>,
    /// The slot held a value before this pattern element (compare, don't bind).
    pub bound: bool,
    pub labels: Vec<String>,
    pub properties: Vec<(String, Expr)>,
}

/// A relationship pattern `-[v:T1|T2 *min..max {k: e}]->`.
#[derive(Debug, Clone)]
pub(crate) struct RelPat {
    pub slot: Option<usize>,
    pub bound: bool,
    pub types: Vec<String>,
    pub dir: Dir,
    pub properties: Vec<(String, Expr)>,
    /// `Some((min, max))` for a variable-length pattern; `max` is `None` when
    /// it has no upper bound.
    pub hops: Option<(u32, Option<u32>)>,
    /// This pattern's number in the query (0, 1, ...): what the run keys the
    /// relation classes its types stand for by.
    pub id: usize,
}

/// One comma-separated part of a MATCH pattern: a path.
#[derive(Debug, Clone)]
pub(crate) struct PathPat {
    pub slot: Option<usize>,
    pub start: NodePat,
    pub steps: Vec<(RelPat, NodePat)>,
    /// The pattern as written, for EXPLAIN.
    pub text: String,
}

/// A MATCH or OPTIONAL MATCH.
#[derive(Debug, Clone)]
pub(crate) struct MatchPlan {
    pub optional: bool,
    pub parts: Vec<PathPat>,
    pub predicate: Option<Expr>,
    /// The row width after the clause.
    pub width: usize,
    /// The slots this clause binds (null when an OPTIONAL MATCH finds nothing).
    pub new_slots: Vec<usize>,
    /// Whether the order of its rows is not seen: the next clause aggregates
    /// (without `collect`) or orders them. A path may then be walked from
    /// whichever end the planner estimates to be the most selective.
    pub free_order: bool,
}

/// A WITH or RETURN.
#[derive(Debug, Clone)]
pub(crate) struct Projection {
    pub items: Vec<Expr>,
    pub aggregates: Vec<Agg>,
    /// For each item: whether it holds an aggregate (not a grouping key).
    pub aggregated: Vec<bool>,
    pub distinct: bool,
    /// ORDER BY keys and whether each is descending; evaluated on the input row
    /// followed by the projected columns when `extended`, else on the columns.
    pub order: Vec<(Expr, bool)>,
    pub extended: bool,
    pub skip: Option<usize>,
    pub limit: Option<usize>,
    /// WITH … WHERE, after SKIP and LIMIT, evaluated on the same row as ORDER BY.
    pub predicate: Option<Expr>,
}

/// A clause to run.
#[derive(Debug, Clone)]
pub(crate) enum Step {
    Match(MatchPlan),
    Unwind { list: Expr },
    Project(Projection),
}

/// The names a query reads from the network, for the warnings about those
/// that match nothing ([`super::warn_unknown_names`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct Names {
    /// Relationship types of patterns (`[:T]`).
    pub types: Vec<String>,
    /// Node labels of patterns and label tests (`(n:L)`, `n:L`).
    pub labels: Vec<String>,
    /// Property keys read of nodes (`n.key`, `(n {key: 1})`).
    pub node_keys: Vec<String>,
    /// Property keys read of relationships.
    pub rel_keys: Vec<String>,
    /// Node ids the query gives as text to match (`(n {id: 'a'})`,
    /// `n.id = 'a'`), parameters included.
    pub node_ids: Vec<String>,
}

impl Names {
    fn add(list: &mut Vec<String>, name: &str) {
        if !list.iter().any(|n| n == name) {
            list.push(name.to_string());
        }
    }
}

/// A query: its single queries joined by UNION.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub names: Names,
    pub parts: Vec<Vec<Step>>,
    /// Whether the UNION keeps duplicates (UNION ALL).
    pub union_all: bool,
    pub columns: Vec<String>,
}

/// The clause names a write is refused with.
pub(crate) const WRITE_CLAUSES: &[&str] = &["CREATE", "MERGE", "SET", "DELETE", "REMOVE"];

/// What a variable holds, as far as planning knows: patterns may only rebind a
/// variable of their own kind (or one whose kind is not known until run time).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Node,
    Rel,
    RelList,
    Path,
    /// A literal, list or map: never a node or a relationship.
    Value,
    Any,
}

impl Kind {
    fn describe(self) -> &'static str {
        match self {
            Kind::Node => "a node",
            Kind::Rel => "a relationship",
            Kind::RelList => "a list of relationships",
            Kind::Path => "a path",
            Kind::Value => "a value that is neither a node nor a relationship",
            Kind::Any => "a value",
        }
    }
}

struct Planner<'a> {
    source: &'a str,
    parameters: &'a Map<String, Value>,
    scope: Vec<Option<String>>,
    /// The kind of each slot of `scope`.
    kinds: Vec<Kind>,
    /// The first slot the MATCH being planned binds.
    match_start: usize,
    /// In an ORDER BY or WHERE after an aggregating or DISTINCT projection: the
    /// text of each projected item and its column's slot.
    substitute: Vec<(String, usize)>,
    /// Whether the expression about to be planned stands where a pattern may
    /// be a predicate (a WHERE, an operand of NOT, AND, OR, XOR there).
    pattern_here: bool,
    names: Names,
    /// Relationship patterns planned so far.
    rel_patterns: usize,
}

type Res<T> = Result<T, QueryError>;

/// What a pattern or subquery inside an expression may change of the planner,
/// kept to be put back after it.
struct Saved {
    scope: Vec<Option<String>>,
    kinds: Vec<Kind>,
    match_start: usize,
    substitute: Vec<(String, usize)>,
}

/// The query's plan, or the first thing in it outside the subset.
pub(crate) fn plan(
    source: &str,
    program: &ast::Program,
    parameters: &Map<String, Value>,
) -> Res<Plan> {
    let Some(statement) = program.statements.first() else {
        return Err(QueryError::syntax(
            source,
            0,
            "the query is empty; write e.g. MATCH (n) RETURN n.id LIMIT 5".into(),
        ));
    };
    let ast::StatementKind::Query(query) = &statement.kind else {
        return Err(QueryError::syntax(
            source,
            statement.span.start,
            "this is not a query".into(),
        ));
    };
    if let Some(mode) = &query.mode {
        return Err(QueryError::unsupported(
            source,
            mode.span.start,
            "EXPLAIN and PROFILE",
        ));
    }
    let ast::QueryKind::Regular(regular) = &query.query.kind else {
        return Err(QueryError::syntax(
            source,
            query.query.span.start,
            "this is not a query".into(),
        ));
    };
    let mut planner = Planner {
        source,
        parameters,
        scope: Vec::new(),
        kinds: Vec::new(),
        match_start: 0,
        pattern_here: false,
        substitute: Vec::new(),
        names: Names::default(),
        rel_patterns: 0,
    };
    let mut parts = vec![planner.single(&regular.head)?];
    let columns = planner.columns();
    let mut union_all = None;
    for branch in &regular.unions {
        let all = matches!(branch.operator.kind, ast::UnionOperator::All);
        if union_all.is_some_and(|a| a != all) {
            return Err(QueryError::syntax(
                source,
                branch.operator.span.start,
                "UNION and UNION ALL cannot be mixed in one query".into(),
            ));
        }
        union_all = Some(all);
        planner.scope.clear();
        planner.kinds.clear();
        parts.push(planner.single(&branch.query)?);
        if planner.columns() != columns {
            return Err(QueryError::syntax(
                source,
                branch.query.span.start,
                format!(
                    "every part of a UNION must return the same columns: {} then {}",
                    columns.join(", "),
                    planner.columns().join(", ")
                ),
            ));
        }
    }
    Ok(Plan {
        names: planner.names,
        parts,
        union_all: union_all.unwrap_or(false),
        columns,
    })
}

/// The source name of a clause kind, for errors.
fn clause_name(kind: &ClauseKind) -> &'static str {
    match kind {
        ClauseKind::Use(_) => "USE",
        ClauseKind::Match(_) => "MATCH",
        ClauseKind::Unwind(_) => "UNWIND",
        ClauseKind::Let(_) => "LET",
        ClauseKind::Create(_) => "CREATE",
        ClauseKind::Insert(_) => "INSERT",
        ClauseKind::Merge(_) => "MERGE",
        ClauseKind::Delete(_) => "DELETE",
        ClauseKind::Set(_) => "SET",
        ClauseKind::Remove(_) => "REMOVE",
        ClauseKind::Foreach(_) => "FOREACH",
        ClauseKind::LoadCsv(_) => "LOAD CSV",
        ClauseKind::Call(_) => "CALL",
        ClauseKind::With(_) => "WITH",
        ClauseKind::Return(_) => "RETURN",
        ClauseKind::Select(_) => "SELECT",
        ClauseKind::Next(_) => "NEXT",
        ClauseKind::Filter(_) => "FILTER",
        ClauseKind::Finish => "FINISH",
        _ => "this clause",
    }
}

impl Planner<'_> {
    fn columns(&self) -> Vec<String> {
        self.scope
            .iter()
            .map(|n| n.clone().unwrap_or_default())
            .collect()
    }

    fn lookup(&self, name: &str) -> Option<usize> {
        self.scope.iter().rposition(|n| n.as_deref() == Some(name))
    }

    fn bind(&mut self, name: &str) -> usize {
        self.bind_as(name, Kind::Any)
    }

    fn bind_as(&mut self, name: &str, kind: Kind) -> usize {
        self.scope.push(Some(name.to_string()));
        self.kinds.resize(self.scope.len() - 1, Kind::Any);
        self.kinds.push(kind);
        self.scope.len() - 1
    }

    fn unbind_last(&mut self) {
        self.scope.pop();
        self.kinds.truncate(self.scope.len());
    }

    fn kind_of(&self, slot: usize) -> Kind {
        self.kinds.get(slot).copied().unwrap_or(Kind::Any)
    }

    /// What an item of a projection holds, as far as planning knows.
    fn kind_of_expr(&self, e: &Expr) -> Kind {
        match e {
            Expr::Var(slot) => self.kind_of(*slot),
            Expr::Lit(Val::Null) => Kind::Any,
            Expr::Lit(_) | Expr::List(_) | Expr::Map(_) | Expr::ListComp { .. } => Kind::Value,
            _ => Kind::Any,
        }
    }

    fn single(&mut self, query: &ast::SingleQuery) -> Res<Vec<Step>> {
        let clauses = &query.kind.clauses;
        let mut steps = Vec::new();
        // A write anywhere is refused first, whatever else the query holds.
        for clause in clauses {
            let name = clause_name(&clause.kind);
            if WRITE_CLAUSES.contains(&name) || matches!(clause.kind, ClauseKind::Insert(_)) {
                return Err(QueryError::Write {
                    clause: name.to_string(),
                    position: super::position(self.source, clause.span.start),
                });
            }
        }
        // A clause outside the subset is named as such, before the shape of the
        // query is judged: `CALL db.labels()` is unsupported, not "missing RETURN".
        for clause in clauses {
            if !matches!(
                clause.kind,
                ClauseKind::Match(_)
                    | ClauseKind::Unwind(_)
                    | ClauseKind::With(_)
                    | ClauseKind::Return(_)
            ) {
                return Err(QueryError::unsupported(
                    self.source,
                    clause.span.start,
                    clause_name(&clause.kind),
                ));
            }
        }
        let Some(last) = clauses.last() else {
            return Err(QueryError::syntax(
                self.source,
                query.span.start,
                "the query has no clauses".into(),
            ));
        };
        if !matches!(last.kind, ClauseKind::Return(_)) {
            return Err(QueryError::syntax(
                self.source,
                last.span.start,
                format!(
                    "a query ends with RETURN, not {}; add e.g. RETURN * at the end",
                    clause_name(&last.kind)
                ),
            ));
        }
        for clause in clauses {
            super::charge(1);
            let step = match &clause.kind {
                ClauseKind::Match(m) => Step::Match(self.match_clause(m, clause.span.start)?),
                ClauseKind::Unwind(u) => {
                    let list = self.expr(&u.expression, 0)?;
                    self.bind(&u.variable.kind.text);
                    Step::Unwind { list }
                }
                ClauseKind::With(w) => {
                    Step::Project(self.projection(&w.projection, w.where_clause.as_ref(), true)?)
                }
                ClauseKind::Return(r) => {
                    Step::Project(self.projection(&r.projection, None, false)?)
                }
                other => {
                    return Err(QueryError::unsupported(
                        self.source,
                        clause.span.start,
                        clause_name(other),
                    ));
                }
            };
            steps.push(step);
        }
        for i in 1..steps.len() {
            let free = match &steps[i] {
                Step::Project(p) => {
                    !p.order.is_empty()
                        || (!p.aggregates.is_empty()
                            && p.aggregates.iter().all(|a| a.kind != AggKind::Collect))
                }
                _ => false,
            };
            if let Step::Match(m) = &mut steps[i - 1] {
                m.free_order = free;
            }
        }
        Ok(steps)
    }

    fn match_clause(&mut self, m: &ast::MatchClause, at: usize) -> Res<MatchPlan> {
        if let Some(mode) = &m.mode {
            return Err(QueryError::unsupported(
                self.source,
                mode.span.start,
                "path modes (WALK, TRAIL, ...)",
            ));
        }
        if let Some(hint) = m.hints.first() {
            return Err(QueryError::unsupported(
                self.source,
                hint.span.start,
                "USING hints",
            ));
        }
        let before = self.scope.len();
        self.match_start = before;
        let mut parts = Vec::new();
        for part in &m.pattern.parts {
            parts.push(self.path(part)?);
        }
        let _ = at;
        let predicate = match &m.where_clause {
            Some(w) => Some(self.predicate(w, 0)?),
            None => None,
        };
        Ok(MatchPlan {
            optional: m.optional,
            parts,
            predicate,
            width: self.scope.len(),
            new_slots: (before..self.scope.len()).collect(),
            free_order: false,
        })
    }

    fn path(&mut self, part: &ast::PatternPart) -> Res<PathPat> {
        if let Some(selector) = &part.kind.selector {
            return Err(QueryError::unsupported(
                self.source,
                selector.span.start,
                "path selectors (SHORTEST, ANY, ...)",
            ));
        }
        let factors = &part.kind.path.kind.factors;
        let mut start = None;
        let mut steps = Vec::new();
        let mut pending: Option<RelPat> = None;
        for factor in factors {
            match &factor.kind {
                ast::PathFactorKind::Node(n) => {
                    let node = self.node_pattern(n)?;
                    match pending.take() {
                        Some(rel) => steps.push((rel, node)),
                        None if start.is_none() => start = Some(node),
                        None => {
                            return Err(QueryError::syntax(self.source, factor.span.start, "two node patterns in a row; join them with a relationship such as -->".into()));
                        }
                    }
                }
                ast::PathFactorKind::Relationship(r) => {
                    if start.is_none() || pending.is_some() {
                        return Err(QueryError::syntax(
                            self.source,
                            factor.span.start,
                            "a relationship pattern must stand between two node patterns".into(),
                        ));
                    }
                    pending = Some(self.rel_pattern(r, factor.span.start)?);
                    if steps.len() >= MAX_PATH_LENGTH {
                        return Err(QueryError::Limit {
                            reason: format!(
                                "a path pattern has more than {MAX_PATH_LENGTH} relationships; split it or use a variable-length pattern such as -[*1..5]->"
                            ),
                        });
                    }
                }
                _ => {
                    return Err(QueryError::unsupported(
                        self.source,
                        factor.span.start,
                        "quantified and parenthesized path patterns (use -[*min..max]-> for variable length)",
                    ));
                }
            }
        }
        let Some(start) = start else {
            return Err(QueryError::syntax(
                self.source,
                part.span.start,
                "empty pattern".into(),
            ));
        };
        if pending.is_some() {
            return Err(QueryError::syntax(
                self.source,
                part.span.end,
                "a relationship pattern must end at a node pattern".into(),
            ));
        }
        let slot = match &part.kind.binding {
            Some(name) => {
                if self.lookup(&name.kind.text).is_some() {
                    return Err(QueryError::syntax(
                        self.source,
                        name.span.start,
                        format!("the path variable `{}` is already defined", name.kind.text),
                    ));
                }
                Some(self.bind_as(&name.kind.text, Kind::Path))
            }
            None => None,
        };
        let text = self
            .source
            .get(part.span.start..part.span.end)
            .unwrap_or_default()
            .to_string();
        Ok(PathPat {
            slot,
            start,
            steps,
            text,
        })
    }

    /// The slot of a pattern's variable and whether it was bound before; a variable
    /// bound to another kind of value than `kind` is an error (openCypher's
    /// VariableTypeConflict), and so is a relationship variable used twice in one MATCH
    /// (RelationshipUniquenessViolation: a relationship is matched at most once there).
    fn variable(&mut self, name: Option<&ast::Name>, kind: Kind) -> Res<(Option<usize>, bool)> {
        let Some(name) = name else {
            return Ok((None, false));
        };
        let text = &name.kind.text;
        let Some(slot) = self.lookup(text) else {
            return Ok((Some(self.bind_as(text, kind)), false));
        };
        let held = self.kind_of(slot);
        // A list of relationships may come from a list value (`WITH [r1, r2] AS rs`).
        let list_as_rels = kind == Kind::RelList && held == Kind::Value;
        if held != kind && held != Kind::Any && !list_as_rels {
            return Err(QueryError::syntax(
                self.source,
                name.span.start,
                format!(
                    "the variable `{text}` holds {}, so it cannot stand for {} here; use another name",
                    held.describe(),
                    kind.describe()
                ),
            ));
        }
        if kind == Kind::Rel && slot >= self.match_start {
            return Err(QueryError::syntax(
                self.source,
                name.span.start,
                format!(
                    "the relationship variable `{text}` appears twice in one MATCH, where a relationship is matched at most once; use another name"
                ),
            ));
        }
        Ok((Some(slot), true))
    }

    fn labels(&self, labels: Option<&ast::LabelExpression>, what: &str) -> Res<Vec<String>> {
        let Some(expr) = labels else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        match &expr.kind {
            ast::LabelExpressionKind::Name(n) => out.push(n.kind.text.clone()),
            ast::LabelExpressionKind::And(items) if what == "label" => {
                for item in items {
                    match &item.kind {
                        ast::LabelExpressionKind::Name(n) => out.push(n.kind.text.clone()),
                        _ => {
                            return Err(QueryError::unsupported(
                                self.source,
                                item.span.start,
                                "label expressions other than :A:B",
                            ));
                        }
                    }
                }
            }
            ast::LabelExpressionKind::Or(items) if what == "type" => {
                for item in items {
                    match &item.kind {
                        ast::LabelExpressionKind::Name(n) => out.push(n.kind.text.clone()),
                        _ => {
                            return Err(QueryError::unsupported(
                                self.source,
                                item.span.start,
                                "type expressions other than :A|B",
                            ));
                        }
                    }
                }
            }
            _ => {
                let text = if what == "label" {
                    "label expressions other than :A:B"
                } else {
                    "type expressions other than :A|B"
                };
                return Err(QueryError::unsupported(self.source, expr.span.start, text));
            }
        }
        Ok(out)
    }

    fn properties(&mut self, properties: Option<&ast::Expr>) -> Res<Vec<(String, Expr)>> {
        let Some(map) = properties else {
            return Ok(Vec::new());
        };
        match &map.kind {
            ExprKind::Map(entries) => entries
                .iter()
                .map(|e| Ok((e.key.kind.text.clone(), self.expr(&e.value, 1)?)))
                .collect(),
            _ => Err(QueryError::unsupported(
                self.source,
                map.span.start,
                "a property map other than {key: value, ...}",
            )),
        }
    }

    /// Keeps a node id the query matches on, for the warning when no node
    /// has it (the first hundred distinct ids).
    fn note_node_id(&mut self, id: &str) {
        if self.names.node_ids.len() < 100 {
            Names::add(&mut self.names.node_ids, id);
        }
    }

    /// `property = value` where the property is a node's `id` and the value is
    /// text: the id is kept (see [`Planner::note_node_id`]).
    fn note_id_equality(&mut self, property: &Expr, value: &Expr) {
        if let (Expr::Prop(base, key), Expr::Lit(Val::Str(id))) = (property, value)
            && key == "id"
            && let Expr::Var(slot) = **base
            && self.kind_of(slot) == Kind::Node
        {
            self.note_node_id(id);
        }
    }

    fn node_pattern(&mut self, n: &ast::NodePattern) -> Res<NodePat> {
        if let Some(w) = &n.where_clause {
            return Err(QueryError::unsupported(
                self.source,
                w.span.start,
                "WHERE inside a node pattern (put it after the MATCH)",
            ));
        }
        let labels = self.labels(n.labels.as_ref(), "label")?;
        // Properties are read in the scope before the node's own variable is bound.
        let properties = self.properties(n.properties.as_deref())?;
        for label in &labels {
            Names::add(&mut self.names.labels, label);
        }
        for (key, value) in &properties {
            Names::add(&mut self.names.node_keys, key);
            if let (true, Expr::Lit(Val::Str(id))) = (key == "id", value) {
                self.note_node_id(id);
            }
        }
        let (slot, bound) = self.variable(n.variable.as_ref(), Kind::Node)?;
        Ok(NodePat {
            name: n.variable.as_ref().map(|v| v.kind.text.clone()),
            slot,
            bound,
            labels,
            properties,
        })
    }

    fn rel_pattern(&mut self, r: &ast::RelationshipPattern, at: usize) -> Res<RelPat> {
        if let Some(w) = &r.where_clause {
            return Err(QueryError::unsupported(
                self.source,
                w.span.start,
                "WHERE inside a relationship pattern (put it after the MATCH)",
            ));
        }
        if let Some(q) = &r.graph_quantifier {
            return Err(QueryError::unsupported(
                self.source,
                q.span.start,
                "GQL quantifiers such as {1,3} (write -[*1..3]->)",
            ));
        }
        let dir = match r.direction.kind {
            ast::RelationshipDirection::Right => Dir::Out,
            ast::RelationshipDirection::Left => Dir::In,
            _ => Dir::Both,
        };
        let types = self.labels(r.labels.as_ref(), "type")?;
        let properties = self.properties(r.properties.as_deref())?;
        for t in &types {
            Names::add(&mut self.names.types, t);
        }
        for (key, _) in &properties {
            Names::add(&mut self.names.rel_keys, key);
        }
        let hops = match &r.legacy_quantifier {
            None => None,
            Some(q) => Some(self.hops(q)?),
        };
        let _ = at;
        let kind = if hops.is_some() {
            Kind::RelList
        } else {
            Kind::Rel
        };
        let (slot, bound) = self.variable(r.variable.as_ref(), kind)?;
        self.rel_patterns += 1;
        Ok(RelPat {
            slot,
            bound,
            types,
            dir,
            properties,
            hops,
            id: self.rel_patterns - 1,
        })
    }

    /// The bounds of `*min..max`: `max` is `None` for `*`, `*2..` and the like,
    /// which the walk bounds by the call's budget instead (a path never repeats
    /// a relationship, so it is finite).
    fn hops(&self, q: &ast::Quantifier) -> Res<(u32, Option<u32>)> {
        let number = |text: &str| -> Res<u32> {
            text.replace('_', "").parse::<u32>().map_err(|_| {
                QueryError::syntax(
                    self.source,
                    q.span.start,
                    format!(
                        "`{text}` is not a hop count (a whole number from 0 to {})",
                        u32::MAX
                    ),
                )
            })
        };
        let (min, max) = match &q.kind {
            ast::QuantifierKind::ZeroOrMore | ast::QuantifierKind::OneOrMore => (1, None),
            ast::QuantifierKind::Optional => (0, Some(1)),
            ast::QuantifierKind::Fixed(n) => {
                let n = number(n)?;
                (n, Some(n))
            }
            ast::QuantifierKind::Range { lower, upper } => (
                lower.as_deref().map(number).transpose()?.unwrap_or(1),
                upper.as_deref().map(number).transpose()?,
            ),
            _ => {
                return Err(QueryError::unsupported(
                    self.source,
                    q.span.start,
                    "this quantifier",
                ));
            }
        };
        // A lower bound above the upper one is an empty interval: nothing matches.
        Ok((min, max))
    }

    /// A WITH (`with`) or RETURN.
    fn projection(
        &mut self,
        p: &ast::ProjectionClause,
        predicate: Option<&ast::Expr>,
        with: bool,
    ) -> Res<Projection> {
        if let Some(offset) = &p.offset {
            return Err(QueryError::unsupported(
                self.source,
                offset.span.start,
                "OFFSET (write SKIP)",
            ));
        }
        let distinct = matches!(
            p.quantifier.as_ref().map(|q| q.kind),
            Some(ast::SetQuantifier::Distinct)
        );
        self.substitute.clear();
        let mut columns = Vec::new();
        let mut items = Vec::new();
        let mut texts = Vec::new();
        let mut aggregates = Vec::new();
        let mut aggregated = Vec::new();
        let mut kinds = Vec::new();
        for item in &p.items {
            match &item.kind {
                ast::ProjectionItemKind::Wildcard => {
                    // The variables in scope, by name (openCypher orders `*`'s columns so).
                    let mut names: Vec<(&String, usize)> = Vec::new();
                    for (slot, name) in self.scope.iter().enumerate() {
                        // A name shadowed by a later slot of the same name is not listed twice.
                        if let Some(name) = name
                            && self.lookup(name) == Some(slot)
                            && !columns.contains(name)
                        {
                            names.push((name, slot));
                        }
                    }
                    names.sort();
                    if names.is_empty() && p.items.len() == 1 {
                        return Err(QueryError::syntax(
                            self.source,
                            item.span.start,
                            "`*` projects the variables in scope, and there is none; name what to project"
                                .into(),
                        ));
                    }
                    for (name, slot) in names {
                        columns.push(name.clone());
                        items.push(Expr::Var(slot));
                        kinds.push(self.kind_of(slot));
                        texts.push(name.clone());
                        aggregated.push(false);
                    }
                }
                ast::ProjectionItemKind::Expression { expression, alias } => {
                    let before = aggregates.len();
                    let expr = self.agg_expr(expression, &mut aggregates)?;
                    let text = expression
                        .span
                        .text(self.source)
                        .unwrap_or_default()
                        .to_string();
                    let name = match alias {
                        Some(a) => a.kind.text.clone(),
                        None => match &expression.kind {
                            ExprKind::Variable(v) => v.kind.text.clone(),
                            _ if with => {
                                return Err(QueryError::syntax(
                                    self.source,
                                    item.span.start,
                                    format!("WITH names what it passes on: write `{text} AS name`"),
                                ));
                            }
                            _ => text.clone(),
                        },
                    };
                    if columns.contains(&name) {
                        return Err(QueryError::syntax(
                            self.source,
                            item.span.start,
                            format!(
                                "the column `{name}` is projected twice; give one an alias with AS"
                            ),
                        ));
                    }
                    columns.push(name);
                    kinds.push(self.kind_of_expr(&expr));
                    items.push(expr);
                    texts.push(text);
                    aggregated.push(aggregates.len() > before);
                }
                _ => {
                    return Err(QueryError::unsupported(
                        self.source,
                        item.span.start,
                        "this projection item",
                    ));
                }
            }
        }
        let grouping = !aggregates.is_empty();
        if grouping {
            self.unambiguous(&items, &aggregated, p)?;
        }
        let extended = !grouping && !distinct;
        let old = std::mem::take(&mut self.scope);
        let width_before = old.len();
        // ORDER BY reads the projected columns (by alias, or by the same text),
        // and, unless the projection aggregates or is DISTINCT, the variables before it.
        let old_kinds = std::mem::take(&mut self.kinds);
        self.scope = if extended { old.clone() } else { Vec::new() };
        self.kinds = if extended { old_kinds } else { Vec::new() };
        self.kinds.resize(self.scope.len(), Kind::Any);
        let offset = self.scope.len();
        self.scope.extend(columns.iter().cloned().map(Some));
        self.kinds.extend(kinds.iter().copied());
        // Without the variables before (an aggregation, DISTINCT), a property or
        // an aggregate written as a projected item stands for that column:
        // `WITH a.name AS name, count(*) AS c ORDER BY a.name + 'C'`.
        if !extended {
            self.substitute = texts
                .iter()
                .enumerate()
                .map(|(i, t)| (t.clone(), offset + i))
                .collect();
        }
        let mut order = Vec::new();
        if let Some(order_by) = &p.order_by {
            for item in &order_by.items {
                if let Some(nulls) = &item.nulls {
                    return Err(QueryError::unsupported(
                        self.source,
                        nulls.span.start,
                        "NULLS FIRST/LAST",
                    ));
                }
                let text = item.expression.span.text(self.source).unwrap_or_default();
                let key = match texts.iter().position(|t| t == text) {
                    Some(i) => Expr::Var(offset + i),
                    None => {
                        let mut none = Vec::new();
                        let e = self.agg_expr(&item.expression, &mut none)?;
                        if !none.is_empty() {
                            return Err(QueryError::syntax(self.source, item.expression.span.start, "ORDER BY may use an aggregate only as it is written in the projection; give it an alias and order by that".into()));
                        }
                        e
                    }
                };
                let descending = matches!(
                    item.direction.as_ref().map(|d| d.kind),
                    Some(ast::SortDirection::Descending)
                );
                order.push((key, descending));
            }
        }
        let _ = width_before;
        // WITH … WHERE reads the same scope as ORDER BY: the projected columns and,
        // unless the projection aggregates or is DISTINCT, the variables before it.
        let predicate = match predicate {
            Some(w) => Some(self.predicate(w, 0)?),
            None => None,
        };
        self.substitute.clear();
        self.scope = columns.iter().cloned().map(Some).collect();
        self.kinds = kinds;
        let skip = self.count(p.skip.as_ref(), "SKIP")?;
        let limit = self.count(p.limit.as_ref(), "LIMIT")?;
        Ok(Projection {
            items,
            aggregates,
            aggregated,
            distinct,
            order,
            extended,
            skip,
            limit,
            predicate,
        })
    }

    /// A SKIP or LIMIT count: a literal or a parameter.
    fn count(&mut self, expr: Option<&ast::Expr>, what: &str) -> Res<Option<usize>> {
        let Some(expr) = expr else {
            return Ok(None);
        };
        let mut value = self.expr(expr, 0)?;
        // An expression that reads no variable (`toInteger(ceil(1.7))`) is
        // computed now.
        let mut slots = Vec::new();
        if !matches!(value, Expr::Lit(_))
            && super::pushdown::reads(&value, &mut slots)
            && slots.is_empty()
        {
            value = Expr::Lit(super::exec::constant(&value)?);
        }
        match value {
            Expr::Lit(Val::Int(n)) if n >= 0 => Ok(Some(usize::try_from(n).unwrap_or(usize::MAX))),
            _ => Err(QueryError::syntax(
                self.source,
                expr.span.start,
                format!(
                    "{what} takes a non-negative integer (a literal, a parameter, or an expression of them)"
                ),
            )),
        }
    }

    /// An expression of a projection item: aggregates become [`Expr::Agg`].
    fn agg_expr(&mut self, e: &ast::Expr, aggregates: &mut Vec<Agg>) -> Res<Expr> {
        let mut sink = Some(aggregates);
        self.expr_in(e, 0, &mut sink)
    }

    /// A WHERE: an expression where a pattern may stand as a predicate.
    fn predicate(&mut self, e: &ast::Expr, depth: usize) -> Res<Expr> {
        self.pattern_here = true;
        let planned = self.expr_in(e, depth, &mut None)?;
        if let Expr::Var(slot) = planned
            && matches!(self.kind_of(slot), Kind::Node | Kind::Rel | Kind::Path)
        {
            return Err(QueryError::syntax(
                self.source,
                e.span.start,
                format!(
                    "WHERE takes a boolean, not {}",
                    self.kind_of(slot).describe()
                ),
            ));
        }
        Ok(planned)
    }

    fn expr(&mut self, e: &ast::Expr, depth: usize) -> Res<Expr> {
        self.expr_in(e, depth, &mut None)
    }

    fn exprs(
        &mut self,
        es: &[ast::Expr],
        depth: usize,
        aggs: &mut Option<&mut Vec<Agg>>,
    ) -> Res<Vec<Expr>> {
        es.iter().map(|e| self.expr_in(e, depth, aggs)).collect()
    }

    fn boxed(
        &mut self,
        e: &ast::Expr,
        depth: usize,
        aggs: &mut Option<&mut Vec<Agg>>,
    ) -> Res<Box<Expr>> {
        Ok(Box::new(self.expr_in(e, depth, aggs)?))
    }

    fn expr_in(
        &mut self,
        e: &ast::Expr,
        depth: usize,
        aggs: &mut Option<&mut Vec<Agg>>,
    ) -> Res<Expr> {
        if depth > MAX_EXPRESSION_DEPTH {
            return Err(QueryError::Limit {
                reason: format!(
                    "expressions nest at most {MAX_EXPRESSION_DEPTH} levels deep (at {}); flatten the expression or compute parts in a WITH",
                    super::position(self.source, e.span.start)
                ),
            });
        }
        super::charge(1);
        let d = depth + 1;
        let pattern_here = std::mem::replace(&mut self.pattern_here, false);
        if !self.substitute.is_empty()
            && matches!(
                e.kind,
                ExprKind::Property { .. }
                    | ExprKind::Function(_)
                    | ExprKind::DynamicProperty { .. }
            )
            && let Some(text) = e.span.text(self.source)
            && let Some(&(_, slot)) = self.substitute.iter().find(|(t, _)| t == text)
        {
            return Ok(Expr::Var(slot));
        }
        Ok(match &e.kind {
            ExprKind::Literal(lit) => Expr::Lit(self.literal(lit)?),
            ExprKind::Variable(name) => match self.lookup(&name.kind.text) {
                Some(slot) => Expr::Var(slot),
                None => {
                    return Err(QueryError::syntax(
                        self.source,
                        e.span.start,
                        format!("the variable `{}` is not defined here", name.kind.text),
                    ));
                }
            },
            ExprKind::Parameter(p) => {
                let name = match &p.name {
                    ast::ParameterName::Named(n) | ast::ParameterName::Positional(n) => n,
                    _ => {
                        return Err(QueryError::unsupported(
                            self.source,
                            e.span.start,
                            "this parameter",
                        ));
                    }
                };
                match self.parameters.get(name.as_str()) {
                    Some(v) => Expr::Lit(Val::from_json(v)),
                    None => {
                        return Err(QueryError::Parameter {
                            name: name.clone(),
                            position: super::position(self.source, e.span.start),
                        });
                    }
                }
            }
            ExprKind::List(items) => Expr::List(self.exprs(items, d, aggs)?),
            ExprKind::Map(entries) => {
                let mut out = Vec::new();
                for entry in entries {
                    out.push((
                        entry.key.kind.text.clone(),
                        self.expr_in(&entry.value, d, aggs)?,
                    ));
                }
                Expr::Map(out)
            }
            ExprKind::Unary { operator, operand }
                if matches!(operator.kind, ast::UnaryOperator::Minus)
                    && matches!(&operand.kind, ExprKind::Literal(l) if matches!(l.kind, LiteralKind::Integer(_))) =>
            {
                // `-9223372036854775808`: the literal is read with its sign.
                let ExprKind::Literal(lit) = &operand.kind else {
                    return Err(QueryError::syntax(
                        self.source,
                        e.span.start,
                        "a literal".into(),
                    ));
                };
                match self.literal_signed(lit, true)? {
                    Val::Int(i) => Expr::Lit(Val::Int(i)),
                    other => Expr::Lit(other),
                }
            }
            ExprKind::Unary { operator, operand } => {
                self.pattern_here =
                    pattern_here && matches!(operator.kind, ast::UnaryOperator::Not);
                let inner = self.boxed(operand, d, aggs)?;
                match operator.kind {
                    ast::UnaryOperator::Not => Expr::Not(inner),
                    ast::UnaryOperator::Minus => Expr::Neg(inner),
                    _ => *inner,
                }
            }
            ExprKind::Binary { .. } => self.chain(e, d, aggs, pattern_here)?,
            ExprKind::Is {
                expression,
                negated,
                predicate,
            } => {
                let inner = self.boxed(expression, d, aggs)?;
                match predicate {
                    ast::IsPredicate::Null => Expr::IsNull(inner, *negated),
                    ast::IsPredicate::Label(labels) if !*negated => {
                        let labels = self.labels(Some(labels), "label")?;
                        if let Expr::Var(slot) = *inner
                            && self.kind_of(slot) == Kind::Node
                        {
                            for label in &labels {
                                Names::add(&mut self.names.labels, label);
                            }
                        }
                        Expr::HasLabels(inner, labels)
                    }
                    _ => {
                        return Err(QueryError::unsupported(
                            self.source,
                            e.span.start,
                            "IS predicates other than IS [NOT] NULL",
                        ));
                    }
                }
            }
            ExprKind::Property { expression, key } => {
                let base = self.boxed(expression, d, aggs)?;
                if let Expr::Var(slot) = *base
                    && self.kind_of(slot) == Kind::Path
                {
                    return Err(QueryError::syntax(
                        self.source,
                        e.span.start,
                        format!(
                            "a path has no properties (`.{}`); read them from nodes(p) or relationships(p)",
                            key.kind.text
                        ),
                    ));
                }
                if let Expr::Var(slot) = *base {
                    match self.kind_of(slot) {
                        Kind::Node => Names::add(&mut self.names.node_keys, &key.kind.text),
                        Kind::Rel => Names::add(&mut self.names.rel_keys, &key.kind.text),
                        _ => {}
                    }
                }
                Expr::Prop(base, key.kind.text.clone())
            }
            ExprKind::DynamicProperty { expression, key }
            | ExprKind::Index {
                expression,
                index: key,
            } => Expr::Index(self.boxed(expression, d, aggs)?, self.boxed(key, d, aggs)?),
            ExprKind::Slice {
                expression,
                lower,
                upper,
            } => {
                let base = self.boxed(expression, d, aggs)?;
                let lower = match lower {
                    Some(l) => Some(self.boxed(l, d, aggs)?),
                    None => None,
                };
                let upper = match upper {
                    Some(u) => Some(self.boxed(u, d, aggs)?),
                    None => None,
                };
                Expr::Slice(base, lower, upper)
            }
            ExprKind::Function(f) => self.function(e, f, d, aggs)?,
            ExprKind::Case(c) => {
                let operand = match &c.operand {
                    Some(o) => Some(self.boxed(o, d, aggs)?),
                    None => None,
                };
                let mut alternatives = Vec::new();
                for alt in &c.alternatives {
                    let then = self.expr_in(&alt.then, d, aggs)?;
                    for when in &alt.when {
                        alternatives.push((self.expr_in(when, d, aggs)?, then.clone()));
                    }
                }
                let otherwise = match &c.else_expression {
                    Some(o) => Some(self.boxed(o, d, aggs)?),
                    None => None,
                };
                Expr::Case {
                    operand,
                    alternatives,
                    otherwise,
                }
            }
            ExprKind::ListComprehension(lc) => {
                let list = self.boxed(&lc.list, d, aggs)?;
                let slot = self.bind(&lc.variable.kind.text);
                let predicate = lc
                    .predicate
                    .as_ref()
                    .map(|p| self.boxed(p, d, &mut None))
                    .transpose();
                let projection = lc
                    .projection
                    .as_ref()
                    .map(|p| self.boxed(p, d, &mut None))
                    .transpose();
                self.unbind_last();
                Expr::ListComp {
                    slot,
                    list,
                    predicate: predicate?,
                    projection: projection?,
                }
            }
            ExprKind::QuantifiedPredicate(q) => {
                let list = self.boxed(&q.list, d, aggs)?;
                let slot = self.bind(&q.variable.kind.text);
                let predicate = self.boxed(&q.predicate, d, &mut None);
                self.unbind_last();
                let kind = match q.kind.kind {
                    ast::QuantifiedPredicateKind::All => Quantifier::All,
                    ast::QuantifiedPredicateKind::Any => Quantifier::Any,
                    ast::QuantifiedPredicateKind::None => Quantifier::None,
                    _ => Quantifier::Single,
                };
                Expr::Quantified {
                    kind,
                    slot,
                    list,
                    predicate: predicate?,
                }
            }
            ExprKind::Parenthesized(inner) => {
                self.pattern_here = pattern_here;
                self.expr_in(inner, d, aggs)?
            }
            ExprKind::Pattern(pattern) => {
                if !pattern_here {
                    return Err(QueryError::syntax(
                        self.source,
                        e.span.start,
                        "a pattern is a predicate here only in a WHERE (or exists()); to use its matches, write a pattern comprehension [(a)-->(b) | b]".into(),
                    ));
                }
                let saved = self.save_scope();
                let before = self.scope.len();
                let plan = self.inner_match(pattern, None, None, d);
                let introduced = self.scope[before.min(self.scope.len())..]
                    .iter()
                    .flatten()
                    .next()
                    .cloned();
                self.restore_scope(saved);
                if let Some(name) = introduced {
                    return Err(QueryError::syntax(
                        self.source,
                        e.span.start,
                        format!(
                            "the variable `{name}` is not defined here; a pattern predicate cannot introduce variables (use EXISTS {{ ... }})"
                        ),
                    ));
                }
                Expr::Subquery {
                    steps: vec![Step::Match(plan?)],
                    kind: SubqueryKind::Exists,
                }
            }
            ExprKind::Subquery(sub) => {
                let kind = match sub.kind.kind {
                    ast::SubqueryExpressionKind::Exists => SubqueryKind::Exists,
                    ast::SubqueryExpressionKind::Count => SubqueryKind::Count,
                    _ => SubqueryKind::Collect,
                };
                let saved = self.save_scope();
                let steps = self.subquery(&sub.query, e, d);
                let columns = self.scope.len();
                self.restore_scope(saved);
                let steps = steps?;
                let returns = matches!(steps.last(), Some(Step::Project(_)));
                if kind == SubqueryKind::Collect && (!returns || columns != 1) {
                    return Err(QueryError::syntax(
                        self.source,
                        e.span.start,
                        "COLLECT { ... } ends with a RETURN of one column".into(),
                    ));
                }
                Expr::Subquery { steps, kind }
            }
            ExprKind::PatternComprehension(pc) => {
                let saved = self.save_scope();
                let planned = (|| {
                    let plan = self.inner_match(
                        &pc.pattern,
                        pc.binding.as_ref(),
                        pc.predicate.as_deref(),
                        d,
                    )?;
                    let projection = self.boxed(&pc.projection, d, &mut None)?;
                    Ok::<_, QueryError>((plan, projection))
                })();
                self.restore_scope(saved);
                let (plan, projection) = planned?;
                Expr::PatternComp {
                    plan: Box::new(plan),
                    projection,
                }
            }
            ExprKind::Reduce(r) => {
                let initial = self.boxed(&r.initial, d, aggs)?;
                let list = self.boxed(&r.list, d, aggs)?;
                let slot = self.bind(&r.accumulator.kind.text);
                self.bind(&r.variable.kind.text);
                let expression = self.boxed(&r.expression, d, &mut None);
                self.unbind_last();
                self.unbind_last();
                Expr::Reduce {
                    slot,
                    initial,
                    list,
                    expression: expression?,
                }
            }
            _ => {
                return Err(QueryError::unsupported(
                    self.source,
                    e.span.start,
                    "this expression",
                ));
            }
        })
    }

    /// openCypher's AmbiguousAggregationExpression: in an item that aggregates,
    /// what stands outside the aggregates reads variables only through the
    /// grouping keys (the other items): `RETURN me.age + count(*)` needs `me.age`
    /// as an item of its own.
    fn unambiguous(
        &self,
        items: &[Expr],
        aggregated: &[bool],
        p: &ast::ProjectionClause,
    ) -> Res<()> {
        let keys: Vec<String> = items
            .iter()
            .zip(aggregated)
            .filter(|(_, a)| !**a)
            .map(|(e, _)| format!("{e:?}"))
            .collect();
        let is_key = |e: &Expr| keys.contains(&format!("{e:?}"));
        for (i, (item, _)) in items
            .iter()
            .zip(aggregated)
            .enumerate()
            .filter(|(_, (_, a))| **a)
        {
            // A stack, not recursion: the items were planned within the depth bound.
            let mut stack = vec![item];
            while let Some(e) = stack.pop() {
                super::charge(1);
                let fine = match e {
                    Expr::Agg(_) | Expr::Lit(_) => true,
                    Expr::Var(_) => is_key(e),
                    Expr::Prop(base, _) if matches!(**base, Expr::Var(_)) => {
                        is_key(e) || is_key(base)
                    }
                    Expr::Prop(base, _) | Expr::Not(base) | Expr::Neg(base) => {
                        stack.push(base);
                        true
                    }
                    Expr::IsNull(base, _) | Expr::HasLabels(base, _) => {
                        stack.push(base);
                        true
                    }
                    Expr::Index(a, b) => {
                        stack.extend([&**a, &**b]);
                        true
                    }
                    Expr::List(xs) | Expr::Func(_, xs) => {
                        stack.extend(xs.iter());
                        true
                    }
                    Expr::Map(entries) => {
                        stack.extend(entries.iter().map(|(_, v)| v));
                        true
                    }
                    Expr::Chain(first, rest) => {
                        stack.push(first);
                        stack.extend(rest.iter().map(|(_, v)| v));
                        true
                    }
                    // Comprehensions, CASE, subqueries: not judged.
                    _ => true,
                };
                if !fine {
                    let at = p.items.get(i).map_or(0, |it| it.span.start);
                    return Err(QueryError::syntax(
                        self.source,
                        at,
                        "this item mixes an aggregate with a variable that is not a grouping key; project that variable (or property) as an item of its own, or compute it in a WITH first".into(),
                    ));
                }
            }
        }
        Ok(())
    }

    /// An operand of AND, OR, XOR that is a literal of another type than
    /// boolean is refused (openCypher's InvalidArgumentType).
    fn boolean_operand(&self, operand: &Expr, at: &ast::Expr) -> Res<()> {
        let kind = match operand {
            Expr::Lit(Val::Bool(_) | Val::Null) => return Ok(()),
            Expr::Lit(v) => v.type_name(),
            Expr::List(_) => "list",
            Expr::Map(_) => "map",
            _ => return Ok(()),
        };
        Err(QueryError::syntax(
            self.source,
            at.span.start,
            format!("AND, OR and XOR take booleans, not a {kind}"),
        ))
    }

    /// The scope, to restore after a pattern or subquery inside an expression
    /// bound its own variables.
    fn save_scope(&self) -> Saved {
        Saved {
            scope: self.scope.clone(),
            kinds: self.kinds.clone(),
            match_start: self.match_start,
            substitute: self.substitute.clone(),
        }
    }

    fn restore_scope(&mut self, saved: Saved) {
        self.scope = saved.scope;
        self.kinds = saved.kinds;
        self.match_start = saved.match_start;
        self.substitute = saved.substitute;
    }

    /// A pattern inside an expression, as a MATCH over the current row: its
    /// new variables bound after the row's (the caller restores the scope).
    fn inner_match(
        &mut self,
        pattern: &ast::Pattern,
        binding: Option<&ast::Name>,
        predicate: Option<&ast::Expr>,
        d: usize,
    ) -> Res<MatchPlan> {
        let before = self.scope.len();
        self.match_start = before;
        let mut parts = Vec::new();
        for part in &pattern.parts {
            super::charge(1);
            parts.push(self.path(part)?);
        }
        if let (Some(name), Some(last)) = (binding, parts.last_mut()) {
            if self.lookup(&name.kind.text).is_some() {
                return Err(QueryError::syntax(
                    self.source,
                    name.span.start,
                    format!("the path variable `{}` is already defined", name.kind.text),
                ));
            }
            last.slot = Some(self.bind_as(&name.kind.text, Kind::Path));
        }
        let predicate = match predicate {
            Some(p) => Some(self.predicate(p, d)?),
            None => None,
        };
        Ok(MatchPlan {
            optional: false,
            parts,
            predicate,
            width: self.scope.len(),
            new_slots: (before..self.scope.len()).collect(),
            free_order: false,
        })
    }

    /// The steps of `EXISTS { ... }` / `COUNT { ... }`: a pattern with an
    /// optional WHERE, or a query of MATCH, WITH, UNWIND ending in RETURN.
    fn subquery(&mut self, query: &ast::Query, e: &ast::Expr, d: usize) -> Res<Vec<Step>> {
        let ast::QueryKind::Regular(regular) = &query.kind else {
            return Err(QueryError::syntax(
                self.source,
                e.span.start,
                "this subquery is not a query".into(),
            ));
        };
        if !regular.unions.is_empty() {
            return Err(QueryError::unsupported(
                self.source,
                e.span.start,
                "UNION inside a subquery",
            ));
        }
        let clauses = &regular.head.kind.clauses;
        if let [clause] = clauses.as_slice()
            && let ClauseKind::Match(m) = &clause.kind
            && !m.optional
        {
            let plan = self.inner_match(&m.pattern, None, None, d)?;
            let predicate = match &m.where_clause {
                Some(w) => Some(self.predicate(w, d)?),
                None => None,
            };
            return Ok(vec![Step::Match(MatchPlan { predicate, ..plan })]);
        }
        self.single(&regular.head)
    }

    /// A left-deep chain of binary operators, walked in a loop.
    fn chain(
        &mut self,
        e: &ast::Expr,
        d: usize,
        aggs: &mut Option<&mut Vec<Agg>>,
        pattern_here: bool,
    ) -> Res<Expr> {
        let mut rights = Vec::new();
        let mut node = e;
        while let ExprKind::Binary {
            left,
            operator,
            right,
        } = &node.kind
        {
            super::charge(1);
            rights.push((operator, right.as_ref()));
            node = left;
        }
        let logical = |op: &BinaryOperator| {
            matches!(
                op,
                BinaryOperator::And | BinaryOperator::Or | BinaryOperator::Xor
            )
        };
        self.pattern_here = pattern_here && rights.last().is_some_and(|(o, _)| logical(&o.kind));
        let first = self.boxed(node, d, aggs)?;
        let mut rest = Vec::with_capacity(rights.len());
        for (operator, right) in rights.into_iter().rev() {
            let op = match operator.kind {
                BinaryOperator::Or => BinOp::Or,
                BinaryOperator::Xor => BinOp::Xor,
                BinaryOperator::And => BinOp::And,
                BinaryOperator::Equal => BinOp::Eq,
                BinaryOperator::NotEqual => BinOp::Ne,
                BinaryOperator::Less => BinOp::Lt,
                BinaryOperator::LessEqual => BinOp::Le,
                BinaryOperator::Greater => BinOp::Gt,
                BinaryOperator::GreaterEqual => BinOp::Ge,
                BinaryOperator::In => BinOp::In,
                BinaryOperator::StartsWith => BinOp::StartsWith,
                BinaryOperator::EndsWith => BinOp::EndsWith,
                BinaryOperator::Contains => BinOp::Contains,
                BinaryOperator::Add | BinaryOperator::Concat => BinOp::Add,
                BinaryOperator::Subtract => BinOp::Sub,
                BinaryOperator::Multiply => BinOp::Mul,
                BinaryOperator::Divide => BinOp::Div,
                BinaryOperator::Remainder => BinOp::Mod,
                BinaryOperator::Power => BinOp::Pow,
                _ => {
                    return Err(QueryError::unsupported(
                        self.source,
                        operator.span.start,
                        "the operator =~ (regular expressions)",
                    ));
                }
            };
            self.pattern_here = pattern_here && logical(&operator.kind);
            let operand = self.expr_in(right, d, aggs)?;
            if logical(&operator.kind) {
                self.boolean_operand(&operand, right)?;
                if rest.is_empty() {
                    self.boolean_operand(&first, node)?;
                }
            }
            rest.push((op, operand));
        }
        if let [(BinOp::Eq, other)] = rest.as_slice() {
            self.note_id_equality(&first, other);
            self.note_id_equality(other, &first);
        }
        Ok(Expr::Chain(first, rest))
    }

    fn literal(&self, lit: &ast::Literal) -> Res<Val> {
        self.literal_signed(lit, false)
    }

    /// A literal; an integer literal negated when `negative`.
    fn literal_signed(&self, lit: &ast::Literal, negative: bool) -> Res<Val> {
        let sign = if negative { "-" } else { "" };
        Ok(match &lit.kind {
            LiteralKind::Null => Val::Null,
            LiteralKind::Boolean(b) => Val::Bool(*b),
            LiteralKind::Integer(i) => {
                let text = i.text.replace('_', "");
                let parsed = match i.radix {
                    ast::IntegerRadix::Hexadecimal => i64::from_str_radix(
                        &format!(
                            "{sign}{}",
                            text.trim_start_matches("0x").trim_start_matches("0X")
                        ),
                        16,
                    ),
                    ast::IntegerRadix::Octal => i64::from_str_radix(
                        &format!(
                            "{sign}{}",
                            text.trim_start_matches("0o").trim_start_matches("0O")
                        ),
                        8,
                    ),
                    _ => format!("{sign}{text}").parse::<i64>(),
                };
                Val::Int(parsed.map_err(|_| {
                    QueryError::syntax(
                        self.source,
                        lit.span.start,
                        format!("the integer {} does not fit in 64 bits", i.text),
                    )
                })?)
            }
            LiteralKind::Float(f) => {
                let x = f.text.replace('_', "").parse::<f64>().map_err(|_| {
                    QueryError::syntax(
                        self.source,
                        lit.span.start,
                        format!("{} is not a number", f.text),
                    )
                })?;
                if !x.is_finite() {
                    return Err(QueryError::syntax(
                        self.source,
                        lit.span.start,
                        format!("the float {} is too large", f.text),
                    ));
                }
                Val::Float(x)
            }
            LiteralKind::String(s) => Val::str(s.value.clone()),
            _ => {
                return Err(QueryError::unsupported(
                    self.source,
                    lit.span.start,
                    "this literal",
                ));
            }
        })
    }

    fn function(
        &mut self,
        e: &ast::Expr,
        f: &ast::FunctionInvocation,
        d: usize,
        aggs: &mut Option<&mut Vec<Agg>>,
    ) -> Res<Expr> {
        let name = f
            .name
            .parts
            .iter()
            .map(|p| p.kind.text.as_str())
            .collect::<Vec<_>>()
            .join(".")
            .to_lowercase();
        let distinct = matches!(
            f.quantifier.as_ref().map(|q| q.kind),
            Some(ast::SetQuantifier::Distinct)
        );
        let agg = AGGREGATES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, kind)| kind);
        if let Some(kind) = agg {
            let Some(sink) = aggs.as_deref_mut() else {
                return Err(QueryError::syntax(
                    self.source,
                    e.span.start,
                    format!("{name}() aggregates; use it in a WITH or RETURN item, not here"),
                ));
            };
            let star =
                matches!(f.arguments.as_slice(), [a] if matches!(a.kind, ExprKind::Wildcard));
            let (kind, arg) = if star {
                if kind != AggKind::Count {
                    return Err(QueryError::syntax(
                        self.source,
                        e.span.start,
                        format!("{name}(*) is not a function; only count(*) takes *"),
                    ));
                }
                (AggKind::CountStar, None)
            } else {
                let percentile = matches!(
                    kind,
                    AggKind::PercentileCont(_) | AggKind::PercentileDisc(_)
                );
                let (arg, kind) = match (f.arguments.as_slice(), kind) {
                    ([arg], _) if !percentile => (arg, kind),
                    ([arg, p], AggKind::PercentileCont(_) | AggKind::PercentileDisc(_)) => {
                        let at = match self.expr_in(p, d, &mut None)? {
                            Expr::Lit(Val::Int(i)) => i as f64,
                            Expr::Lit(Val::Float(x)) => x,
                            _ => {
                                return Err(QueryError::syntax(
                                    self.source,
                                    p.span.start,
                                    format!(
                                        "{name}() takes a number from 0 to 1 (a literal or a parameter) second"
                                    ),
                                ));
                            }
                        };
                        if !(0.0..=1.0).contains(&at) {
                            return Err(QueryError::Runtime {
                                message: format!(
                                    "{name}() takes a percentile from 0 to 1, not {at}"
                                ),
                            });
                        }
                        let kind = if let AggKind::PercentileCont(_) = kind {
                            AggKind::PercentileCont(at)
                        } else {
                            AggKind::PercentileDisc(at)
                        };
                        (arg, kind)
                    }
                    _ => {
                        return Err(QueryError::syntax(
                            self.source,
                            e.span.start,
                            format!(
                                "{name}() takes {} argument{}",
                                if percentile { "two" } else { "one" },
                                if percentile { "s" } else { "" }
                            ),
                        ));
                    }
                };
                // No aggregate inside an aggregate.
                let arg = self.expr_in(arg, d, &mut None)?;
                if matches!(arg, Expr::Func(Func::More(super::functions::Fn::Rand), _)) {
                    return Err(QueryError::syntax(
                        self.source,
                        e.span.start,
                        format!("{name}(rand()) aggregates a value that is not constant"),
                    ));
                }
                (kind, Some(arg))
            };
            sink.push(Agg {
                kind,
                distinct,
                arg,
            });
            return Ok(Expr::Agg(sink.len() - 1));
        }
        if distinct {
            return Err(QueryError::syntax(
                self.source,
                e.span.start,
                format!("DISTINCT applies to aggregates only, not {name}()"),
            ));
        }
        let found = FUNCTIONS
            .iter()
            .map(|&(n, f, lo, hi)| (n, f, lo, hi))
            .chain(
                super::functions::FUNCTIONS
                    .iter()
                    .map(|&(n, f, lo, hi)| (n, Func::More(f), lo, hi)),
            )
            .chain(
                super::temporal::FUNCTIONS
                    .iter()
                    .map(|&(n, f, lo, hi)| (n, Func::Temporal(f), lo, hi)),
            )
            .find(|(n, ..)| n.eq_ignore_ascii_case(&name));
        if name == "exists"
            && let [arg] = f.arguments.as_slice()
            && matches!(arg.kind, ExprKind::Pattern(_))
        {
            self.pattern_here = true;
            return self.expr_in(arg, d, aggs);
        }
        let Some((_, func, min, max)) = found else {
            return Err(QueryError::UnknownFunction {
                name,
                position: super::position(self.source, e.span.start),
            });
        };
        let n = f.arguments.len();
        if n < min || n > max {
            return Err(QueryError::syntax(
                self.source,
                e.span.start,
                if min == max {
                    format!(
                        "{name}() takes {min} argument{}, not {n}",
                        if min == 1 { "" } else { "s" }
                    )
                } else {
                    format!("{name}() takes {min} to {max} arguments, not {n}")
                },
            ));
        }
        let args = self.exprs(&f.arguments, d, aggs)?;
        // A variable of the wrong kind is refused before running
        // (openCypher's InvalidArgumentType).
        if let [Expr::Var(slot)] = args.as_slice() {
            let held = self.kind_of(*slot);
            let wrong = match func {
                Func::Type => matches!(held, Kind::Node | Kind::Path),
                Func::Length => matches!(held, Kind::Node | Kind::Rel),
                Func::Size => matches!(held, Kind::Node | Kind::Rel | Kind::Path),
                _ => false,
            };
            if wrong {
                return Err(QueryError::syntax(
                    self.source,
                    e.span.start,
                    format!("{name}() does not take {}", held.describe()),
                ));
            }
        }
        Ok(Expr::Func(func, args))
    }
}
