//! Mermaid's flowchart lexer (`flow.jison`, `%lex` section, as Jison compiles it
//! into the `mermaid` package: a word-ending literal gets `\b`, `=(?!=)` becomes
//! `=(?!)`, white space is one token), rule for rule: the same start conditions,
//! the same rules in the same order, and the first rule that matches wins, as in
//! Jison without `flex`. Rules that use look-around
//! are written out by hand. Every rule that scans ahead over text it may not
//! consume (leading white space of the arrow rules, `.*direction`, an edge id's
//! `[^\s"]+@`) reads a table built once, so lexing stays linear.

use super::prep::js_space;

/// A token kind: the grammar's terminal names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    AccTitle,
    AccTitleValue,
    AccDescr,
    AccDescrValue,
    AccDescrMultilineValue,
    ShapeData,
    CallbackName,
    CallbackArgs,
    MdStr,
    Str,
    Style,
    Default,
    LinkStyle,
    Interpolate,
    ClassDef,
    Class,
    Href,
    Click,
    Graph,
    Subgraph,
    End,
    LinkTarget,
    NoDir,
    Dir,
    Direction,
    LinkId,
    Num,
    Brkt,
    StyleSeparator,
    Colon,
    Amp,
    Semi,
    Comma,
    Mult,
    Link,
    StartLink,
    EdgeText,
    EllipseStart,
    EllipseEnd,
    Text,
    StadiumStart,
    StadiumEnd,
    SubroutineStart,
    SubroutineEnd,
    VertexWithPropsStart,
    TagEnd,
    TagStart,
    CylinderStart,
    CylinderEnd,
    DoubleCircleStart,
    DoubleCircleEnd,
    TrapStart,
    TrapEnd,
    InvTrapStart,
    InvTrapEnd,
    Up,
    Sep,
    Down,
    NodeString,
    Minus,
    UnicodeText,
    Pipe,
    Ps,
    Pe,
    Sqs,
    Sqe,
    DiamondStart,
    DiamondStop,
    Newline,
    Space,
    /// The end of the text in the INITIAL state (the grammar's `EOF`, which
    /// may end a statement).
    Eof,
    /// The end of the text in any other state (Jison's `$end` without an `EOF`
    /// first, so no statement can end there).
    Stop,
}

impl Kind {
    /// How an error message names the token.
    pub(super) fn describe(self) -> &'static str {
        use Kind::*;
        match self {
            Eof | Stop => "the end of the document",
            Newline => "a line end",
            Space => "a space",
            Semi => "';'",
            Link | StartLink => "an arrow",
            End => "'end'",
            Subgraph => "'subgraph'",
            Graph => "'graph'/'flowchart'",
            Pipe => "'|'",
            Amp => "'&'",
            Sqe => "']'",
            Pe => "')'",
            DiamondStop => "'}'",
            Sqs | Ps | DiamondStart | StadiumStart | SubroutineStart | CylinderStart
            | DoubleCircleStart | TrapStart | InvTrapStart | EllipseStart | TagEnd
            | VertexWithPropsStart => "the start of a node shape",
            Style | Default | LinkStyle | Interpolate | ClassDef | Class | Href | LinkTarget => {
                "a keyword"
            }
            ShapeData => "'@{'",
            Str | MdStr => "a quoted string",
            _ => "text",
        }
    }
}

/// A token: its kind and its byte range in the prepared text.
#[derive(Debug, Clone, Copy)]
pub(super) struct Token {
    pub(super) kind: Kind,
    pub(super) start: usize,
    pub(super) end: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Initial,
    Str,
    MdStr,
    AccTitle,
    AccDescr,
    AccDescrMultiline,
    Dir,
    Text,
    EllipseText,
    TrapText,
    EdgeText,
    ThickEdgeText,
    DottedEdgeText,
    Click,
    CallbackName,
    CallbackArgs,
    ShapeData,
    ShapeDataStr,
}

/// A lexical error: no rule matches at this offset.
pub(super) struct LexError {
    pub(super) at: usize,
}

/// The lexer over a prepared text.
pub(super) struct Lexer<'a> {
    s: &'a str,
    b: &'a [u8],
    pos: usize,
    stack: Vec<State>,
    /// Where each state above INITIAL was entered.
    opened: Vec<usize>,
    first_graph: bool,
    /// The end of the text was reached once.
    done: bool,
    /// For `.*direction\s+XX`: per line (split at `\n`, `\r`, U+2028, U+2029),
    /// the last start of `direction\s+XX` for each of TB BT RL LR TD.
    dir_lines: Vec<(usize, usize, [Option<usize>; 5])>,
    /// For `[^\s"\[\](){}|]+@(?=[^{"])`: runs of such characters holding a usable `@`:
    /// (start, end, offset of the last usable `@`).
    at_runs: Vec<(usize, usize, usize)>,
    /// The end of the white-space run that starts at or covers `ws_from`.
    ws_cache: (usize, usize),
}

const DIRS: [&str; 5] = ["TB", "BT", "RL", "LR", "TD"];

fn is_dot_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

impl<'a> Lexer<'a> {
    pub(super) fn new(s: &'a str) -> Self {
        let mut lexer = Lexer {
            s,
            b: s.as_bytes(),
            pos: 0,
            stack: vec![State::Initial],
            opened: Vec::new(),
            first_graph: true,
            done: false,
            dir_lines: Vec::new(),
            at_runs: Vec::new(),
            ws_cache: (usize::MAX, 0),
        };
        lexer.index_directions();
        lexer.index_link_ids();
        lexer
    }

    fn index_directions(&mut self) {
        let s = self.s;
        let mut line_start = 0;
        let mut lines = Vec::new();
        for (i, c) in s.char_indices().chain(std::iter::once((s.len(), '\n'))) {
            if is_dot_break(c) {
                let mut last = [None; 5];
                let mut from = line_start;
                while let Some(found) = s[from..i].find("direction") {
                    let d = from + found;
                    let after = d + "direction".len();
                    let ws = self.ws_len(after);
                    if ws > 0 {
                        for (k, dir) in DIRS.iter().enumerate() {
                            if s[after + ws..].starts_with(dir) {
                                last[k] = Some(d);
                            }
                        }
                    }
                    from = d + 1;
                }
                if last.iter().any(Option::is_some) {
                    lines.push((line_start, i, last));
                }
                line_start = i + c.len_utf8();
            }
        }
        self.dir_lines = lines;
    }

    fn index_link_ids(&mut self) {
        let s = self.s;
        let mut runs = Vec::new();
        let mut run_start: Option<usize> = None;
        let mut last_at: Option<usize> = None;
        for (i, c) in s.char_indices().chain(std::iter::once((s.len(), ' '))) {
            if js_space(c) || matches!(c, '"' | '[' | ']' | '(' | ')' | '{' | '}' | '|') {
                if let (Some(start), Some(at)) = (run_start, last_at) {
                    runs.push((start, i, at));
                }
                run_start = None;
                last_at = None;
                continue;
            }
            if run_start.is_none() {
                run_start = Some(i);
            }
            if c == '@'
                && let Some(start) = run_start
                && i > start
            {
                match s[i + 1..].chars().next() {
                    Some(next) if next != '{' && next != '"' => last_at = Some(i),
                    _ => {}
                }
            }
        }
        self.at_runs = runs;
    }

    /// The length of the white space (JS `\s`) starting at `at`.
    fn ws_len(&mut self, at: usize) -> usize {
        let (from, end) = self.ws_cache;
        if from <= at && at <= end && from != usize::MAX {
            return end - at;
        }
        let rest = &self.s[at.min(self.s.len())..];
        let len = rest
            .char_indices()
            .find(|&(_, c)| !js_space(c))
            .map_or(rest.len(), |(i, _)| i);
        self.ws_cache = (at, at + len);
        len
    }

    fn state(&self) -> State {
        *self.stack.last().unwrap_or(&State::Initial)
    }

    fn push(&mut self, state: State) {
        self.stack.push(state);
        self.opened.push(self.pos);
    }

    fn pop(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
            self.opened.pop();
        }
    }

    /// Where the innermost quote, bracket or link text still open started.
    pub(super) fn open_at(&self) -> Option<usize> {
        self.opened.last().copied()
    }

    fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }

    fn byte(&self, at: usize) -> Option<u8> {
        self.b.get(at).copied()
    }

    /// The next token, skipping rules that make none.
    pub(super) fn next_token(&mut self) -> Result<Token, LexError> {
        // Every rule that makes no token consumes input or changes state; a
        // rule that matches nothing twice in the same state is a dead end.
        let mut idle = 0;
        loop {
            let start = self.pos;
            let depth = self.stack.len();
            if let Some(kind) = self.rule()? {
                return Ok(Token {
                    kind,
                    start,
                    end: self.pos,
                });
            }
            if self.pos == start && self.stack.len() == depth {
                idle += 1;
                if idle > 2 {
                    return Err(LexError { at: start });
                }
            } else {
                idle = 0;
            }
        }
    }

    /// Tries the rules of the current state in order; `Ok(None)` for a rule that
    /// makes no token.
    fn rule(&mut self) -> Result<Option<Kind>, LexError> {
        use State as S;
        let state = self.state();
        let p = self.pos;
        if p >= self.s.len() {
            // Jison still tries the rules once at the end: those that match
            // the empty text make one more (empty) token.
            if self.done {
                return Ok(Some(Kind::Stop));
            }
            self.done = true;
            let kind = match state {
                S::Initial => Kind::Eof,
                S::AccTitle => Kind::AccTitleValue,
                S::AccDescr => Kind::AccDescrValue,
                S::AccDescrMultiline => Kind::AccDescrMultilineValue,
                S::CallbackName => Kind::CallbackName,
                S::CallbackArgs => Kind::CallbackArgs,
                S::Click => Kind::Click,
                _ => Kind::Stop,
            };
            if matches!(state, S::AccTitle | S::AccDescr) {
                self.pop();
            }
            return Ok(Some(kind));
        }
        let rest = self.rest();
        let c = rest.chars().next().unwrap_or('\0');
        macro_rules! take {
            ($n:expr, $kind:expr) => {{
                self.pos += $n;
                return Ok($kind);
            }};
        }
        match state {
            S::AccTitle | S::AccDescr => {
                let n = rest.find('\n').unwrap_or(rest.len());
                self.pop();
                let kind = if state == S::AccTitle {
                    Kind::AccTitleValue
                } else {
                    Kind::AccDescrValue
                };
                take!(n, Some(kind));
            }
            S::AccDescrMultiline => {
                if c == '}' {
                    self.pop();
                    take!(1, None);
                }
                let n = rest.find('}').unwrap_or(rest.len());
                take!(n, Some(Kind::AccDescrMultilineValue));
            }
            S::ShapeData => {
                if c == '"' {
                    self.push(S::ShapeDataStr);
                    take!(1, Some(Kind::ShapeData));
                }
                let n = rest.find(['}', '^', '"']).unwrap_or(rest.len());
                if n > 0 {
                    take!(n, Some(Kind::ShapeData));
                }
                if c == '}' {
                    self.pop();
                    take!(1, None);
                }
            }
            S::ShapeDataStr => {
                if c == '"' {
                    self.pop();
                    take!(1, Some(Kind::ShapeData));
                }
                let n = rest.find('"').unwrap_or(rest.len());
                take!(n, Some(Kind::ShapeData));
            }
            S::CallbackName => {
                if c == '(' {
                    let ws = self.ws_len(p + 1);
                    if self.byte(p + 1 + ws) == Some(b')') {
                        self.pop();
                        take!(1 + ws + 1, None);
                    }
                    self.pop();
                    self.push(S::CallbackArgs);
                    take!(1, None);
                }
                let n = rest.find('(').unwrap_or(rest.len());
                take!(n, Some(Kind::CallbackName));
            }
            S::CallbackArgs => {
                if c == ')' {
                    self.pop();
                    take!(1, None);
                }
                let n = rest.find(')').unwrap_or(rest.len());
                take!(n, Some(Kind::CallbackArgs));
            }
            S::Click => {
                if c == '"' {
                    if rest[1..].starts_with('`') {
                        self.push(S::MdStr);
                        take!(2, None);
                    }
                    self.push(S::Str);
                    take!(1, None);
                }
                if js_space(c) {
                    self.pop();
                    take!(c.len_utf8(), None);
                }
                let n = rest
                    .char_indices()
                    .find(|&(_, c)| js_space(c))
                    .map_or(rest.len(), |(i, _)| i);
                take!(n, Some(Kind::Click));
            }
            S::MdStr => {
                // <md_string>[^`"]+ , <md_string>[`]["], then the <*> rules.
                let n = rest.find(['`', '"']).unwrap_or(rest.len());
                if n > 0 {
                    take!(n, Some(Kind::MdStr));
                }
                if rest.starts_with("`\"") {
                    self.pop();
                    take!(2, None);
                }
            }
            S::Str => {
                if rest.starts_with("\"`") {
                    self.push(S::MdStr);
                    take!(2, None);
                }
                let n = rest.find('"').unwrap_or(rest.len());
                if n > 0 {
                    take!(n, Some(Kind::Str));
                }
                self.pop();
                take!(1, None);
            }
            _ => {}
        }
        self.general(state, rest, c)
    }

    /// The rules shared between INITIAL and the text-like states, in file order.
    fn general(&mut self, state: State, rest: &'a str, c: char) -> Result<Option<Kind>, LexError> {
        use State as S;
        let p = self.pos;
        let initial = state == S::Initial;
        macro_rules! take {
            ($n:expr, $kind:expr) => {{
                self.pos += $n;
                return Ok($kind);
            }};
        }
        if initial {
            if let Some(n) = acc(rest, "accTitle", ':') {
                self.push(S::AccTitle);
                take!(n, Some(Kind::AccTitle));
            }
            if let Some(n) = acc(rest, "accDescr", ':') {
                self.push(S::AccDescr);
                take!(n, Some(Kind::AccDescr));
            }
            if let Some(n) = acc(rest, "accDescr", '{') {
                self.push(S::AccDescrMultiline);
                take!(n, None);
            }
            if rest.starts_with("@{") {
                self.push(S::ShapeData);
                take!(2, Some(Kind::ShapeData));
            }
            if rest.starts_with("call") {
                let ws = self.ws_len(p + 4);
                if ws > 0 {
                    self.push(S::CallbackName);
                    take!(4 + ws, None);
                }
            }
        }
        if state == S::Dir {
            // The <*> quote rules come first in the file.
        }
        // <*>["][`] and <*>["]
        if c == '"' {
            if rest[1..].starts_with('`') {
                self.push(S::MdStr);
                take!(2, None);
            }
            self.push(S::Str);
            take!(1, None);
        }
        if initial {
            for (word, kind) in [
                ("style", Kind::Style),
                ("default", Kind::Default),
                ("linkStyle", Kind::LinkStyle),
                ("interpolate", Kind::Interpolate),
                ("classDef", Kind::ClassDef),
                ("class", Kind::Class),
            ] {
                if keyword(rest, word) {
                    take!(word.len(), Some(kind));
                }
            }
            if rest.starts_with("href") && rest[4..].chars().next().is_some_and(js_space) {
                let n = 4 + rest[4..].chars().next().map_or(0, char::len_utf8);
                take!(n, Some(Kind::Href));
            }
            if rest.starts_with("click") {
                let ws = self.ws_len(p + 5);
                if ws > 0 {
                    self.push(S::Click);
                    take!(5 + ws, None);
                }
            }
            for word in ["flowchart-elk", "swimlane-beta", "graph", "flowchart"] {
                if keyword(rest, word) {
                    if self.first_graph {
                        self.first_graph = false;
                        self.push(S::Dir);
                    }
                    take!(word.len(), Some(Kind::Graph));
                }
            }
            if keyword(rest, "subgraph") {
                take!(8, Some(Kind::Subgraph));
            }
            if rest.starts_with("end")
                && !rest[3..]
                    .bytes()
                    .next()
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
            {
                let ws = self.ws_len(p + 3);
                take!(3 + ws, Some(Kind::End));
            }
            for word in ["_self", "_blank", "_parent", "_top"] {
                if keyword(rest, word) {
                    take!(word.len(), Some(Kind::LinkTarget));
                }
            }
        }
        if state == S::Dir {
            // <dir>(\r?\n)*\s*\n
            let ws = self.ws_len(p);
            if let Some(nl) = rest[..ws].rfind('\n') {
                self.pop();
                take!(nl + 1, Some(Kind::NoDir));
            }
            let after = &rest[ws..];
            for dir in ["LR", "RL", "TB", "BT", "TD", "BR", "<", ">", "^", "v"] {
                let bounded = dir.as_bytes()[0].is_ascii_alphabetic();
                if (bounded && keyword(after, dir)) || (!bounded && after.starts_with(dir)) {
                    self.pop();
                    take!(ws + dir.len(), Some(Kind::Dir));
                }
            }
        }
        if initial {
            // .*direction\s+XX[^\n]*
            if let Some(n) = self.direction_at(p) {
                take!(n, Some(Kind::Direction));
            }
            // [^\s\"]+\@(?=[^\{\"])
            if let Some(n) = self.link_id_at(p) {
                take!(n, Some(Kind::LinkId));
            }
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 {
                take!(digits, Some(Kind::Num));
            }
            if c == '#' {
                take!(1, Some(Kind::Brkt));
            }
            if rest.starts_with(":::") {
                take!(3, Some(Kind::StyleSeparator));
            }
            match c {
                ':' => take!(1, Some(Kind::Colon)),
                '&' => take!(1, Some(Kind::Amp)),
                ';' => take!(1, Some(Kind::Semi)),
                ',' => take!(1, Some(Kind::Comma)),
                '*' => take!(1, Some(Kind::Mult)),
                _ => {}
            }
        }
        // The arrows, each with its edge-text state.
        let edge_state = matches!(state, S::EdgeText | S::ThickEdgeText | S::DottedEdgeText);
        if (initial || state == S::EdgeText)
            && let Some(n) = self.arrow(p, b'-', false)
        {
            self.pop();
            take!(n, Some(Kind::Link));
        }
        if (initial) && let Some(n) = self.arrow(p, b'-', true) {
            self.push(S::EdgeText);
            take!(n, Some(Kind::StartLink));
        }
        if state == S::EdgeText {
            // [^-]|\-(?!\-)+
            if c != '-' || self.byte(p + 1) != Some(b'-') {
                take!(c.len_utf8(), Some(Kind::EdgeText));
            }
        }
        if (initial || state == S::ThickEdgeText)
            && let Some(n) = self.arrow(p, b'=', false)
        {
            self.pop();
            take!(n, Some(Kind::Link));
        }
        if (initial) && let Some(n) = self.arrow(p, b'=', true) {
            self.push(S::ThickEdgeText);
            take!(n, Some(Kind::StartLink));
        }
        // [^=]|=(?!) : an `=` is never edge text.
        if state == S::ThickEdgeText && c != '=' {
            take!(c.len_utf8(), Some(Kind::EdgeText));
        }
        if (initial || state == S::DottedEdgeText)
            && let Some(n) = self.dotted(p)
        {
            self.pop();
            take!(n, Some(Kind::Link));
        }
        if (initial) && let Some(n) = self.dotted_start(p) {
            self.push(S::DottedEdgeText);
            take!(n, Some(Kind::StartLink));
        }
        // [^\.]|\.(?!) : a `.` is never edge text.
        if state == S::DottedEdgeText && c != '.' {
            take!(c.len_utf8(), Some(Kind::EdgeText));
        }
        let _ = edge_state;
        // <*>\s*\~\~[\~]+\s*
        {
            let ws = self.ws_len(p);
            let tildes = rest[ws..].bytes().take_while(|&b| b == b'~').count();
            if tildes >= 3 {
                let after = self.ws_len(p + ws + tildes);
                take!(ws + tildes + after, Some(Kind::Link));
            }
        }
        if state == S::EllipseText {
            if matches!(c, '-' | '/' | ')') && self.byte(p + 1) == Some(b')') {
                self.pop();
                take!(2, Some(Kind::EllipseEnd));
            }
            if !matches!(c, '(' | ')' | '[' | ']' | '{' | '}') {
                take!(c.len_utf8(), Some(Kind::Text));
            }
        }
        if rest.starts_with("(-") {
            self.push(S::EllipseText);
            take!(2, Some(Kind::EllipseStart));
        }
        if state == S::Text && rest.starts_with("])") {
            self.pop();
            take!(2, Some(Kind::StadiumEnd));
        }
        if rest.starts_with("([") {
            self.push(S::Text);
            take!(2, Some(Kind::StadiumStart));
        }
        if state == S::Text && rest.starts_with("]]") {
            self.pop();
            take!(2, Some(Kind::SubroutineEnd));
        }
        if rest.starts_with("[[") {
            self.push(S::Text);
            take!(2, Some(Kind::SubroutineStart));
        }
        if initial && rest.starts_with("[|") {
            take!(2, Some(Kind::VertexWithPropsStart));
        }
        if initial && c == '>' {
            self.push(S::Text);
            take!(1, Some(Kind::TagEnd));
        }
        if state == S::Text && rest.starts_with(")]") {
            self.pop();
            take!(2, Some(Kind::CylinderEnd));
        }
        if rest.starts_with("[(") {
            self.push(S::Text);
            take!(2, Some(Kind::CylinderStart));
        }
        if state == S::Text && rest.starts_with(")))") {
            self.pop();
            take!(3, Some(Kind::DoubleCircleEnd));
        }
        if rest.starts_with("(((") {
            self.push(S::Text);
            take!(3, Some(Kind::DoubleCircleStart));
        }
        if state == S::TrapText {
            // [\\(?=\])][\]]
            if matches!(c, '\\' | '(' | '?' | '=' | ']' | ')') && self.byte(p + 1) == Some(b']') {
                self.pop();
                take!(2, Some(Kind::TrapEnd));
            }
            if rest.starts_with("/]") {
                self.pop();
                take!(2, Some(Kind::InvTrapEnd));
            }
            // \/(?!\])|\\(?!\])|[^\\\[\]\(\)\{\}\/]+
            if (c == '/' || c == '\\') && self.byte(p + 1) != Some(b']') {
                take!(1, Some(Kind::Text));
            }
            let n = rest
                .find(['\\', '[', ']', '(', ')', '{', '}', '/'])
                .unwrap_or(rest.len());
            if n > 0 {
                take!(n, Some(Kind::Text));
            }
        }
        if rest.starts_with("[/") {
            self.push(S::TrapText);
            take!(2, Some(Kind::TrapStart));
        }
        if rest.starts_with("[\\") {
            self.push(S::TrapText);
            take!(2, Some(Kind::InvTrapStart));
        }
        if initial {
            match c {
                '<' => take!(1, Some(Kind::TagStart)),
                '^' => take!(1, Some(Kind::Up)),
                _ => {}
            }
            if rest.starts_with("\\|") {
                take!(2, Some(Kind::Sep));
            }
            if keyword(rest, "v") {
                take!(1, Some(Kind::Down));
            }
            match c {
                '*' => take!(1, Some(Kind::Mult)),
                '#' => take!(1, Some(Kind::Brkt)),
                '&' => take!(1, Some(Kind::Amp)),
                _ => {}
            }
            let n = self.node_string(p);
            if n > 0 {
                take!(n, Some(Kind::NodeString));
            }
            if c == '-' {
                take!(1, Some(Kind::Minus));
            }
            if is_unicode_text(c) {
                take!(c.len_utf8(), Some(Kind::UnicodeText));
            }
        }
        if state == S::Text && c == '|' {
            self.pop();
            take!(1, Some(Kind::Pipe));
        }
        if c == '|' {
            self.push(S::Text);
            take!(1, Some(Kind::Pipe));
        }
        if state == S::Text && c == ')' {
            self.pop();
            take!(1, Some(Kind::Pe));
        }
        if c == '(' {
            self.push(S::Text);
            take!(1, Some(Kind::Ps));
        }
        if state == S::Text && c == ']' {
            self.pop();
            take!(1, Some(Kind::Sqe));
        }
        if c == '[' {
            self.push(S::Text);
            take!(1, Some(Kind::Sqs));
        }
        if state == S::Text && c == '}' {
            self.pop();
            take!(1, Some(Kind::DiamondStop));
        }
        if c == '{' {
            self.push(S::Text);
            take!(1, Some(Kind::DiamondStart));
        }
        if state == S::Text {
            let n = rest
                .find(['[', ']', '(', ')', '{', '}', '|', '"'])
                .unwrap_or(rest.len());
            if n > 0 {
                take!(n, Some(Kind::Text));
            }
        }
        if initial {
            if c == '\n' {
                let n = rest.bytes().take_while(|&b| b == b'\n').count();
                take!(n, Some(Kind::Newline));
            }
            // [^\S\n\r]+
            let n = rest
                .char_indices()
                .find(|&(_, c)| !js_space(c) || c == '\n' || c == '\r')
                .map_or(rest.len(), |(i, _)| i);
            if n > 0 {
                take!(n, Some(Kind::Space));
            }
        }
        Err(LexError { at: p })
    }

    /// `.*direction\s+XX[^\n]*` at `at`: the token's length.
    fn direction_at(&mut self, at: usize) -> Option<usize> {
        let i = self.dir_lines.partition_point(|&(start, _, _)| start <= at);
        let &(start, end, last) = self.dir_lines.get(i.checked_sub(1)?)?;
        if at < start || at > end {
            return None;
        }
        for (k, dir) in DIRS.iter().enumerate() {
            if let Some(d) = last[k]
                && d >= at
            {
                let after = d + "direction".len();
                let ws = self.ws_len(after);
                let dir_end = after + ws + dir.len();
                let line_end = self.s[dir_end..]
                    .find('\n')
                    .map_or(self.s.len(), |n| dir_end + n);
                return Some(line_end - at);
            }
        }
        None
    }

    /// `[^\s\"]+\@(?=[^\{\"])` at `at`: the token's length.
    fn link_id_at(&self, at: usize) -> Option<usize> {
        let i = self.at_runs.partition_point(|&(start, _, _)| start <= at);
        let &(start, end, last) = self.at_runs.get(i.checked_sub(1)?)?;
        (at >= start && at < end && last > at).then(|| last + 1 - at)
    }

    /// `\s*[xo<]?LL+[LXo>]\s*` (an arrow of `-` or `=`), or with `start`
    /// `\s*[xo<]?LL\s*` (the start of an arrow with text).
    fn arrow(&mut self, at: usize, line: u8, start: bool) -> Option<usize> {
        let ws = self.ws_len(at);
        let mut i = at + ws;
        if matches!(self.byte(i), Some(b'x' | b'o' | b'<')) && self.byte(i + 1) == Some(line) {
            i += 1;
        }
        let run = self.b[i.min(self.b.len())..]
            .iter()
            .take_while(|&&b| b == line)
            .count();
        if run < 2 {
            return None;
        }
        let end = if start {
            i + 2
        } else {
            let next = self.byte(i + run);
            if matches!(next, Some(b'x' | b'o' | b'>')) || next == Some(line) {
                i + run + 1
            } else if run >= 3 {
                i + run
            } else {
                return None;
            }
        };
        let after = self.ws_len(end);
        Some(end + after - at)
    }

    /// `\s*[xo<]?\-?\.+\-[xo>]?\s*`.
    fn dotted(&mut self, at: usize) -> Option<usize> {
        let ws = self.ws_len(at);
        let mut i = at + ws;
        if matches!(self.byte(i), Some(b'x' | b'o' | b'<'))
            && matches!(self.byte(i + 1), Some(b'-' | b'.'))
        {
            i += 1;
        }
        if self.byte(i) == Some(b'-') && self.byte(i + 1) == Some(b'.') {
            i += 1;
        }
        let dots = self.b[i.min(self.b.len())..]
            .iter()
            .take_while(|&&b| b == b'.')
            .count();
        if dots == 0 || self.byte(i + dots) != Some(b'-') {
            return None;
        }
        let mut end = i + dots + 1;
        if matches!(self.byte(end), Some(b'x' | b'o' | b'>')) {
            end += 1;
        }
        let after = self.ws_len(end);
        Some(end + after - at)
    }

    /// `\s*[xo<]?\-\.\s*`.
    fn dotted_start(&mut self, at: usize) -> Option<usize> {
        let ws = self.ws_len(at);
        let mut i = at + ws;
        if matches!(self.byte(i), Some(b'x' | b'o' | b'<')) && self.byte(i + 1) == Some(b'-') {
            i += 1;
        }
        if self.byte(i) == Some(b'-') && self.byte(i + 1) == Some(b'.') {
            let end = i + 2;
            let after = self.ws_len(end);
            return Some(end + after - at);
        }
        None
    }

    /// `([A-Za-z0-9!"\#$%&'*+\.`?\\_\/]|-(?=[^\>\-\.])|(?!))+` at `at` (as
    /// compiled: the `=` alternative of the source never matches).
    fn node_string(&self, at: usize) -> usize {
        let b = self.b;
        let mut i = at;
        while i < b.len() {
            let c = b[i];
            let ok = c.is_ascii_alphanumeric()
                || matches!(
                    c,
                    b'!' | b'"'
                        | b'#'
                        | b'$'
                        | b'%'
                        | b'&'
                        | b'\''
                        | b'*'
                        | b'+'
                        | b'.'
                        | b'`'
                        | b'?'
                        | b'\\'
                        | b'_'
                        | b'/'
                )
                || (c == b'-'
                    && matches!(b.get(i + 1), Some(n) if !matches!(n, b'>' | b'-' | b'.')));
            if !ok {
                break;
            }
            i += 1;
        }
        i - at
    }
}

/// JavaScript's `\w`.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `word\b` at the start of `rest`: Jison adds `\b` to a literal that ends in a
/// word character.
fn keyword(rest: &str, word: &str) -> bool {
    rest.starts_with(word)
        && !rest
            .as_bytes()
            .get(word.len())
            .copied()
            .is_some_and(is_word)
}

/// `accTitle\s*":"\s*` and its kin: the match length.
fn acc(rest: &str, word: &str, mark: char) -> Option<usize> {
    let after = rest.strip_prefix(word)?;
    let ws = after.len() - after.trim_start_matches(js_space).len();
    let tail = after[ws..].strip_prefix(mark)?;
    let ws2 = tail.len() - tail.trim_start_matches(js_space).len();
    Some(word.len() + ws + mark.len_utf8() + ws2)
}

/// The UNICODE_TEXT rule: the letters of the Basic Multilingual Plane that the
/// grammar lists (ranges copied from `flow.jison`).
fn is_unicode_text(c: char) -> bool {
    let c = c as u32;
    UNICODE_TEXT
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

include!("unicode_text.rs");
