//! Warnings: what a successful answer says when it may not be the answer its
//! caller meant.
//!
//! An agent acts on a success without checking it, so a success never hides that
//! an input matched nothing (a relation type, an attribute key, a label), that a
//! default contradicted the data, or that a document was read by a convention it
//! does not state. Code anywhere under a call says so with [`warn`]; the server
//! collects the call's warnings ([`collect`]) and adds them to the reply as
//! `warnings: [{code, message}]`. Outside [`collect`] (a library caller, a journal
//! replay) [`warn`] does nothing.
//!
//! A call keeps at most [`MAX_WARNINGS`] distinct warnings, each clipped to
//! [`MAX_MESSAGE_BYTES`], so a warning can never grow a reply past its bounds.

use std::cell::RefCell;

/// The most warnings one reply carries; the last one then says how many more there were.
pub const MAX_WARNINGS: usize = 8;

/// The longest warning message, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 400;

/// What kind of doubt a warning raises: one word each, listed in
/// `specs/vocabulary.md` ("Warnings").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WarningCode {
    /// A relation type the call named (`relations`, `ignore_relations`, a
    /// query's `[:TYPE]`) that no edge of the network has.
    UnknownRelation,
    /// An attribute or property key the call filtered or sorted on that no node
    /// (or edge) of the network has.
    UnknownAttribute,
    /// A node label a query named that no node has.
    UnknownLabel,
    /// A value the call matched on that no node has under that key (the key exists).
    UnknownValue,
    /// The network the call named holds no nodes: an empty answer, or
    /// `finished: true`, then says nothing about the work.
    EmptyNetwork,
    /// The call decided what is done, ready or blocked by a default rule, and the
    /// data suggests another one (nodes carry a status the rule does not count).
    DoneRule,
    /// An import read the direction of its edges (or another meaning) by a
    /// convention the document itself does not state.
    AssumedReading,
    /// An import met something of its format it does not keep, or a value it
    /// did not apply (a merge keeps existing nodes as they are).
    Ignored,
}

impl WarningCode {
    /// Every code, in the order `specs/vocabulary.md` lists them.
    pub const ALL: [WarningCode; 8] = [
        WarningCode::UnknownRelation,
        WarningCode::UnknownAttribute,
        WarningCode::UnknownLabel,
        WarningCode::UnknownValue,
        WarningCode::EmptyNetwork,
        WarningCode::DoneRule,
        WarningCode::AssumedReading,
        WarningCode::Ignored,
    ];

    /// The code as a reply spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            WarningCode::UnknownRelation => "unknown_relation",
            WarningCode::UnknownAttribute => "unknown_attribute",
            WarningCode::UnknownLabel => "unknown_label",
            WarningCode::UnknownValue => "unknown_value",
            WarningCode::EmptyNetwork => "empty_network",
            WarningCode::DoneRule => "done_rule",
            WarningCode::AssumedReading => "assumed_reading",
            WarningCode::Ignored => "ignored",
        }
    }
}

/// One warning: its code and a sentence saying what matched nothing or what was
/// assumed, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// What kind of doubt it raises.
    pub code: WarningCode,
    /// What happened and what to do, in one or two short sentences.
    pub message: String,
}

thread_local! {
    static COLLECTED: RefCell<Option<Vec<Warning>>> = const { RefCell::new(None) };
}

/// Records a warning for the call running on this thread, if one is collecting
/// (see [`collect`]); a warning said twice is kept once.
pub fn warn(code: WarningCode, message: impl Into<String>) {
    COLLECTED.with(|collected| {
        let mut collected = collected.borrow_mut();
        let Some(list) = collected.as_mut() else {
            return;
        };
        let mut message: String = message.into();
        if message.len() > MAX_MESSAGE_BYTES {
            let mut end = MAX_MESSAGE_BYTES - 3;
            while !message.is_char_boundary(end) {
                end -= 1;
            }
            message.truncate(end);
            message.push_str("...");
        }
        let warning = Warning { code, message };
        // One more than kept, so that `collect` knows some were left out.
        if !list.contains(&warning) && list.len() <= MAX_WARNINGS {
            list.push(warning);
        }
    });
}

/// Whether a call on this thread collects warnings: code that must do extra
/// work to find out what to warn about (counting a key over every node) can skip
/// it when nobody listens.
pub fn collecting() -> bool {
    COLLECTED.with(|collected| collected.borrow().is_some())
}

/// Runs `f`, collecting the warnings it says, and returns them with its result.
/// Nested calls collect their own; the outer collection resumes afterwards, even
/// if `f` unwinds.
pub fn collect<T>(f: impl FnOnce() -> T) -> (T, Vec<Warning>) {
    struct Restore(Option<Vec<Warning>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            COLLECTED.with(|collected| *collected.borrow_mut() = outer);
        }
    }
    let outer = COLLECTED.with(|collected| collected.borrow_mut().replace(Vec::new()));
    let restore = Restore(outer);
    let out = f();
    let mut warnings = COLLECTED
        .with(|collected| collected.borrow_mut().take())
        .unwrap_or_default();
    drop(restore);
    if warnings.len() > MAX_WARNINGS {
        warnings.truncate(MAX_WARNINGS - 1);
        let kept = warnings.len();
        warnings.push(Warning {
            code: warnings[kept - 1].code,
            message: format!(
                "More warnings were left out: a reply lists at most {MAX_WARNINGS}; correct the ones above and call again."
            ),
        });
    }
    (out, warnings)
}

/// The closest of `known` to `asked`, ignoring case and `-`/`_`/space, if it is
/// close enough to be a likely slip (at most a third of the letters differ).
pub fn closest<'a>(asked: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let fold = |s: &str| -> Vec<char> {
        s.chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let asked_folded = fold(asked);
    let mut best: Option<(usize, &str)> = None;
    for candidate in known {
        let folded = fold(candidate);
        let distance = edit_distance(&asked_folded, &folded);
        let longest = asked_folded.len().max(folded.len()).max(1);
        let contains = !asked_folded.is_empty()
            && !folded.is_empty()
            && (contains(&folded, &asked_folded) || contains(&asked_folded, &folded));
        if (distance * 3 <= longest || contains) && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

fn contains(haystack: &[char], needle: &[char]) -> bool {
    needle.len() <= haystack.len() && haystack.windows(needle.len()).any(|w| w == needle)
}

/// Levenshtein distance over chars, in O(a·b) time and O(b) memory; the inputs
/// are names (relation types, keys), each at most a few hundred characters.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// "`a`, `b` and 3 more": a short list of names for a warning.
pub fn list_names<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    const SHOWN: usize = 8;
    let mut shown = Vec::new();
    let mut more = 0usize;
    for name in names {
        if shown.len() < SHOWN {
            shown.push(format!("\"{}\"", clip_name(name)));
        } else {
            more += 1;
        }
    }
    match (shown.is_empty(), more) {
        (true, _) => "none".to_string(),
        (false, 0) => shown.join(", "),
        (false, more) => format!("{} and {more} more", shown.join(", ")),
    }
}

fn clip_name(name: &str) -> &str {
    const LONGEST: usize = 40;
    if name.len() <= LONGEST {
        return name;
    }
    let mut end = LONGEST;
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_are_collected_only_inside_collect_and_kept_once() {
        warn(WarningCode::Ignored, "nobody listens");
        let ((), warnings) = collect(|| {
            warn(WarningCode::UnknownRelation, "a");
            warn(WarningCode::UnknownRelation, "a");
            let ((), inner) = collect(|| warn(WarningCode::Ignored, "inner"));
            assert_eq!(inner.len(), 1);
            warn(WarningCode::UnknownLabel, "b");
        });
        let codes: Vec<_> = warnings.iter().map(|w| w.code).collect();
        assert_eq!(
            codes,
            [WarningCode::UnknownRelation, WarningCode::UnknownLabel]
        );
        assert!(!collecting());
    }

    #[test]
    fn a_reply_carries_a_bounded_number_of_bounded_warnings() {
        let ((), warnings) = collect(|| {
            for i in 0..100 {
                warn(
                    WarningCode::UnknownValue,
                    format!("{i} {}", "é".repeat(500)),
                );
            }
        });
        assert_eq!(warnings.len(), MAX_WARNINGS);
        assert!(
            warnings
                .iter()
                .all(|w| w.message.len() <= MAX_MESSAGE_BYTES)
        );
        assert!(warnings[MAX_WARNINGS - 1].message.contains("left out"));
    }

    #[test]
    fn the_closest_name_forgives_case_and_separators_but_not_everything() {
        let known = ["normal", "dev", "build"];
        assert_eq!(closest("Normal", known), Some("normal"));
        assert_eq!(closest("dev-dependency", known), Some("dev"));
        assert_eq!(closest("BUILD", known), Some("build"));
        assert_eq!(closest("runtime", known), None);
        assert_eq!(list_names(["a", "b"]), "\"a\", \"b\"");
    }
}
