//! The syntax trees of recent query texts, so that an agent asking the same
//! query again (with other parameters, as a template) is not parsed again: on
//! a small query the parse is a fifth of the engine's time.
//!
//! Bounded: at most [`KEPT`] texts of at most [`LONGEST`] bytes each, the
//! least recently used dropped first. A text that does not parse is never kept.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use open_cypher::ast::Program;

/// Texts kept.
const KEPT: usize = 64;
/// The longest text kept, in bytes: longer ones are parsed every time.
const LONGEST: usize = 4096;

static RECENT: Mutex<VecDeque<(Box<str>, Arc<Program>)>> = Mutex::new(VecDeque::new());

/// The tree of `text`, from the recent ones or made by `parse` (and then kept).
pub(crate) fn program<E>(
    text: &str,
    parse: impl FnOnce(&str) -> Result<Program, E>,
) -> Result<Arc<Program>, E> {
    if text.len() > LONGEST {
        return parse(text).map(Arc::new);
    }
    if let Ok(mut recent) = RECENT.lock()
        && let Some(at) = recent.iter().position(|(t, _)| **t == *text)
    {
        let entry = recent.remove(at).expect("found above");
        let program = Arc::clone(&entry.1);
        recent.push_front(entry);
        return Ok(program);
    }
    // Parsed outside the lock: another thread's lookups never wait on it.
    let program = Arc::new(parse(text)?);
    if let Ok(mut recent) = RECENT.lock() {
        if recent.len() >= KEPT {
            recent.pop_back();
        }
        recent.push_front((text.into(), Arc::clone(&program)));
    }
    Ok(program)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_is_parsed_once_and_a_failure_never_kept() {
        let text = "MATCH (n) RETURN n.parsed_once_test";
        let mut parses = 0;
        for _ in 0..3 {
            program(text, |t| {
                parses += 1;
                open_cypher::parse(t).map(|p| p.program)
            })
            .unwrap();
        }
        assert_eq!(parses, 1);
        let bad = "MATCH (n RETURN n.never_kept";
        let mut tries = 0;
        for _ in 0..2 {
            let result = program(bad, |t| {
                tries += 1;
                open_cypher::parse(t).map(|p| p.program)
            });
            assert!(result.is_err());
        }
        assert_eq!(tries, 2);
    }
}
