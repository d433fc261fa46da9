//! Reads Graphviz DOT with the `graphviz-rust` crate (a pest grammar for the DOT
//! language), walking its AST. Its grammar misses some of the language (anonymous
//! `{ … }` subgraphs, edge statements that start with a subgraph, keywords in any
//! case, non-ASCII unquoted ids, numerals such as `1.`, most HTML strings, `+`
//! concatenation); `prepare` first rewrites those into equivalents it reads, and
//! error positions are mapped back to the document as written.
//!
//! `digraph` is expected; an undirected `graph` is accepted and its edges read as
//! `source → target`; `strict` is ignored. Quoted strings are unescaped (`\"` →
//! `"`, `\\` → `\`, `\n` → newline, `\r` → carriage return, backslash-newline
//! removed; other escapes such as `\l` are kept as written); unquoted ids and HTML
//! strings (`<…>`, brackets included) are taken as written; ports (`a:p:n`) are
//! dropped. Nodes come in
//! order of first mention (node statements, edge endpoints, subgraphs). Edges come
//! in statement order: a chain `a -> b -> c` is one edge per step, and a subgraph
//! endpoint (`a -> {b c}`) stands for every node mentioned in it, as in Graphviz;
//! edges inside a subgraph come before the edge statement that contains it.
//! Attribute values: an edge's `weight` must be a finite number (absent: 1.0); a
//! node's `data` is its payload, decoded as JSON (text that is not JSON becomes a
//! JSON string); a node `label` equal to the node id is dropped (the exporter
//! writes it for display); every other value becomes a boolean when it is exactly
//! `true`/`false`, a number when it is exactly a JSON number, else a string. A
//! top-level `description=…` (or `graph [description=…]`) is the description.
//! Default attribute statements (`node [...]`, `edge [...]`) are ignored, so they
//! are never copied onto the nodes and edges that follow them (they, and graph
//! attributes other than the description, are counted in an `ignored` note); the attributes of
//! a node declared twice are merged, later values winning (as in Graphviz). An
//! attribute value that is an integer past 64 bits stays a string of its exact
//! text (ids are text already), and so does such an integer in a node's `data`.
//!
//! What the import materialises is counted before it is made: an edge statement
//! between subgraphs, or a chain, copies its attributes and endpoint ids onto
//! every edge it stands for, so the whole expansion is charged to the meter
//! first (`--max-import-memory`), and refused naming the statement.

use std::panic::{AssertUnwindSafe, catch_unwind};

use graphviz_rust::dot_structures::{
    Attribute, EdgeTy, Graph as DotGraph, GraphAttributes, Id, Stmt, Vertex,
};
use hashbrown::{HashMap, HashSet};
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::interchange::meter::Meter;
use crate::interchange::{Format, ImportedGraph, invalid, line_col, values};
use crate::limits::Limits;
use crate::network::estimate::{EDGE_BYTES, attribute_bytes, value_bytes};
use crate::network::{DEFAULT_WEIGHT, EdgeSpec, NodeSpec};

const FORMAT: Format = Format::Dot;

/// Deepest `{ … }` nesting accepted. The parser and the AST walk recurse once per
/// level; the limit keeps hostile input from exhausting the stack.
const MAX_NESTING: usize = 128;

/// A user attribute's name: the export's `nmcp_` prefix (for names Graphviz
/// must not act on) removed once.
fn user_key(key: String) -> String {
    match key.strip_prefix(crate::interchange::export::dot::ATTRIBUTE_PREFIX) {
        Some(name) => name.to_string(),
        None => key,
    }
}

/// pest calls allowed per byte of a DOT document, and at least: four times what
/// valid documents were measured to need.
const CALLS_PER_BYTE: usize = 64;
/// The size of the pieces a long document is parsed in: large enough that the
/// header repeated per piece costs nothing, small enough that one piece's
/// tokens (about 200 times its size) stay a few megabytes.
const PIECE_BYTES: usize = 16 * 1024;
const MIN_CALLS: usize = 100_000;

/// The text of a quoted DOT string (`raw` includes the quotes), unescaped.
fn unquote(raw: &str) -> String {
    let Some(inner) = raw
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .filter(|_| raw.len() >= 2)
    else {
        return raw.to_string();
    };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('\n') => {}
            Some('\r') => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// The text of a DOT id: quoted strings unescaped, anything else as written.
fn text(id: &Id) -> String {
    match id {
        Id::Escaped(raw) => unquote(raw),
        Id::Plain(s) | Id::Html(s) | Id::Anonymous(s) => s.clone(),
    }
}

/// A node being collected: its id and its attributes as text, merged over all
/// its declarations (later values win).
struct PendingNode {
    id: String,
    attributes: Map<String, Value>,
}

/// An edge being collected: endpoints as node slots, attributes as text pairs.
struct PendingEdge {
    source: usize,
    target: usize,
    attributes: Vec<(String, String)>,
}

/// The AST walk: nodes in order of first mention, edges in statement order.
struct Walk<'m> {
    nodes: Vec<PendingNode>,
    index: HashMap<String, usize>,
    edges: Vec<PendingEdge>,
    description: Option<String>,
    /// The placeholder head node of `prepare`, left out.
    head: Option<String>,
    /// The most edges the walk may produce.
    max_edges: usize,
    /// The memory the walk makes, counted before it is made.
    meter: &'m mut Meter,
    /// Statements read and not kept: `node [...]`/`edge [...]` defaults, and
    /// graph attributes other than the description.
    defaults: usize,
    graph_attributes: usize,
}

/// Node slots mentioned in a subgraph, in order of first mention, without repeats.
#[derive(Default)]
struct Members {
    order: Vec<usize>,
    seen: HashSet<usize>,
}

impl Members {
    fn add(&mut self, slot: usize) {
        if self.seen.insert(slot) {
            self.order.push(slot);
        }
    }
}

impl Walk<'_> {
    /// The slot of node `id`, created on first mention.
    fn see(&mut self, id: &Id) -> Result<usize> {
        let id = text(id);
        if let Some(&slot) = self.index.get(&id) {
            return Ok(slot);
        }
        self.meter.node(&id, &Map::new(), None, || {
            format!("node '{}'", crate::error::clip(&id, 64))
        })?;
        let slot = self.nodes.len();
        self.index.insert(id.clone(), slot);
        self.nodes.push(PendingNode {
            id,
            attributes: Map::new(),
        });
        Ok(slot)
    }

    /// Charges the edges from every node of `sources` to every node of `ends`,
    /// each with its own copy of `attributes` and of its endpoint ids, before any
    /// is made.
    fn charge_edges(
        &mut self,
        sources: &[usize],
        ends: &[usize],
        attributes: &[(String, String)],
    ) -> Result<()> {
        let ids = |slots: &[usize]| {
            slots
                .iter()
                .map(|&slot| self.nodes[slot].id.len())
                .fold(0usize, usize::saturating_add)
        };
        let (source_ids, end_ids) = (ids(sources), ids(ends));
        let attribute_text = attributes
            .iter()
            .map(|(key, value)| attribute_bytes(key, &Value::Null).saturating_add(value.len()))
            .fold(0usize, usize::saturating_add);
        let product = sources.len().saturating_mul(ends.len());
        let bytes = product
            .saturating_mul(EDGE_BYTES.saturating_add(attribute_text))
            .saturating_add(source_ids.saturating_mul(ends.len()))
            .saturating_add(end_ids.saturating_mul(sources.len()));
        let first = |slots: &[usize]| {
            slots.first().map_or(String::new(), |&slot| {
                crate::error::clip(&self.nodes[slot].id, 64).to_string()
            })
        };
        let (from, to) = (first(sources), first(ends));
        self.meter.charge(bytes, || {
            format!(
                "the edge statement from '{from}' to '{to}' stands for {product} edge(s), each with its own copy of the statement's {attribute_text} bytes of attributes and of its endpoint ids"
            )
        })
    }

    /// Walks statements; `members` collects the nodes they mention (for a
    /// subgraph used as an edge endpoint). Top-level statements may set the
    /// description.
    fn stmts(&mut self, stmts: &[Stmt], top: bool, members: &mut Members) -> Result<()> {
        for stmt in stmts {
            crate::budget::charge(1);
            match stmt {
                Stmt::Node(node) => {
                    let slot = self.see(&node.id.0)?;
                    members.add(slot);
                    for Attribute(key, value) in &node.attributes {
                        let (key, value) = (text(key), text(value));
                        let id = &self.nodes[slot].id;
                        self.meter.attribute(&key, &value, || {
                            format!(
                                "attribute '{}' of node '{}'",
                                crate::error::clip(&key, 64),
                                crate::error::clip(id, 64)
                            )
                        })?;
                        self.nodes[slot]
                            .attributes
                            .insert(key, Value::String(value));
                    }
                }
                Stmt::Edge(edge) => {
                    let attributes: Vec<(String, String)> = edge
                        .attributes
                        .iter()
                        .map(|Attribute(key, value)| (text(key), text(value)))
                        .collect();
                    let mut chain: Vec<&Vertex> = match &edge.ty {
                        EdgeTy::Pair(a, b) => vec![a, b],
                        EdgeTy::Chain(vertices) => vertices.iter().collect(),
                    };
                    if let (Some(Vertex::N(first)), Some(head)) = (chain.first(), &self.head)
                        && text(&first.0) == *head
                    {
                        chain.remove(0);
                    }
                    let mut previous: Option<Vec<usize>> = None;
                    for vertex in chain {
                        let ends = self.vertex(vertex)?;
                        for &slot in &ends {
                            members.add(slot);
                        }
                        if let Some(sources) = &previous {
                            // Counted before a single edge is made.
                            let product = sources.len().saturating_mul(ends.len());
                            if self.edges.len().saturating_add(product) > self.max_edges {
                                return Err(Limits::import_edges_exceeded_counting(
                                    self.max_edges,
                                    "an edge between DOT subgraphs counts one edge per pair of their nodes",
                                ));
                            }
                            self.charge_edges(sources, &ends, &attributes)?;
                            for &source in sources {
                                crate::budget::charge(1 + ends.len() as u64);
                                for &target in &ends {
                                    self.edges.push(PendingEdge {
                                        source,
                                        target,
                                        attributes: attributes.clone(),
                                    });
                                }
                            }
                        }
                        previous = Some(ends);
                    }
                }
                Stmt::Subgraph(sub) => {
                    let mut inner = Members::default();
                    self.stmts(&sub.stmts, false, &mut inner)?;
                    for slot in inner.order {
                        members.add(slot);
                    }
                }
                Stmt::Attribute(Attribute(key, value)) if top && text(key) == "description" => {
                    self.description = Some(text(value));
                }
                Stmt::GAttribute(GraphAttributes::Graph(list)) if top => {
                    for Attribute(key, value) in list {
                        if text(key) == "description" {
                            self.description = Some(text(value));
                        } else {
                            self.graph_attributes += 1;
                        }
                    }
                }
                Stmt::GAttribute(GraphAttributes::Node(_) | GraphAttributes::Edge(_)) => {
                    self.defaults += 1;
                }
                Stmt::Attribute(_) | Stmt::GAttribute(GraphAttributes::Graph(_)) => {
                    self.graph_attributes += 1;
                }
            }
        }
        Ok(())
    }

    /// The nodes an edge endpoint stands for: one node, or every node mentioned
    /// in a subgraph (whose own statements are walked as well).
    fn vertex(&mut self, vertex: &Vertex) -> Result<Vec<usize>> {
        Ok(match vertex {
            Vertex::N(node) => vec![self.see(&node.0)?],
            Vertex::S(sub) => {
                let mut inner = Members::default();
                self.stmts(&sub.stmts, false, &mut inner)?;
                inner.order
            }
        })
    }
}

/// A piece of the rewritten document: where it starts there and in the original,
/// and whether it is a verbatim copy (else a rewrite of the original at `source`).
struct Segment {
    out: usize,
    source: usize,
    verbatim: bool,
}

/// The document rewritten for graphviz-rust's grammar, with a map back to the
/// original for error positions.
struct Prepared {
    text: String,
    segments: Vec<Segment>,
    /// The id of the placeholder node put before edge statements that start with
    /// a subgraph, if any was needed.
    head: Option<String>,
    deepest: usize,
}

impl Prepared {
    /// The byte offset in the original of byte offset `pos` in the rewritten text.
    fn source_offset(&self, pos: usize) -> usize {
        let at = self.segments.partition_point(|s| s.out <= pos);
        match at.checked_sub(1).map(|i| &self.segments[i]) {
            Some(s) if s.verbatim => s.source + (pos - s.out),
            Some(s) => s.source,
            None => pos,
        }
    }
}

/// A rewrite: `source[start..end]` (empty for an insertion) becomes `with`.
/// `first` orders edits at the same offset.
struct Edit {
    start: usize,
    first: bool,
    end: usize,
    with: String,
}

/// The kind of a significant token, as far as the rewrite needs it.
#[derive(Clone, Copy, PartialEq)]
enum Token {
    None,
    Subgraph,
    Id,
    EdgeOp,
    Other,
}

const KEYWORDS: [&str; 6] = ["strict", "graph", "digraph", "node", "edge", "subgraph"];

/// The end of the quoted string starting at `start` (after its closing quote),
/// or `None` when it is not closed.
fn quoted_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The end of the HTML string starting at `start` (after its matching `>`), or
/// `None` when it is not closed.
fn html_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate().skip(start) {
        match b {
            b'<' => depth += 1,
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The first offset from `i` that is not whitespace or a comment (`/* */`, `//`
/// and `#` to the end of the line, where a line ends at `\n` or `\r`, as
/// graphviz-rust's grammar reads them).
fn skip_trivia(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1)) {
            (b' ' | b'\t' | b'\r' | b'\n', _) => i += 1,
            (b'/', Some(b'*')) => {
                i = bytes[i + 2..]
                    .windows(2)
                    .position(|w| w == b"*/")
                    .map_or(bytes.len(), |p| i + 2 + p + 2);
            }
            (b'/', Some(b'/')) | (b'#', _) => {
                // The grammar's NEWLINE: `\n`, `\r\n` or a lone `\r`.
                i = bytes[i..]
                    .iter()
                    .position(|&b| b == b'\n' || b == b'\r')
                    .map_or(bytes.len(), |p| i + p);
            }
            _ => break,
        }
    }
    i
}

/// Whether graphviz-rust's `number` rule reads all of `text`:
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?` or `-?\.[0-9]+`.
fn grammar_number(text: &str) -> bool {
    let t = text.strip_prefix('-').unwrap_or(text);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (int, frac) = match t.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (t, None),
    };
    let int_ok =
        (int.is_empty() && frac.is_some()) || int == "0" || (digits(int) && !int.starts_with('0'));
    int_ok && frac.is_none_or(digits)
}

/// `text` as a quoted DOT string that unquotes back to it.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// Rewrites the parts of standard DOT that graphviz-rust's grammar does not read
/// into equivalents it does, without changing what the document means:
/// - anonymous subgraphs: `{ … }` → `subgraph { … }`;
/// - an edge statement starting with a subgraph (`{a b} -> c`, which the grammar
///   reads as a subgraph statement and then fails on `->`) gets a placeholder
///   head node (`"<head>" -> {a b} -> c`) that the AST walk leaves out;
/// - keywords in any case are lowercased;
/// - unquoted ids with non-ASCII letters and numerals the grammar splits (`1.`,
///   `007`) are quoted, and so are HTML strings (their text kept as written,
///   brackets included);
/// - `"a" + "b"` is joined.
///
/// Also measures the deepest `{`/`[` nesting, stopping once it passes
/// `MAX_NESTING`. O(size of the document).
fn prepare(source: &str) -> Prepared {
    let mut scan = Rewriter::new(source);
    let mut i = skip_trivia(scan.bytes, 0);
    while i < scan.bytes.len() {
        let Some((token, next)) = scan.token(i) else {
            break;
        };
        scan.recent = [(token, i), scan.recent[0], scan.recent[1]];
        i = skip_trivia(scan.bytes, next);
    }
    scan.finish()
}

/// The state of [`prepare`]'s one pass over the document.
struct Rewriter<'a> {
    source: &'a str,
    bytes: &'a [u8],
    edits: Vec<Edit>,
    /// The placeholder head node's id, once one is needed.
    head: Option<String>,
    /// Per open `{`: where its statement starts, when it is a subgraph that begins
    /// a statement (so that an edge statement may follow it).
    open: Vec<Option<usize>>,
    depth: usize,
    deepest: usize,
    body_seen: bool,
    /// The last three significant tokens and their offsets, latest first.
    recent: [(Token, usize); 3],
}

impl<'a> Rewriter<'a> {
    fn new(source: &'a str) -> Self {
        Rewriter {
            source,
            bytes: source.as_bytes(),
            edits: Vec::new(),
            head: None,
            open: Vec::new(),
            depth: 0,
            deepest: 0,
            body_seen: false,
            recent: [(Token::None, 0); 3],
        }
    }

    fn edit(&mut self, start: usize, end: usize, with: String) {
        self.edits.push(Edit {
            start,
            first: false,
            end,
            with,
        });
    }

    /// The token at `i` and where it ends, recording any rewrite it needs; `None`
    /// stops the pass (an unterminated string, or nesting past `MAX_NESTING`).
    fn token(&mut self, i: usize) -> Option<(Token, usize)> {
        match self.bytes[i] {
            b'"' => self.quoted_string(i),
            b'<' => {
                let end = html_end(self.bytes, i)?;
                self.edit(i, end, quoted(&self.source[i..end]));
                Some((Token::Id, end))
            }
            b'-' if matches!(self.bytes.get(i + 1), Some(b'>' | b'-')) => {
                Some((Token::EdgeOp, i + 2))
            }
            b'-' | b'.' | b'0'..=b'9' => Some(self.numeral(i)),
            b if b.is_ascii_alphabetic() || b == b'_' || b >= 0x80 => Some(self.word(i)),
            b'{' => self.open_brace(i).map(|()| (Token::Other, i + 1)),
            b'[' => self.nest().map(|()| (Token::Other, i + 1)),
            b'}' | b']' => {
                self.close(i);
                Some((Token::Other, i + 1))
            }
            _ => Some((Token::Other, i + 1)),
        }
    }

    /// A quoted string, joined with any `+ "…"` that follow.
    fn quoted_string(&mut self, i: usize) -> Option<(Token, usize)> {
        let (bytes, source) = (self.bytes, self.source);
        let first_end = quoted_end(bytes, i)?;
        let mut end = first_end;
        let mut joined = source[i + 1..end - 1].to_string();
        loop {
            let plus = skip_trivia(bytes, end);
            if bytes.get(plus) != Some(&b'+') {
                break;
            }
            let next = skip_trivia(bytes, plus + 1);
            let Some(next_end) = (bytes.get(next) == Some(&b'"'))
                .then(|| quoted_end(bytes, next))
                .flatten()
            else {
                break;
            };
            joined.push_str(&source[next + 1..next_end - 1]);
            end = next_end;
        }
        if end != first_end {
            self.edit(i, end, format!("\"{joined}\""));
        }
        Some((Token::Id, end))
    }

    /// A numeral (quoted when the grammar would split it), or a lone `-` or `.`.
    fn numeral(&mut self, i: usize) -> (Token, usize) {
        let bytes = self.bytes;
        let mut j = i + usize::from(bytes[i] == b'-');
        while bytes.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        if bytes.get(j) == Some(&b'.') {
            j += 1;
            while bytes.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
        }
        let numeral = &self.source[i..j];
        if !numeral.bytes().any(|b| b.is_ascii_digit()) {
            return (Token::Other, i + 1);
        }
        if !grammar_number(numeral) {
            self.edit(i, j, quoted(numeral));
        }
        (Token::Id, j)
    }

    /// An unquoted id or a keyword (lowercased); non-ASCII ids are quoted.
    fn word(&mut self, i: usize) -> (Token, usize) {
        let mut j = i;
        while self
            .bytes
            .get(j)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80)
        {
            j += 1;
        }
        let word = &self.source[i..j];
        if !word.is_ascii() {
            self.edit(i, j, quoted(word));
            return (Token::Id, j);
        }
        let Some(keyword) = KEYWORDS.into_iter().find(|k| k.eq_ignore_ascii_case(word)) else {
            return (Token::Id, j);
        };
        if keyword != word {
            self.edit(i, j, keyword.to_string());
        }
        let token = if keyword == "subgraph" {
            Token::Subgraph
        } else {
            Token::Other
        };
        (token, j)
    }

    /// A `{`: the graph's body, or a subgraph (named `subgraph` if anonymous).
    fn open_brace(&mut self, i: usize) -> Option<()> {
        // The subgraph's first token and the token before it.
        let (first, before) = match self.recent {
            [(Token::Subgraph, at), before, _] => (Some(at), before.0),
            [(Token::Id, _), (Token::Subgraph, at), before] => (Some(at), before.0),
            [before, ..] => (None, before.0),
        };
        let body = !self.body_seen;
        self.body_seen = true;
        if first.is_none() && !body {
            self.edit(i, i, "subgraph ".to_string());
        }
        let begins_statement = !body && before != Token::EdgeOp;
        self.open
            .push(begins_statement.then_some(first.unwrap_or(i)));
        self.nest()
    }

    /// One level deeper; `None` past `MAX_NESTING`.
    fn nest(&mut self) -> Option<()> {
        self.depth += 1;
        self.deepest = self.deepest.max(self.depth);
        (self.depth <= MAX_NESTING).then_some(())
    }

    /// A `}` or `]`; a subgraph that begins an edge statement gets the placeholder head.
    fn close(&mut self, i: usize) {
        self.depth = self.depth.saturating_sub(1);
        if self.bytes[i] != b'}' {
            return;
        }
        let Some(Some(statement)) = self.open.pop() else {
            return;
        };
        let next = skip_trivia(self.bytes, i + 1);
        if !matches!(self.bytes.get(next..next + 2), Some(b"->" | b"--")) {
            return;
        }
        let source = self.source;
        let head = self.head.get_or_insert_with(|| {
            let mut id = String::from("\u{0}head");
            while source.contains(&id) {
                id.push('\u{0}');
            }
            id
        });
        let with = format!("\"{head}\" -> ");
        self.edits.push(Edit {
            start: statement,
            first: true,
            end: statement,
            with,
        });
    }

    /// The document with every edit applied, and the map back to the source.
    fn finish(self) -> Prepared {
        let Rewriter {
            source,
            mut edits,
            head,
            deepest,
            ..
        } = self;
        edits.sort_by_key(|e| (e.start, !e.first));
        let mut prepared = Prepared {
            text: String::with_capacity(source.len() + 16 * edits.len()),
            segments: Vec::with_capacity(2 * edits.len() + 1),
            head,
            deepest,
        };
        let mut copied = 0;
        for Edit {
            start, end, with, ..
        } in edits
        {
            if start > copied {
                prepared.segments.push(Segment {
                    out: prepared.text.len(),
                    source: copied,
                    verbatim: true,
                });
                prepared.text.push_str(&source[copied..start]);
            }
            prepared.segments.push(Segment {
                out: prepared.text.len(),
                source: start,
                verbatim: false,
            });
            prepared.text.push_str(&with);
            copied = copied.max(end);
        }
        if copied < source.len() {
            prepared.segments.push(Segment {
                out: prepared.text.len(),
                source: copied,
                verbatim: true,
            });
            prepared.text.push_str(&source[copied..]);
        }
        prepared
    }
}

/// The byte offset of pest's 1-based `line`:`column` (columns count characters;
/// `\r\n` and `\n` end lines) in `text`.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let (mut l, mut c) = (1, 1);
    let mut chars = text.char_indices().peekable();
    while let Some((i, ch)) = chars.next() {
        if (l, c) >= (line, column) {
            return i;
        }
        match ch {
            '\r' if chars.peek().is_some_and(|&(_, n)| n == '\n') => {
                chars.next();
                (l, c) = (l + 1, 1);
            }
            '\n' => (l, c) = (l + 1, 1),
            _ => c += 1,
        }
    }
    text.len()
}

/// An error for graphviz-rust's message, which is a rendered pest error
/// (` --> L:C`, the offending line with a caret, then `= expected …`), placed in
/// the original document.
fn syntax_error(content: &str, prepared: &Prepared, piece: &Piece<'_>, message: &str) -> Error {
    let location = message.lines().find_map(|line| {
        let (l, c) = line
            .trim_start()
            .strip_prefix("--> ")?
            .trim()
            .split_once(':')?;
        let (l, c) = (l.parse::<usize>().ok()?, c.parse::<usize>().ok()?);
        let pos = piece.prepared_offset(offset_of(piece.text, l, c));
        let pos = prepared.source_offset(pos.min(prepared.text.len()));
        Some(line_col(content, pos))
    });
    let detail = message
        .lines()
        .find_map(|line| line.trim_start().strip_prefix("= "))
        .unwrap_or(message)
        .trim();
    if detail.contains("call limit reached") || detail.contains("stack limit reached") {
        return invalid(
            FORMAT,
            None,
            "not valid DOT, and too tangled to say where (the parser gave up after trying too many readings): check that every { and [ is closed and every statement inside nested subgraphs is well-formed",
        );
    }
    invalid(FORMAT, location, format!("not valid DOT: {detail}"))
}

/// The error for a document nested past `MAX_NESTING`.
fn too_deep() -> Error {
    invalid(
        FORMAT,
        None,
        format!(
            "subgraphs or attribute lists are nested more than {MAX_NESTING} levels deep; flatten the document"
        ),
    )
}

/// The statements of a document read with the grammar at one time: the whole
/// document, or its header, some of its top-level statements and a `}`.
struct Piece<'a> {
    text: &'a str,
    /// Bytes of `text` copied from the start of the rewritten document.
    header: usize,
    /// Where the rest of `text` starts in the rewritten document.
    start: usize,
}

impl Piece<'_> {
    /// The offset in the rewritten document of offset `pos` in this piece.
    fn prepared_offset(&self, pos: usize) -> usize {
        if pos < self.header {
            pos
        } else {
            self.start + (pos - self.header)
        }
    }
}

/// Parses one piece and walks its statements into `walk`; errors are placed
/// in the original document.
fn read_piece(
    content: &str,
    prepared: &Prepared,
    piece: &Piece<'_>,
    walk: &mut Walk<'_>,
) -> Result<()> {
    pest::set_call_limit(std::num::NonZeroUsize::new(
        piece.text.len().saturating_mul(CALLS_PER_BYTE) + MIN_CALLS,
    ));
    // The depth that bounds every recursion below, measured by the grammar itself.
    match super::dot_depth::nesting(piece.text) {
        Ok(depth) if depth > MAX_NESTING => return Err(too_deep()),
        Ok(_) => {}
        Err(message) => return Err(syntax_error(content, prepared, piece, &message)),
    }
    // The parser unwraps on shapes its grammar should rule out; should one slip
    // through, turn the panic into an error instead of a crash.
    let parsed = catch_unwind(AssertUnwindSafe(|| graphviz_rust::parse(piece.text)));
    let ast = match parsed {
        Ok(Ok(ast)) => ast,
        Ok(Err(message)) => return Err(syntax_error(content, prepared, piece, &message)),
        Err(_) => {
            return Err(invalid(
                FORMAT,
                None,
                "the DOT parser could not read this document; check its syntax",
            ));
        }
    };
    let stmts = match &ast {
        DotGraph::DiGraph { stmts, .. } | DotGraph::Graph { stmts, .. } => stmts,
    };
    walk.stmts(stmts, true, &mut Members::default())
}

/// Parses DOT, producing at most `max_edges` edges (an edge between subgraphs
/// stands for every pair of their nodes, so a small document can stand for very
/// many: they are counted as the walk makes them). O(size of the document +
/// edges produced).
pub(crate) fn parse(content: &str, max_edges: usize, meter: &mut Meter) -> Result<ImportedGraph> {
    let prepared = prepare(content);
    if prepared.deepest > MAX_NESTING {
        return Err(too_deep());
    }
    // The grammar backtracks: a syntax error deep inside nested subgraphs makes
    // each level retry its alternatives, 2^depth work for one document. pest's
    // call budget bounds a parse to a multiple of the piece's size (valid
    // documents need about 16 calls a byte); the budget is process-wide, so DOT
    // parses take turns.
    static SERIAL: parking_lot::Mutex<()> = parking_lot::Mutex::new(());
    let _turn = SERIAL.lock();
    let mut walk = Walk {
        nodes: Vec::new(),
        index: HashMap::new(),
        edges: Vec::new(),
        description: None,
        head: prepared.head.clone(),
        max_edges,
        meter,
        defaults: 0,
        graph_attributes: 0,
    };
    // A long document is parsed a piece at a time, so that only one piece's
    // tokens are held at once (see `dot_chunks`).
    match super::dot_chunks::cut(&prepared.text, PIECE_BYTES) {
        None => {
            let whole = Piece {
                text: &prepared.text,
                header: 0,
                start: 0,
            };
            read_piece(content, &prepared, &whole, &mut walk)?;
        }
        Some(cuts) => {
            let last = cuts.body.len() - 1;
            let mut text = String::new();
            for (k, range) in cuts.body.into_iter().enumerate() {
                text.clear();
                text.push_str(&prepared.text[cuts.header.clone()]);
                text.push_str(&prepared.text[range.clone()]);
                if k != last {
                    text.push('}');
                }
                let piece = Piece {
                    text: &text,
                    header: cuts.header.len(),
                    start: range.start,
                };
                read_piece(content, &prepared, &piece, &mut walk)?;
            }
        }
    }
    let notes: Vec<_> = crate::interchange::ImportNote::left_out(&[
        (
            walk.defaults,
            "default attribute statement(s) (`node [...]`, `edge [...]`), which are not copied onto nodes and edges",
        ),
        (
            walk.graph_attributes,
            "graph or subgraph attribute(s) other than the top-level description (label, rankdir, ...)",
        ),
    ])
    .into_iter()
    .collect();

    let ids: Vec<String> = walk.nodes.iter().map(|n| n.id.clone()).collect();
    let mut nodes = Vec::with_capacity(walk.nodes.len());
    for pending in walk.nodes {
        {
            let mut node = NodeSpec {
                id: pending.id,
                data: None,
                attributes: Map::new(),
            };
            for (key, value) in pending.attributes {
                let Value::String(text) = value else {
                    continue;
                };
                match key.as_str() {
                    "data" => {
                        let data = match values::parse_json_exact(&text) {
                            Ok((data, _)) => data,
                            Err(_) => Value::String(text),
                        };
                        // Its text was counted; a parsed value can take a few
                        // times more, counted before it is kept.
                        let id = &node.id;
                        walk.meter.charge(value_bytes(&data), || {
                            format!("the data of node '{}'", crate::error::clip(id, 64))
                        })?;
                        node.data = Some(data).filter(|d| !d.is_null());
                    }
                    "label"
                        if text == node.id
                            || text == crate::interchange::export::dot::label_text(&node.id) => {}
                    _ => {
                        node.attributes
                            .insert(user_key(key), values::infer_scalar(&text));
                    }
                }
            }
            nodes.push(node);
        }
    }

    let mut edges = Vec::with_capacity(walk.edges.len());
    for (i, edge) in walk.edges.into_iter().enumerate() {
        let (source, target) = (ids[edge.source].clone(), ids[edge.target].clone());
        let mut weight = DEFAULT_WEIGHT;
        let mut attributes = Map::new();
        for (key, text) in edge.attributes {
            if key == "weight" {
                weight = values::parse_weight(&text).ok_or_else(|| {
                    invalid(
                        FORMAT,
                        Some(format!("edge {i} ({source} -> {target})")),
                        format!("weight '{text}' is not a finite number"),
                    )
                })?;
            } else {
                attributes.insert(user_key(key), values::infer_scalar(&text));
            }
        }
        edges.push(EdgeSpec {
            source,
            target,
            weight,
            attributes,
        });
    }
    Ok(ImportedGraph {
        description: walk.description,
        nodes,
        edges,
        notes,
        ..ImportedGraph::default()
    })
}
