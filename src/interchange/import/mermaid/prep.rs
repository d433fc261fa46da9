//! What Mermaid does to a document before its flowchart grammar sees it
//! (`preprocessDiagram`, `Diagram.fromText`, the flowchart parser's own
//! rewrite), done the same way, with a map from each byte of the result back
//! to the document so that errors name the document's line and column.

/// The text the grammar reads, and where its bytes came from.
pub(super) struct Prepared {
    /// The rewritten text.
    pub(super) text: String,
    /// `(offset in text, offset in the document)` at each place where the two
    /// stop moving together, ascending.
    marks: Vec<(usize, usize)>,
}

impl Prepared {
    /// The document offset of `text` offset `at`.
    pub(super) fn original(&self, at: usize) -> usize {
        let i = self.marks.partition_point(|&(t, _)| t <= at);
        match i.checked_sub(1).and_then(|i| self.marks.get(i)) {
            Some(&(t, d)) => d + (at - t),
            None => at,
        }
    }
}

/// Builds a text while recording where each piece came from.
struct Builder {
    text: String,
    marks: Vec<(usize, usize)>,
}

impl Builder {
    fn new(capacity: usize) -> Self {
        Builder {
            text: String::with_capacity(capacity),
            marks: Vec::new(),
        }
    }

    /// Copies `piece`, which starts at document offset `from`.
    fn copy(&mut self, piece: &str, from: usize) {
        self.marks.push((self.text.len(), from));
        self.text.push_str(piece);
    }

    /// Writes `piece` in place of the document bytes starting at `from`.
    fn replace(&mut self, piece: &str, from: usize) {
        self.marks.push((self.text.len(), from));
        self.text.push_str(piece);
    }
}

/// Applies `step` to `input` (with its own map) and composes the maps.
fn compose(input: &Prepared, output: Builder) -> Prepared {
    let marks = output
        .marks
        .into_iter()
        .map(|(t, mid)| (t, input.original(mid)))
        .collect();
    Prepared {
        text: output.text,
        marks,
    }
}

/// JavaScript's `\s`.
pub(super) fn js_space(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// What Mermaid does before parsing a flowchart, in its order: `\r\n` and `\r`
/// become `\n`; double-quoted attributes inside HTML tags become single-quoted;
/// a front matter block (`---` … `---`) and `%%{…}%%` directives are removed;
/// lines that are `%%` comments are removed and leading white space trimmed;
/// entity codes (`#quot;`, `#35;`) become Mermaid's placeholders (`ﬂ°quot¶ß`,
/// `ﬂ°°35¶ß`), with the final `;` of `style`/`classDef` lines holding a colour
/// kept out of that; a newline is appended; white space between `}` and a line
/// end is removed. O(size of the document).
pub(super) fn prepare(document: &str) -> Prepared {
    let mut p = Prepared {
        text: document.to_string(),
        marks: vec![(0, 0)],
    };
    p = step(&p, line_ends);
    p = step(&p, tag_quotes);
    p = step(&p, strip_front_matter);
    p = step(&p, directives);
    p = step(&p, comments);
    p = step(&p, style_semicolons);
    p = step(&p, entities);
    p.text.push('\n');
    step(&p, brace_spaces)
}

fn step(input: &Prepared, f: fn(&str, &mut Builder)) -> Prepared {
    let mut out = Builder::new(input.text.len() + 16);
    f(&input.text, &mut out);
    compose(input, out)
}

/// `\r\n` and `\r` → `\n`.
fn line_ends(text: &str, out: &mut Builder) {
    let mut at = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\r' {
            out.copy(&text[at..i], at);
            out.replace("\n", i);
            i += if bytes.get(i + 1) == Some(&b'\n') {
                2
            } else {
                1
            };
            at = i;
        } else {
            i += 1;
        }
    }
    out.copy(&text[at..], at);
}

/// `<(\w+)([^>]*)>`: inside, `="x"` → `='x'` (same length: only quotes change).
fn tag_quotes(text: &str, out: &mut Builder) {
    let bytes = text.as_bytes();
    let mut owned: Option<Vec<u8>> = None;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'<' {
            let mut j = i + 1;
            while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
                j += 1;
            }
            if j > i + 1 {
                let mut k = j;
                while k < bytes.len() && bytes[k] != b'>' {
                    k += 1;
                }
                if k < bytes.len() {
                    // Attributes between j and k: ="[^"]*" → ='…'.
                    let mut a = j;
                    while a + 1 < k {
                        if bytes[a] == b'='
                            && bytes[a + 1] == b'"'
                            && let Some(close) = bytes[a + 2..k].iter().position(|&b| b == b'"')
                        {
                            let buf = owned.get_or_insert_with(|| bytes.to_vec());
                            buf[a + 1] = b'\'';
                            buf[a + 2 + close] = b'\'';
                            a = a + 3 + close;
                            continue;
                        }
                        a += 1;
                    }
                    i = k + 1;
                    continue;
                }
            }
        }
        i += 1;
    }
    match owned.and_then(|b| String::from_utf8(b).ok()) {
        Some(changed) => out.copy(&changed, 0),
        None => out.copy(text, 0),
    }
}

/// `^-{3}\s*[\n\r](.*?)[\n\r]-{3}\s*[\n\r]+` at the very start: removed.
fn strip_front_matter(text: &str, out: &mut Builder) {
    if let Some((_, end)) = front_matter(text) {
        out.copy(&text[end..], end);
    } else {
        out.copy(text, 0);
    }
}

/// The front matter at the start of `text`: its body's byte range, and where
/// the text after it starts.
pub(super) fn front_matter(text: &str) -> Option<(std::ops::Range<usize>, usize)> {
    let rest = text.strip_prefix("---")?;
    let start = 3;
    // \s*[\n\r]: white space that ends with a line end (backtracking allowed).
    let ws: usize = rest
        .char_indices()
        .find(|&(_, c)| !js_space(c))
        .map_or(rest.len(), |(i, _)| i);
    let last_nl = rest[..ws].rfind(['\n', '\r'])?;
    let body = start + last_nl + 1;
    // (.*?)[\n\r]-{3}\s*[\n\r]+ : the first line end followed by --- then white
    // space holding at least one line end.
    // The lazy body may be empty: then the closing line end is the one just read.
    let candidates = std::iter::once(body - 1).chain(
        text[body..]
            .match_indices(['\n', '\r'])
            .map(|(i, _)| body + i),
    );
    for nl in candidates {
        let after = nl + 1;
        if text[after..].starts_with("---") {
            let tail = &text[after + 3..];
            let ws: usize = tail
                .char_indices()
                .find(|&(_, c)| !js_space(c))
                .map_or(tail.len(), |(i, _)| i);
            if let Some(last) = tail[..ws].rfind(['\n', '\r']) {
                return Some((body.min(nl)..nl, after + 3 + last + 1));
            }
        }
    }
    None
}

/// `%%{ … }%%` directives, as Mermaid's pattern finds them
/// (`%{2}{\s*(?:(\w+)\s*:|(\w+))\s*(?:(\w+)|((?:(?!}%{2}).|\r?\n)*))?\s*(?:}%{2})?`):
/// removed.
fn directives(text: &str, out: &mut Builder) {
    let mut at = 0;
    let mut search = 0;
    while let Some(found) = text[search..].find("%%{") {
        let start = search + found;
        match directive_end(text, start + 3) {
            Some(end) => {
                out.copy(&text[at..start], at);
                at = end;
                search = end;
            }
            None => search = start + 1,
        }
    }
    out.copy(&text[at..], at);
}

fn directive_end(text: &str, from: usize) -> Option<usize> {
    let b = text.as_bytes();
    let spaces = |i: usize| -> usize {
        i + text[i..]
            .char_indices()
            .find(|&(_, c)| !js_space(c))
            .map_or(text.len() - i, |(k, _)| k)
    };
    let word = |i: usize| -> usize {
        let mut j = i;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
            j += 1;
        }
        j
    };
    let mut i = spaces(from);
    let w = word(i);
    if w == i {
        return None;
    }
    let after = spaces(w);
    i = if b.get(after) == Some(&b':') {
        after + 1
    } else {
        w
    };
    i = spaces(i);
    let w = word(i);
    if w > i {
        i = w;
    } else {
        // (?:(?!}%%).|\r?\n)*
        loop {
            if text[i..].starts_with("}%%") || i >= text.len() {
                break;
            }
            let c = text[i..].chars().next().unwrap_or('\0');
            if matches!(c, '\u{2028}' | '\u{2029}') || (c == '\r' && b.get(i + 1) != Some(&b'\n')) {
                break;
            }
            i += c.len_utf8();
        }
    }
    i = spaces(i);
    if text[i..].starts_with("}%%") {
        i += 3;
    }
    Some(i)
}

/// `^\s*%%(?!{)[^\n]+\n?` (multiline): comment lines removed; then the text's
/// leading white space.
fn comments(text: &str, out: &mut Builder) {
    let mut kept_any = false;
    let mut at = 0;
    let mut line_start = 0;
    let emit = |out: &mut Builder, piece: &str, from: usize, kept_any: &mut bool| {
        let piece = if *kept_any {
            piece
        } else {
            let trimmed = piece.trim_start_matches(js_space);
            let from = from + (piece.len() - trimmed.len());
            if trimmed.is_empty() {
                return;
            }
            *kept_any = true;
            out.copy(trimmed, from);
            return;
        };
        out.copy(piece, from);
    };
    while line_start <= text.len() {
        let line_end = text[line_start..]
            .find('\n')
            .map_or(text.len(), |i| line_start + i);
        let line = &text[line_start..line_end];
        let body = line.trim_start_matches(js_space);
        let is_comment =
            body.starts_with("%%") && !body[2..].starts_with('{') && !body[2..].is_empty();
        if is_comment {
            emit(out, &text[at..line_start], at, &mut kept_any);
            at = (line_end + 1).min(text.len());
        }
        if line_end >= text.len() {
            break;
        }
        line_start = line_end + 1;
    }
    emit(out, &text[at..], at, &mut kept_any);
}

/// `style.*:\S*#.*;` and `classDef.*:\S*#.*;`: the matched `;` is dropped, so
/// that a colour such as `#f9f;` is not read as an entity code.
fn style_semicolons(text: &str, out: &mut Builder) {
    let mut at = 0;
    let mut line_start = 0;
    while line_start < text.len() {
        let line_end = text[line_start..]
            .find('\n')
            .map_or(text.len(), |i| line_start + i);
        let line = &text[line_start..line_end];
        let mut dropped = false;
        for keyword in ["style", "classDef"] {
            if dropped {
                break;
            }
            if let Some(semi) = style_match(line, keyword) {
                let cut = line_start + semi;
                out.copy(&text[at..cut], at);
                at = cut + 1;
                dropped = true;
            }
        }
        line_start = line_end + 1;
    }
    out.copy(&text[at.min(text.len())..], at.min(text.len()));
}

/// The offset of the `;` that `keyword.*:\S*#.*;` ends on in `line` (the last
/// `;` of the line), if the pattern matches.
fn style_match(line: &str, keyword: &str) -> Option<usize> {
    let start = line.find(keyword)?;
    let semi = line.rfind(';')?;
    if semi < start + keyword.len() {
        return None;
    }
    // A ':' after the keyword, then non-space characters up to a '#' before the ';'.
    let region = &line[start + keyword.len()..semi];
    let mut after_colon = false;
    for c in region.chars() {
        if c == '#' && after_colon {
            return Some(semi);
        }
        if c == ':' {
            after_colon = true;
        } else if js_space(c) {
            after_colon = false;
        }
    }
    None
}

/// `#\w+;` → `ﬂ°°N¶ß` (digits) or `ﬂ°name¶ß`.
fn entities(text: &str, out: &mut Builder) {
    let bytes = text.as_bytes();
    let mut at = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'#' {
            let mut j = i + 1;
            while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
                j += 1;
            }
            if j > i + 1 && bytes.get(j) == Some(&b';') {
                out.copy(&text[at..i], at);
                let inner = &text[i + 1..j];
                let numeric = inner.bytes().all(|b| b.is_ascii_digit());
                let placeholder = if numeric {
                    format!("\u{FB02}\u{B0}\u{B0}{inner}\u{B6}\u{DF}")
                } else {
                    format!("\u{FB02}\u{B0}{inner}\u{B6}\u{DF}")
                };
                out.replace(&placeholder, i);
                i = j + 1;
                at = i;
                continue;
            }
            i = j;
            continue;
        }
        i += 1;
    }
    out.copy(&text[at..], at);
}

/// `}\s*\n` → `}\n`.
fn brace_spaces(text: &str, out: &mut Builder) {
    let mut at = 0;
    let mut search = 0;
    while let Some(found) = text[search..].find('}') {
        let brace = search + found;
        let rest = &text[brace + 1..];
        let ws = rest
            .char_indices()
            .find(|&(_, c)| !js_space(c))
            .map_or(rest.len(), |(i, _)| i);
        // \s*\n with backtracking: up to the last newline in the white space.
        if let Some(nl) = rest[..ws].rfind('\n')
            && nl > 0
        {
            out.copy(&text[at..=brace], at);
            at = brace + 1 + nl;
        }
        search = brace + 1 + ws;
    }
    out.copy(&text[at..], at);
}

/// The text of Mermaid's entity placeholders, as a rendered label shows it:
/// `ﬂ°°35¶ß` → `#`, `ﬂ°quot¶ß` → `"` (HTML's named references for the common
/// names; an unknown name stays `&name;`, as a browser shows it).
pub(super) fn decode(text: &str) -> String {
    if !text.contains('\u{FB02}') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('\u{FB02}') {
        out.push_str(&rest[..i]);
        let tail = &rest[i + '\u{FB02}'.len_utf8()..];
        let (numeric, body) = match tail.strip_prefix("\u{B0}\u{B0}") {
            Some(body) => (true, body),
            None => match tail.strip_prefix('\u{B0}') {
                Some(body) => (false, body),
                None => {
                    out.push('\u{FB02}');
                    rest = tail;
                    continue;
                }
            },
        };
        let Some(end) = body.find("\u{B6}\u{DF}") else {
            out.push('\u{FB02}');
            rest = tail;
            continue;
        };
        let inner = &body[..end];
        if numeric {
            let c = inner
                .parse::<u32>()
                .ok()
                .and_then(char::from_u32)
                .filter(|&c| c != '\0')
                .unwrap_or('\u{FFFD}');
            out.push(c);
        } else {
            match named(inner) {
                Some(c) => out.push(c),
                None => {
                    out.push('&');
                    out.push_str(inner);
                    out.push(';');
                }
            }
        }
        rest = &body[end + "\u{B6}\u{DF}".len()..];
    }
    out.push_str(rest);
    out
}

fn named(name: &str) -> Option<char> {
    Some(match name {
        "quot" => '"',
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "apos" => '\'',
        "nbsp" => '\u{A0}',
        "copy" => '©',
        "reg" => '®',
        "trade" => '™',
        "deg" => '°',
        "times" => '×',
        "divide" => '÷',
        "hellip" => '…',
        "ndash" => '–',
        "mdash" => '—',
        "laquo" => '«',
        "raquo" => '»',
        "larr" => '←',
        "rarr" => '→',
        "uarr" => '↑',
        "darr" => '↓',
        "hearts" => '♥',
        "check" => '✓',
        "infin" => '∞',
        "ne" => '≠',
        "le" => '≤',
        "ge" => '≥',
        "plusmn" => '±',
        "middot" => '·',
        "bull" => '•',
        "sect" => '§',
        "para" => '¶',
        "euro" => '€',
        "pound" => '£',
        "yen" => '¥',
        "cent" => '¢',
        _ => return None,
    })
}
