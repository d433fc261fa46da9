//! The nesting depth of a DOT document, measured on the grammar's own parse.
//!
//! graphviz-rust turns pest's parse into its AST recursively, and the AST's walk
//! and drop recurse too, one level per `{ … }` or `[ … ]`. A depth measured by a
//! lexical pass can disagree with the grammar (a comment ending at a lone `\r`
//! once hid 2,000 levels), so the depth is measured here on a parse by the very
//! grammar graphviz-rust uses (`dot.pest`, copied from graphviz-rust 0.9.9,
//! MIT), by counting token starts and ends: no recursion at any depth. pest
//! itself stops with an error, not a crash, when its stack runs low.

use pest::Parser;
use pest::Token;

#[derive(pest_derive::Parser)]
#[grammar = "interchange/import/dot.pest"]
struct DotGrammar;

/// The deepest nesting of bodies (`{ … }`) and attribute lists (`[ … ]`) in
/// `text`, or the grammar's error message when `text` is not DOT. O(size of the
/// document).
pub(super) fn nesting(text: &str) -> Result<usize, String> {
    let pairs = DotGrammar::parse(Rule::file, text).map_err(|e| e.to_string())?;
    let (mut depth, mut deepest) = (0usize, 0usize);
    for token in pairs.tokens() {
        match token {
            Token::Start {
                rule: Rule::body | Rule::attr_list,
                ..
            } => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            Token::End {
                rule: Rule::body | Rule::attr_list,
                ..
            } => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(deepest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_bodies_and_attribute_lists() {
        assert_eq!(nesting("digraph { a }"), Ok(1));
        assert_eq!(
            nesting("digraph { a [x=1] subgraph { b -> subgraph { c } } }"),
            Ok(3)
        );
        assert!(nesting("digraph {").is_err());
    }

    /// The grammar ends a `//` comment at a lone `\r`, so the braces after it count.
    #[test]
    fn braces_after_a_comment_ended_by_a_lone_cr_count() {
        let text = format!(
            "digraph {{\n// c\r{}a{}\n}}\n",
            "subgraph{".repeat(300),
            "}".repeat(300)
        );
        assert_eq!(nesting(&text), Ok(301));
    }
}
