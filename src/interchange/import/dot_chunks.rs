//! Where a long DOT document can be cut into pieces that parse on their own.
//!
//! The grammar's parse keeps every token of the whole document at once (pest's
//! queue, then graphviz-rust's tree), about 200 times the document's size: a
//! 1.7 MB document of 50,000 nodes took 333 MiB. Cut between top-level
//! statements, each piece (the graph's header, some statements, a closing `}`)
//! parses alone, and only one piece's tokens are held at a time.
//!
//! A cut is only ever made after a `;` that ends a top-level statement: at
//! brace depth 1, outside `[…]`, strings and comments, read by the grammar's
//! own rules (`dot.pest`: `#` and `//` comments end at `\n`, `\r\n` or a lone
//! `\r`; `/* … */`; strings with `\` escapes). Anything else this reading does
//! not expect (a `<`, an unterminated string or comment) gives no cuts, and
//! the document is parsed whole, as before. Statements not ended by `;` are
//! never cut between, which only makes a piece longer.

use std::ops::Range;

/// How the body of a document is cut: `header` is the text up to and with the
/// body's `{`; each piece is `header`, then `body[i]`, then `}` (the last piece
/// runs to the end of the document instead, so whatever follows the body is
/// still checked by the grammar).
pub(super) struct Cuts {
    pub header: Range<usize>,
    pub body: Vec<Range<usize>>,
}

/// Cuts `text` into pieces of about `piece_bytes` each, or `None` when it is
/// shorter than two pieces or cannot be cut safely. O(size of the document).
pub(super) fn cut(text: &str, piece_bytes: usize) -> Option<Cuts> {
    if text.len() < 2 * piece_bytes {
        return None;
    }
    let bytes = text.as_bytes();
    let (mut braces, mut brackets) = (0usize, 0usize);
    let mut body_start = None;
    let mut body = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = string_end(bytes, i)?,
            b'#' => i = line_end(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = line_end(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let close = text.get(i + 2..)?.find("*/")?;
                i += 2 + close + 2;
            }
            // HTML ids are quoted by `prepare`; one left means a reading this
            // scan does not share.
            b'<' => return None,
            b'{' => {
                braces += 1;
                if body_start.is_none() {
                    body_start = Some(i + 1);
                    start = i + 1;
                }
                i += 1;
            }
            b'}' => {
                braces = braces.checked_sub(1)?;
                i += 1;
            }
            b'[' => {
                brackets += 1;
                i += 1;
            }
            b']' => {
                brackets = brackets.checked_sub(1)?;
                i += 1;
            }
            b';' if braces == 1 && brackets == 0 => {
                i += 1;
                if i - start >= piece_bytes {
                    body.push(start..i);
                    start = i;
                }
            }
            _ => i += 1,
        }
    }
    let header = 0..body_start?;
    if body.is_empty() {
        return None;
    }
    body.push(start..text.len());
    Some(Cuts { header, body })
}

/// Just past the string opening at `i`, or `None` if it is not closed.
fn string_end(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// Just past the line comment starting at `i`: its end of line (`\n`, `\r\n`
/// or a lone `\r`, as the grammar's `NEWLINE`) or the end of the text.
fn line_end(bytes: &[u8], i: usize) -> usize {
    let mut j = i;
    while j < bytes.len() {
        match bytes[j] {
            b'\n' => return j + 1,
            b'\r' if bytes.get(j + 1) == Some(&b'\n') => return j + 2,
            b'\r' => return j + 1,
            _ => j += 1,
        }
    }
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(text: &str, piece_bytes: usize) -> Vec<String> {
        let Some(cuts) = cut(text, piece_bytes) else {
            return vec![text.to_string()];
        };
        let last = cuts.body.len() - 1;
        cuts.body
            .iter()
            .enumerate()
            .map(|(k, range)| {
                let close = if k == last { "" } else { "}" };
                format!(
                    "{}{}{close}",
                    &text[cuts.header.clone()],
                    &text[range.clone()]
                )
            })
            .collect()
    }

    #[test]
    fn cuts_only_after_top_level_statements() {
        let text = "digraph g { a [x=\"1;2\" y=3;]; // c;\n b; subgraph { c; d; }; /* ; */ e; f }";
        assert_eq!(
            pieces(text, 4),
            [
                "digraph g { a [x=\"1;2\" y=3;];}",
                "digraph g { // c;\n b;}",
                "digraph g { subgraph { c; d; };}",
                "digraph g { /* ; */ e;}",
                "digraph g { f }",
            ]
        );
    }

    #[test]
    fn a_short_document_or_one_it_cannot_read_is_not_cut() {
        assert!(cut("digraph { a; b; }", 1_000).is_none());
        assert!(cut("digraph { a [label=<b>]; b; c; d; }", 2).is_none());
        assert!(cut("digraph { a; \"b; c; d; }", 2).is_none());
        // A comment ended by a lone `\r`, as the grammar ends it.
        let text = "digraph { a; #x\rb; c; d; }";
        assert_eq!(pieces(text, 2)[1], "digraph { #x\rb;}");
    }
}
