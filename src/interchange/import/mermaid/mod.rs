//! Reads Mermaid flowcharts (`flowchart`/`graph`, any direction).
//!
//! The document goes through what Mermaid does before parsing (`prep.rs`: front
//! matter, `%%{…}%%` directives and `%%` comment lines removed, entity codes
//! encoded), then through a port of Mermaid's own lexer (`lex.rs`) and a
//! recursive-descent reading of its grammar (`flow.jison`), so that what Mermaid
//! rejects is rejected here, with the line and column of the offending token.
//! What becomes of the diagram:
//!
//! - every node (any shape, `A@{ shape: … }` included) is a node with its id;
//!   a label given in its shape (`A[Label]`, `A@{ label: "…" }`) is the attribute
//!   `label` (entity codes decoded, surrounding space trimmed, the last one given
//!   wins, as in Mermaid); a node without one has no `label`;
//! - every link (`-->`, `---`, `-.->`, `==>`, `--o`, `--x`, `<-->`, `~~~`, any
//!   length) is an edge from the node written first to the one written second, of
//!   weight 1; its text (`-->|text|`, `-- text -->`) is the attribute `relation`;
//!   chains (`A --> B --> C`) and `&` groups (`A & B --> C`, every pair) expand
//!   as in Mermaid;
//! - a subgraph is a node (its id, or Mermaid's `subGraphN` when its title has
//!   spaces; its title, when not the id, the attribute `label`), and each of its
//!   members gets the attribute `parent` = the subgraph's id: the innermost
//!   subgraph, or for a node named in several, the first to close, as Mermaid
//!   assigns them;
//! - `classDef`, `class`, `:::`, `style`, `linkStyle`, `click`, `direction`,
//!   accessibility titles, edge ids (`e1@-->`) and their `@{…}` are read and
//!   ignored.
//!
//! Our own export reads back exactly: a document whose first line is the
//! comment [`EXPORT_MARK`] (`%% networks-mcp export: A --> B means A depends on
//! B`, then `flowchart LR`; or, as older exports wrote, `flowchart LR` then
//! `%% networks-mcp export`) is read with each node's label as its id (labels
//! kept as written, untrimmed) and each edge's label split back into the
//! `relation` and weight the export wrote (`relation (2.5)`, `2.5`,
//! `relation`).
//!
//! Direction: the links come out as written (the node written first as the
//! source), with the reading the document states in a comment line
//! `%% networks-mcp: A --> B means B depends on A` (or `… means A depends on
//! B`; our export states the latter); `reading::orient` settles the rest.
//! O(size of the document).

mod lex;
mod prep;
mod shapes;

use hashbrown::HashMap;
use serde_json::{Map, Value};

use crate::error::Result;
use crate::interchange::meter::Meter;
use crate::interchange::{Format, ImportedGraph, invalid, line_col};
use crate::network::{DEFAULT_WEIGHT, EdgeSpec, NodeSpec};
use lex::{Kind, Lexer, Token};
use prep::Prepared;

const FORMAT: Format = Format::Mermaid;

/// The comment our export writes on its first line: the labels are the ids,
/// and an arrow points from a node to what it depends on.
pub(crate) const EXPORT_MARK: &str = "%% networks-mcp export: A --> B means A depends on B";
/// What older exports wrote on their second line, after `flowchart LR`.
const OLD_EXPORT_MARK: &str = "%% networks-mcp export";

/// The deepest nesting of subgraphs read (the reader recurses once per level).
const MAX_SUBGRAPH_DEPTH: usize = 128;

/// Parses a Mermaid flowchart. O(size of the document) plus the edges its `&`
/// groups expand to, which are counted against `max_edges` (and the meter)
/// before they are made.
pub(crate) fn parse(content: &str, max_edges: usize, meter: &mut Meter) -> Result<ImportedGraph> {
    let content = content.strip_prefix('\u{FEFF}').unwrap_or(content);
    let ours = is_our_export(content);
    if let Some((body, _)) = prep::front_matter(content) {
        check_front_matter(&content[body.clone()]).map_err(|message| {
            invalid(
                FORMAT,
                Some(line_col(content, body.start)),
                format!("in the front matter: {message}"),
            )
        })?;
    }
    let prepared = prep::prepare(content);
    check_diagram_type(&prepared.text, content)?;
    let mut tokens = Vec::new();
    let mut lexer = Lexer::new(&prepared.text);
    loop {
        crate::budget::charge(1);
        let token = lexer.next_token().map_err(|e| {
            // A place inside a rewritten piece maps to the document's nearest
            // character boundary at or before it.
            let mut at = prepared.original(e.at).min(content.len());
            while !content.is_char_boundary(at) {
                at -= 1;
            }
            let shown: String = content[at..].chars().take(12).collect();
            invalid(
                FORMAT,
                Some(line_col(content, at)),
                format!(
                    "Mermaid cannot read the text starting here ({shown:?}): no token of its flowchart grammar starts so. Quote labels (A[\"…\"]), write # and ; in labels as #35; and #59;, and remove characters Mermaid does not allow in ids"
                ),
            )
        })?;
        let kind = token.kind;
        tokens.push(token);
        if kind == Kind::Stop {
            break;
        }
    }
    let unclosed = lexer.open_at().map(|at| prepared.original(at));
    let mut reader = Reader {
        meter,
        max_edges,
        unclosed,
        text: &prepared.text,
        prepared: &prepared,
        content,
        tokens,
        at: 0,
        depth: 0,
        vertices: Vec::new(),
        index: HashMap::new(),
        edges: Vec::new(),
        edge_ids: hashbrown::HashSet::new(),
        subgraphs: 0,
        parents: HashMap::new(),
        styling: 0,
        clicks: 0,
        accessibility: 0,
    };
    reader.start()?;
    let ignored = reader.ignored_note();
    let mut graph = reader.finish(ours)?;
    graph.stated_reading = if ours {
        Some(crate::interchange::Arrows::DependsOn)
    } else {
        crate::interchange::reading::stated_in_comments(content, "%%")
    };
    graph.notes.extend(ignored);
    Ok(graph)
}

/// Whether the document is our own export (see the module doc).
fn is_our_export(content: &str) -> bool {
    let mut lines = content.lines();
    matches!(
        (lines.next().map(str::trim), lines.next().map(str::trim)),
        (Some(EXPORT_MARK), Some("flowchart LR")) | (Some("flowchart LR"), Some(OLD_EXPORT_MARK))
    )
}

/// Mermaid's diagram detection: after front matter, directives and comments,
/// the text must start with `graph` or `flowchart`.
fn check_diagram_type(prepared: &str, content: &str) -> Result<()> {
    let text = prepared.trim_start_matches(prep::js_space);
    if text.starts_with("graph") || text.starts_with("flowchart") {
        return Ok(());
    }
    let first: String = text.chars().take(24).collect();
    Err(invalid(
        FORMAT,
        Some(line_col(
            content,
            content.len() - content.trim_start().len(),
        )),
        format!(
            "not a Mermaid flowchart: it starts with {first:?}; a flowchart starts with `flowchart LR` (or TD, RL, BT) or `graph`. Other Mermaid diagrams (sequence, class, state...) cannot be imported"
        ),
    ))
}

/// A node as the diagram defines it.
struct Vertex {
    id: String,
    /// The label's text as written (placeholders not yet decoded), if any.
    label: Option<String>,
}

/// A link.
struct Link {
    source: String,
    target: String,
    text: Option<String>,
}

/// The grammar's reader over the token list.
struct Reader<'a, 'm> {
    meter: &'m mut Meter,
    /// The most edges the import may make (`--max-import-edges`).
    max_edges: usize,
    /// Where a quote, bracket or link text left open at the end started.
    unclosed: Option<usize>,
    text: &'a str,
    prepared: &'a Prepared,
    content: &'a str,
    tokens: Vec<Token>,
    at: usize,
    depth: usize,
    vertices: Vec<Vertex>,
    index: HashMap<String, usize>,
    edges: Vec<Link>,
    /// Edge ids given with `id@` on a link: `id@{…}` then describes the edge.
    edge_ids: hashbrown::HashSet<String>,
    /// Subgraphs closed so far (Mermaid's `subCount`).
    subgraphs: usize,
    /// Each node's subgraph: the first to close that lists it.
    parents: HashMap<String, String>,
    /// Statements read and not kept: styling, `click`, accessibility texts.
    styling: usize,
    clicks: usize,
    accessibility: usize,
}

/// What one statement of a subgraph's body names (for membership).
type Members = Vec<String>;

impl<'a> Reader<'a, '_> {
    fn peek(&self) -> Kind {
        self.tokens.get(self.at).map_or(Kind::Stop, |t| t.kind)
    }

    fn peek_at(&self, ahead: usize) -> Kind {
        self.tokens
            .get(self.at + ahead)
            .map_or(Kind::Stop, |t| t.kind)
    }

    fn token_text(&self, token: &Token) -> &'a str {
        &self.text[token.start..token.end]
    }

    fn advance(&mut self) -> Token {
        let token = self.tokens.get(self.at).copied().unwrap_or(Token {
            kind: Kind::Stop,
            start: self.text.len(),
            end: self.text.len(),
        });
        if token.kind != Kind::Stop {
            self.at += 1;
        }
        token
    }

    /// A parse error at the current token.
    fn error(&self, expected: &str) -> crate::Error {
        let token = self.tokens.get(self.at).copied();
        let (at, got) = match token {
            Some(t) => (self.prepared.original(t.start), t.kind.describe()),
            None => (self.content.len(), Kind::Stop.describe()),
        };
        if token.is_none_or(|t| t.kind == Kind::Stop)
            && let Some(open) = self.unclosed
        {
            return invalid(
                FORMAT,
                Some(line_col(self.content, open)),
                "the quote, bracket or link text that starts here is never closed: the document ends inside it. Close it (\", ], ), }, |) on the same statement",
            );
        }
        invalid(
            FORMAT,
            Some(line_col(self.content, at)),
            format!(
                "Mermaid's flowchart grammar expects {expected} here, not {got}. Check the statement on this line: a node is `id` or `id[label]` (quote labels with punctuation: id[\"…\"]), a link `a --> b` or `a -->|label| b`, and a subgraph ends with `end`"
            ),
        )
    }

    fn expect(&mut self, kind: Kind, expected: &str) -> Result<Token> {
        if self.peek() == kind {
            Ok(self.advance())
        } else {
            Err(self.error(expected))
        }
    }

    fn spaces(&mut self) -> usize {
        let mut n = 0;
        while self.peek() == Kind::Space {
            self.advance();
            n += 1;
        }
        n
    }

    // start: graphConfig document
    fn start(&mut self) -> Result<()> {
        while matches!(self.peek(), Kind::Space | Kind::Newline) {
            self.advance();
        }
        self.expect(Kind::Graph, "`flowchart` or `graph`")?;
        match self.peek() {
            Kind::NoDir => {
                self.advance();
            }
            Kind::Dir => {
                self.advance();
                // FirstStmtSeparator: SEMI | NEWLINE | spaceList NEWLINE
                match self.peek() {
                    Kind::Semi | Kind::Newline => {
                        self.advance();
                    }
                    Kind::Space => {
                        self.spaces();
                        self.expect(Kind::Newline, "a line end after the direction")?;
                    }
                    _ => return Err(self.error("a line end after the direction")),
                }
            }
            _ => {
                return Err(self.error("a direction (LR, RL, TB, TD, BT) or a line end"));
            }
        }
        self.document(false)?;
        Ok(())
    }

    /// document: line*; in a subgraph, up to its `end` (not consumed).
    fn document(&mut self, in_subgraph: bool) -> Result<Members> {
        let mut members = Vec::new();
        loop {
            crate::budget::charge(1);
            match self.peek() {
                Kind::Eof | Kind::Stop => {
                    if in_subgraph {
                        return Err(self.error("`end` to close the subgraph"));
                    }
                    return Ok(members);
                }
                Kind::End if in_subgraph => return Ok(members),
                Kind::Semi | Kind::Newline | Kind::Space => {
                    self.advance();
                }
                _ => members.extend(self.statement()?),
            }
        }
    }

    fn separator(&mut self) -> Result<()> {
        match self.peek() {
            Kind::Newline | Kind::Semi => {
                self.advance();
                Ok(())
            }
            Kind::Eof => Ok(()),
            _ => Err(self.error("a line end or ';'")),
        }
    }

    fn statement(&mut self) -> Result<Members> {
        match self.peek() {
            Kind::Style => {
                self.advance();
                self.expect(Kind::Space, "a space after `style`")?;
                // Mermaid's `style` adds the vertex it names (flowDb's
                // addVertex), so a node named only here is a node.
                let id = self.id_string()?;
                self.define(&id, None, false);
                self.expect(Kind::Space, "a space before the styles")?;
                self.styles()?;
                self.separator()?;
                self.styling += 1;
                Ok(Vec::new())
            }
            Kind::ClassDef => {
                self.advance();
                self.expect(Kind::Space, "a space after `classDef`")?;
                self.id_string()?;
                self.expect(Kind::Space, "a space before the styles")?;
                self.styles()?;
                self.separator()?;
                self.styling += 1;
                Ok(Vec::new())
            }
            Kind::Class => {
                self.advance();
                self.expect(Kind::Space, "a space after `class`")?;
                self.id_string()?;
                self.expect(Kind::Space, "a space before the class name")?;
                self.id_string()?;
                self.separator()?;
                self.styling += 1;
                Ok(Vec::new())
            }
            Kind::LinkStyle => {
                self.link_style()?;
                self.separator()?;
                self.styling += 1;
                Ok(Vec::new())
            }
            Kind::Click => {
                self.click()?;
                self.separator()?;
                self.clicks += 1;
                Ok(Vec::new())
            }
            Kind::Subgraph => self.subgraph(),
            Kind::Direction => {
                self.advance();
                Ok(Vec::new())
            }
            Kind::AccTitle => {
                self.accessibility += 1;
                self.advance();
                self.expect(Kind::AccTitleValue, "the accessible title")?;
                Ok(Vec::new())
            }
            Kind::AccDescr => {
                self.accessibility += 1;
                self.advance();
                self.expect(Kind::AccDescrValue, "the accessible description")?;
                Ok(Vec::new())
            }
            Kind::AccDescrMultilineValue => {
                self.accessibility += 1;
                self.advance();
                Ok(Vec::new())
            }
            _ => {
                let members = self.vertex_statement()?;
                self.separator()?;
                Ok(members)
            }
        }
    }

    /// stylesOpt: style (COMMA style)*; style: styleComponent+.
    fn styles(&mut self) -> Result<()> {
        loop {
            let mut any = false;
            while matches!(
                self.peek(),
                Kind::Num | Kind::NodeString | Kind::Colon | Kind::Space | Kind::Brkt | Kind::Style
            ) {
                self.advance();
                any = true;
            }
            if !any {
                return Err(self.error("a style such as fill:#f9f"));
            }
            if self.peek() == Kind::Comma {
                self.advance();
            } else {
                return Ok(());
            }
        }
    }

    fn link_style(&mut self) -> Result<()> {
        self.advance();
        self.expect(Kind::Space, "a space after `linkStyle`")?;
        if self.peek() == Kind::Default {
            self.advance();
        } else {
            self.expect(Kind::Num, "`default` or a link number")?;
            while self.peek() == Kind::Comma {
                self.advance();
                self.expect(Kind::Num, "a link number")?;
            }
        }
        self.expect(Kind::Space, "a space before the styles")?;
        if self.peek() == Kind::Interpolate {
            self.advance();
            self.expect(Kind::Space, "a space after `interpolate`")?;
            self.alpha_num()?;
            if self.peek() == Kind::Space {
                self.advance();
                self.styles()?;
            }
            return Ok(());
        }
        self.styles()
    }

    fn alpha_num(&mut self) -> Result<()> {
        let mut any = false;
        while matches!(
            self.peek(),
            Kind::Num
                | Kind::UnicodeText
                | Kind::NodeString
                | Kind::Dir
                | Kind::Down
                | Kind::Minus
                | Kind::Comma
                | Kind::Colon
                | Kind::Amp
                | Kind::Brkt
                | Kind::Mult
        ) {
            self.advance();
            any = true;
        }
        if any {
            Ok(())
        } else {
            Err(self.error("a name"))
        }
    }

    fn click(&mut self) -> Result<()> {
        self.advance();
        let tooltip = |r: &mut Self| {
            if r.peek() == Kind::Space && r.peek_at(1) == Kind::Str {
                r.advance();
                r.advance();
            }
        };
        let target = |r: &mut Self| {
            if r.peek() == Kind::Space && r.peek_at(1) == Kind::LinkTarget {
                r.advance();
                r.advance();
            }
        };
        match self.peek() {
            Kind::CallbackName => {
                self.advance();
                if self.peek() == Kind::CallbackArgs {
                    self.advance();
                }
                tooltip(self);
            }
            Kind::Href => {
                self.advance();
                self.expect(Kind::Str, "the link, in quotes")?;
                tooltip(self);
                target(self);
            }
            Kind::Str => {
                self.advance();
                tooltip(self);
                target(self);
            }
            _ => {
                self.alpha_num()?;
                tooltip(self);
            }
        }
        Ok(())
    }

    fn subgraph(&mut self) -> Result<Members> {
        self.advance();
        if self.depth >= MAX_SUBGRAPH_DEPTH {
            return Err(self.error(&format!(
                "at most {MAX_SUBGRAPH_DEPTH} nested subgraphs, not another"
            )));
        }
        // subgraph SPACE textNoTags [SQS text SQE] separator document end
        // subgraph separator document end
        let mut id_text: Option<String> = None;
        let mut title: Option<String> = None;
        if self.peek() == Kind::Space {
            self.advance();
            let text = self.text_no_tags()?;
            if self.peek() == Kind::Sqs {
                self.advance();
                let label = self.text()?;
                self.expect(Kind::Sqe, "']' to close the subgraph's title")?;
                let id = text.trim().to_string();
                id_text = Some(id);
                title = Some(label);
            } else {
                // One text for both: an id with white space is no id.
                if !text.chars().any(prep::js_space) {
                    id_text = Some(text.trim().to_string());
                }
                title = Some(text);
            }
        }
        self.separator()?;
        self.depth += 1;
        let body = self.document(true)?;
        self.depth -= 1;
        self.expect(Kind::End, "`end`")?;
        let id = id_text
            .filter(|id| !id.is_empty())
            .unwrap_or_else(|| format!("subGraph{}", self.subgraphs));
        self.subgraphs += 1;
        for member in &body {
            if !self.parents.contains_key(member) && *member != id {
                self.parents.insert(member.clone(), id.clone());
            }
        }
        let label = title
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty() && *t != id);
        self.define(&id, label, true);
        Ok(vec![id])
    }

    /// textNoTags: (STR | MD_STR | textNoTagsToken) textNoTagsToken*.
    fn text_no_tags(&mut self) -> Result<String> {
        let mut text = String::new();
        if matches!(self.peek(), Kind::Str | Kind::MdStr) {
            let token = self.advance();
            text.push_str(self.token_text(&token));
        }
        while matches!(
            self.peek(),
            Kind::Num
                | Kind::NodeString
                | Kind::Space
                | Kind::Minus
                | Kind::Amp
                | Kind::UnicodeText
                | Kind::Colon
                | Kind::Mult
                | Kind::Brkt
                | Kind::Style
                | Kind::LinkStyle
                | Kind::ClassDef
                | Kind::Class
                | Kind::Click
                | Kind::Graph
                | Kind::Dir
                | Kind::Subgraph
                | Kind::End
                | Kind::Down
                | Kind::Up
                | Kind::StartLink
        ) {
            let token = self.advance();
            text.push_str(self.token_text(&token));
        }
        if text.is_empty() {
            return Err(self.error("the subgraph's id or title"));
        }
        Ok(text)
    }

    /// text: (STR | MD_STR | textToken) textToken*, textToken being TEXT,
    /// TAGSTART, TAGEND or UNICODE_TEXT (the grammar's left recursion lets text
    /// follow a quoted string, not precede it).
    fn text(&mut self) -> Result<String> {
        let mut text = String::new();
        if matches!(self.peek(), Kind::Str | Kind::MdStr) {
            let token = self.advance();
            text.push_str(self.token_text(&token));
        }
        while matches!(
            self.peek(),
            Kind::Text | Kind::TagStart | Kind::TagEnd | Kind::UnicodeText
        ) {
            let token = self.advance();
            text.push_str(self.token_text(&token));
        }
        if text.is_empty() {
            return Err(self.error("a label"));
        }
        Ok(text)
    }

    /// idString: idStringToken+.
    fn id_string(&mut self) -> Result<String> {
        let mut id = String::new();
        while matches!(
            self.peek(),
            Kind::Num
                | Kind::NodeString
                | Kind::Down
                | Kind::Minus
                | Kind::Default
                | Kind::Comma
                | Kind::Colon
                | Kind::Amp
                | Kind::Brkt
                | Kind::Mult
                | Kind::UnicodeText
        ) {
            let token = self.advance();
            id.push_str(self.token_text(&token));
        }
        if id.is_empty() {
            return Err(self.error("a node id"));
        }
        Ok(id)
    }

    /// vertexStatement: node (link node)*, with the spaces and `@{…}` the
    /// grammar allows after each node.
    fn vertex_statement(&mut self) -> Result<Members> {
        let mut previous = self.node()?;
        let mut members = previous.clone();
        while matches!(self.peek(), Kind::Link | Kind::StartLink | Kind::LinkId) {
            crate::budget::charge(1);
            let text = self.link()?;
            let next = self.node()?;
            // `a & b --> c & d` is every pair: counted before any is made.
            let pairs = previous.len().saturating_mul(next.len());
            if self.edges.len().saturating_add(pairs) > self.max_edges {
                return Err(crate::limits::Limits::import_edges_exceeded_counting(
                    self.max_edges,
                    "a link between node groups joined by & counts one edge per pair of their nodes",
                ));
            }
            for source in &previous {
                for target in &next {
                    crate::budget::charge(1);
                    let line = self
                        .tokens
                        .get(self.at.saturating_sub(1))
                        .map_or(0, |t| t.start);
                    self.meter.edge(source, target, &Map::new(), || {
                        format!(
                            "at the links of the statement before {}",
                            line_col(self.content, self.prepared.original(line))
                        )
                    })?;
                    if let Some(text) = &text {
                        self.meter.attribute(super::plans::RELATION, text, || {
                            "at a link's text".to_string()
                        })?;
                    }
                    self.edges.push(Link {
                        source: source.clone(),
                        target: target.clone(),
                        text: text.clone(),
                    });
                }
            }
            members.extend(next.iter().cloned());
            previous = next;
        }
        Ok(members)
    }

    /// node: styledVertex ([shapeData] spaceList AMP spaceList styledVertex)*,
    /// then at most trailing spaces or one shapeData.
    fn node(&mut self) -> Result<Vec<String>> {
        let mut ids = vec![self.styled_vertex()?];
        loop {
            if self.peek() == Kind::ShapeData {
                let data = self.shape_data();
                let last = ids.last().cloned().unwrap_or_default();
                self.apply_shape_data(&last, &data)?;
                if self.peek() != Kind::Space {
                    return Ok(ids);
                }
                self.spaces();
                if self.peek() != Kind::Amp {
                    return Err(self.error("'&' (or nothing: write `@{…}` at the end of its line)"));
                }
            } else if self.peek() == Kind::Space {
                self.spaces();
                if self.peek() != Kind::Amp {
                    return Ok(ids);
                }
            } else {
                return Ok(ids);
            }
            self.advance();
            if self.spaces() == 0 {
                return Err(self.error("a space after '&'"));
            }
            ids.push(self.styled_vertex()?);
        }
    }

    fn shape_data(&mut self) -> String {
        let mut data = String::new();
        while self.peek() == Kind::ShapeData {
            let token = self.advance();
            // The rule for `@{` makes a token of no text.
            let text = self.token_text(&token);
            data.push_str(text.strip_prefix("@{").unwrap_or(text));
        }
        data
    }

    /// `@{ shape: …, label: … }`: the label, and a check of the shape's name.
    fn apply_shape_data(&mut self, id: &str, data: &str) -> Result<()> {
        let at = self.at.saturating_sub(1);
        let fields = shape_fields(data).map_err(|message| {
            let offset = self
                .tokens
                .get(at)
                .map_or(self.content.len(), |t| self.prepared.original(t.start));
            invalid(
                FORMAT,
                Some(line_col(self.content, offset)),
                format!(
                    "in this node's @{{…}}: {message}; write it as @{{ shape: rect, label: \"…\" }}"
                ),
            )
        })?;
        // An edge's `id@{…}` (animation, curve) is read and set aside.
        if self.edge_ids.contains(id) {
            return Ok(());
        }
        for (key, value) in fields {
            match key.as_str() {
                "shape" => {
                    if value != value.to_lowercase() || value.contains('_') {
                        return Err(self.shape_error(at, format!(
                            "No such shape: {value}. Shape names should be lowercase (rect, rounded, stadium, diamond, ...)"
                        )));
                    }
                    if shapes::SHAPES.binary_search(&value.as_str()).is_err() {
                        return Err(self.shape_error(at, format!(
                            "No such shape: {value}. Use one of Mermaid's shapes: rect, rounded, stadium, fr-rect, cyl, circle, diam, hex, lean-r, lean-l, trap-b, trap-t, dbl-circ, doc, ..."
                        )));
                    }
                }
                "label" if !value.is_empty() => {
                    self.define(id, Some(value), false);
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn shape_error(&self, at: usize, message: String) -> crate::Error {
        let offset = self
            .tokens
            .get(at)
            .map_or(self.content.len(), |t| self.prepared.original(t.start));
        invalid(FORMAT, Some(line_col(self.content, offset)), message)
    }

    fn styled_vertex(&mut self) -> Result<String> {
        let id = self.vertex()?;
        if self.peek() == Kind::StyleSeparator {
            self.advance();
            self.id_string()?;
        }
        Ok(id)
    }

    /// vertex: idString [shape text shape-end].
    fn vertex(&mut self) -> Result<String> {
        let id = self.id_string()?;
        let label = match self.peek() {
            Kind::Sqs => Some(self.shaped(Kind::Sqe, "']'")?),
            Kind::DoubleCircleStart => Some(self.shaped(Kind::DoubleCircleEnd, "')))'")?),
            Kind::Ps => {
                if self.peek_at(1) == Kind::Ps {
                    self.advance();
                    let text = self.shaped(Kind::Pe, "'))'")?;
                    self.expect(Kind::Pe, "'))'")?;
                    Some(text)
                } else {
                    Some(self.shaped(Kind::Pe, "')'")?)
                }
            }
            Kind::EllipseStart => Some(self.shaped(Kind::EllipseEnd, "'-)'")?),
            Kind::StadiumStart => Some(self.shaped(Kind::StadiumEnd, "'])'")?),
            Kind::SubroutineStart => Some(self.shaped(Kind::SubroutineEnd, "']]'")?),
            Kind::VertexWithPropsStart => {
                self.advance();
                self.expect(Kind::NodeString, "a property name")?;
                self.expect(Kind::Colon, "':'")?;
                self.expect(Kind::NodeString, "a property value")?;
                self.expect(Kind::Pipe, "'|'")?;
                let text = self.text()?;
                self.expect(Kind::Sqe, "']'")?;
                Some(text)
            }
            Kind::CylinderStart => Some(self.shaped(Kind::CylinderEnd, "')]'")?),
            Kind::DiamondStart => {
                if self.peek_at(1) == Kind::DiamondStart {
                    self.advance();
                    let text = self.shaped(Kind::DiamondStop, "'}}'")?;
                    self.expect(Kind::DiamondStop, "'}}'")?;
                    Some(text)
                } else {
                    Some(self.shaped(Kind::DiamondStop, "'}'")?)
                }
            }
            Kind::TagEnd => Some(self.shaped(Kind::Sqe, "']'")?),
            Kind::TrapStart | Kind::InvTrapStart => {
                self.advance();
                let text = self.text()?;
                if matches!(self.peek(), Kind::TrapEnd | Kind::InvTrapEnd) {
                    self.advance();
                } else {
                    return Err(self.error("'\\]' or '/]'"));
                }
                Some(text)
            }
            _ => None,
        };
        if let Some(label) = label {
            self.define(&id, Some(label), false);
        } else {
            self.define(&id, None, false);
        }
        Ok(id)
    }

    /// An opening token, a text, and the closing `end`.
    fn shaped(&mut self, end: Kind, expected: &str) -> Result<String> {
        self.advance();
        let text = self.text()?;
        self.expect(end, expected)?;
        Ok(text)
    }

    /// A link, and its text if it has one.
    fn link(&mut self) -> Result<Option<String>> {
        if self.peek() == Kind::LinkId {
            let token = self.advance();
            let id = self.token_text(&token).trim_end_matches('@').to_string();
            self.edge_ids.insert(id);
        }
        match self.peek() {
            Kind::Link => {
                self.advance();
                if self.peek() == Kind::Pipe {
                    self.advance();
                    let text = self.text()?;
                    self.expect(Kind::Pipe, "'|' to close the link's text")?;
                    if self.peek() == Kind::Space {
                        self.advance();
                    }
                    return Ok(Some(text));
                }
                Ok(None)
            }
            Kind::StartLink => {
                self.advance();
                // edgeText: (STR | MD_STR | edgeTextToken) edgeTextToken*.
                let mut text = String::new();
                if matches!(self.peek(), Kind::Str | Kind::MdStr) {
                    let token = self.advance();
                    text.push_str(self.token_text(&token));
                }
                while matches!(self.peek(), Kind::EdgeText | Kind::UnicodeText) {
                    let token = self.advance();
                    text.push_str(self.token_text(&token));
                }
                if text.is_empty() {
                    return Err(self.error("the link's text"));
                }
                self.expect(Kind::Link, "the end of the arrow (-->, ==>, -.->)")?;
                Ok(Some(text))
            }
            _ => Err(self.error("an arrow")),
        }
    }

    /// One note for the statements read and not kept, if there were any.
    fn ignored_note(&self) -> Option<crate::interchange::ImportNote> {
        crate::interchange::ImportNote::left_out(&[
            (self.clicks, "`click` (links, callbacks, tooltips)"),
            (self.accessibility, "accessibility title or description"),
            (
                self.styling,
                "styling statement (`style`, `classDef`, `class`, `linkStyle`)",
            ),
        ])
    }

    /// Records a node (first mention) and its label (the last one wins).
    fn define(&mut self, id: &str, label: Option<String>, subgraph: bool) {
        if !subgraph && self.edge_ids.contains(id) {
            return;
        }
        match self.index.get(id) {
            Some(&i) => {
                if label.is_some()
                    && let Some(vertex) = self.vertices.get_mut(i)
                {
                    vertex.label = label;
                }
            }
            None => {
                self.index.insert(id.to_string(), self.vertices.len());
                self.vertices.push(Vertex {
                    id: id.to_string(),
                    label,
                });
            }
        }
    }

    /// The graph: nodes in order of first mention, then the links in order.
    fn finish(self, ours: bool) -> Result<ImportedGraph> {
        let mut graph = ImportedGraph::default();
        let mut ids: HashMap<String, String> = HashMap::new();
        for vertex in &self.vertices {
            crate::budget::charge(1);
            let (id, label) = match (&vertex.label, ours) {
                (Some(label), true) => (prep::decode(label), None),
                (label, _) => (
                    vertex.id.clone(),
                    label.as_deref().map(shown_text).filter(|l| !l.is_empty()),
                ),
            };
            if ours {
                ids.insert(vertex.id.clone(), id.clone());
            }
            let mut attributes = Map::new();
            if let Some(label) = label {
                attributes.insert("label".into(), Value::String(label));
            }
            if let Some(parent) = self.parents.get(&vertex.id) {
                attributes.insert(super::plans::PARENT.into(), Value::String(parent.clone()));
            }
            self.meter.node(&id, &attributes, None, || {
                format!("at node '{}'", crate::error::clip(&id, 40))
            })?;
            graph.nodes.push(NodeSpec {
                id,
                data: None,
                attributes,
            });
        }
        for link in self.edges {
            crate::budget::charge(1);
            let mut attributes = Map::new();
            let mut weight = DEFAULT_WEIGHT;
            let (source, target) = if ours {
                (
                    ids.get(&link.source).cloned().unwrap_or(link.source),
                    ids.get(&link.target).cloned().unwrap_or(link.target),
                )
            } else {
                (link.source, link.target)
            };
            if let Some(text) = &link.text {
                if ours {
                    let (relation, w) = our_edge_label(text);
                    weight = w;
                    if let Some(relation) = relation {
                        attributes.insert(super::plans::RELATION.into(), Value::String(relation));
                    }
                } else {
                    let shown = shown_text(text);
                    if !shown.is_empty() {
                        attributes.insert(super::plans::RELATION.into(), Value::String(shown));
                    }
                }
            }
            graph.edges.push(EdgeSpec {
                source,
                target,
                weight,
                attributes,
            });
        }
        Ok(graph)
    }
}

/// A label as Mermaid stores it: trimmed, one pair of surrounding quotes
/// removed, entity codes decoded.
fn shown_text(text: &str) -> String {
    let trimmed = text.trim_matches(prep::js_space);
    let unquoted = if trimmed.len() >= 2 && trimmed.starts_with('"') && trimmed.ends_with('"') {
        &trimmed[1..trimmed.len() - 1]
    } else {
        trimmed
    };
    prep::decode(unquoted)
}

/// An edge label our export wrote: `relation (weight)`, `weight` or `relation`
/// (the export writes `(` in a relation as `#40;` and a relation that reads as a
/// number with its first character as an entity code, so the forms differ).
fn our_edge_label(raw: &str) -> (Option<String>, f64) {
    if let Some(open) = raw.rfind(" (")
        && let Some(number) = raw[open + 2..].strip_suffix(')')
        && let Some(weight) = our_weight(number)
    {
        return (Some(prep::decode(&raw[..open])), weight);
    }
    if let Some(weight) = our_weight(raw) {
        return (None, weight);
    }
    (Some(prep::decode(raw)), DEFAULT_WEIGHT)
}

fn our_weight(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|w| w.is_finite())
}

/// The `key: value` pairs of a node's `@{…}`, read as Mermaid reads them:
/// YAML, a flow mapping (`{ shape: rect, label: "…" }`) when the text is one
/// line, a block mapping when it has line ends. Values are unquoted, `#`
/// comments dropped, a key without a value kept with an empty one. What YAML
/// refuses in these (two entries without a comma, a plain value holding `: `,
/// `{`, `[` or an indicator such as `*` at its start, lines out of indentation)
/// is an error here too.
fn shape_fields(data: &str) -> std::result::Result<Vec<(String, String)>, String> {
    let entries = if data.contains('\n') {
        yaml_block(data)?
    } else {
        yaml_flow(data)?
    };
    Ok(entries
        .into_iter()
        .map(|(k, v)| (k, v.replace("<br/>", "\n")))
        .collect())
}

fn yaml_error(piece: &str, what: &str) -> String {
    format!(
        "YAML that Mermaid refuses at '{}': {what}",
        crate::error::clip(piece.trim(), 40)
    )
}

/// Drops a `#` comment (a `#` at the start or after white space, outside quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' && prep::js_space(previous) => return &line[..i],
            None => {}
        }
        previous = c;
    }
    line
}

/// One `key: value` entry: the key ends at the first `:` followed by white
/// space or the end (YAML's mapping indicator).
fn yaml_entry(piece: &str, flow: bool) -> std::result::Result<(String, String), String> {
    let piece = piece.trim_matches(prep::js_space);
    let bytes = piece.as_bytes();
    let split = (0..bytes.len())
        .find(|&i| bytes[i] == b':' && bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace()));
    let (key, value) = match split {
        Some(i) => (&piece[..i], &piece[i + 1..]),
        None => (piece, ""),
    };
    let key = key.trim_matches(prep::js_space);
    let key = scalar(key, flow).map_err(|what| yaml_error(piece, what))?;
    let value =
        scalar(value.trim_matches(prep::js_space), flow).map_err(|what| yaml_error(piece, what))?;
    if value.1 && value.0.contains(": ") {
        return Err(yaml_error(
            piece,
            "a mapping value is not allowed here (a missing comma?)",
        ));
    }
    Ok((key.0, value.0))
}

/// A YAML scalar: quoted (the text between the quotes; nothing may follow) or
/// plain (checked for what YAML refuses). The flag says it was plain.
fn scalar(text: &str, flow: bool) -> std::result::Result<(String, bool), &'static str> {
    match text.chars().next() {
        None => Ok((String::new(), true)),
        Some(q @ ('"' | '\'')) => {
            let inner = &text[1..];
            let Some(close) = inner.find(q) else {
                return Err("an unclosed quote");
            };
            if !inner[close + 1..].trim().is_empty() {
                return Err("text after a quoted value (a missing comma?)");
            }
            Ok((inner[..close].to_string(), false))
        }
        Some('-') if text[1..].starts_with([' ', '\t']) || text.len() == 1 => {
            Err("a `- ` entry is a list item, not a `key: value`")
        }
        Some('*' | '&' | '!' | '|' | '>' | '%' | '@' | '`') => {
            Err("a value may not start with * & ! | > % @ or a backtick unquoted; quote it")
        }
        Some(_) if flow && text.contains(['{', '}', '[', ']']) => {
            Err("braces and brackets must be quoted (a missing comma?)")
        }
        Some(_) => Ok((text.to_string(), true)),
    }
}

/// `{ key: value, … }` on one line.
fn yaml_flow(data: &str) -> std::result::Result<Vec<(String, String)>, String> {
    let data = strip_comment(data);
    let mut pieces = Vec::new();
    let mut piece = String::new();
    let mut quote: Option<char> = None;
    // A quote opens a quoted scalar only where a scalar starts.
    let mut scalar_start = true;
    let mut previous = ' ';
    for c in data.chars() {
        match quote {
            Some(q) if c == q => {
                quote = None;
                piece.push(c);
            }
            Some(_) => piece.push(c),
            None if (c == '"' || c == '\'') && scalar_start => {
                quote = Some(c);
                piece.push(c);
            }
            None if c == ',' => {
                pieces.push(std::mem::take(&mut piece));
                scalar_start = true;
                previous = c;
                continue;
            }
            None => piece.push(c),
        }
        if quote.is_none() && !prep::js_space(c) {
            scalar_start = false;
        }
        if quote.is_none() && prep::js_space(c) && previous == ':' {
            scalar_start = true;
        }
        previous = c;
    }
    if quote.is_some() {
        return Err(yaml_error(&piece, "an unclosed quote"));
    }
    pieces.push(piece);
    pieces
        .iter()
        .filter(|p| !p.trim().is_empty())
        .map(|p| yaml_entry(p, true))
        .collect()
}

/// A block mapping: one `key: value` a line, all at one indentation (a more
/// indented line continues the value before it).
fn yaml_block(data: &str) -> std::result::Result<Vec<(String, String)>, String> {
    let mut entries: Vec<(String, String)> = Vec::new();
    let mut indent: Option<usize> = None;
    // Without any `key:` the document is one (multi-line) plain scalar.
    let mapping = data.split('\n').any(|line| {
        let line = strip_comment(line);
        line.contains(": ") || line.trim_end().ends_with(':')
    });
    if !mapping {
        return Ok(entries);
    }
    for line in data.split('\n') {
        let line = strip_comment(line);
        if line.trim().is_empty() {
            continue;
        }
        let here = line.len() - line.trim_start_matches([' ', '\t']).len();
        match indent {
            None => indent = Some(here),
            Some(first) if here > first => {
                if let Some(last) = entries.last_mut() {
                    last.1.push(' ');
                    last.1.push_str(line.trim());
                    continue;
                }
            }
            Some(first) if here < first => {
                return Err(yaml_error(
                    line,
                    "a line less indented than the first entry",
                ));
            }
            Some(_) => {}
        }
        if !line.contains(':') {
            return Err(yaml_error(line, "a line that is no `key: value`"));
        }
        entries.push(yaml_entry(line, false)?);
    }
    Ok(entries)
}

/// Checks front matter as Mermaid's YAML reading would (a block mapping).
fn check_front_matter(body: &str) -> std::result::Result<(), String> {
    yaml_block(body).map(|_| ())
}
