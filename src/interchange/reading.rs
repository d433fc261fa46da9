//! Which way a document's arrows point: the reading of an edge `A → B` as
//! "A depends on B" (the network's own: planning tools take an edge's target as
//! its source's prerequisite) or as "A comes before B" (B depends on A: how
//! people draw flowcharts), and the words an import reply gives for it.
//!
//! A reader returns the edges as written (the end named first as the source)
//! and the reading the document states, if it states one; [`orient`] then
//! settles the reading (the `arrows` option, else the document's statement,
//! else the format's convention, which is then reported as assumed) and turns
//! the edges of a "before" reading around. The plan formats of other tools
//! define their direction themselves (a task and what it depends on).

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::interchange::{Format, ImportedGraph};

/// How to read an edge `A → B` of a document (`A --> B` in Mermaid, `A -> B` in
/// DOT, a row `A,B` of an edge list, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Arrows {
    /// A comes before B: B depends on A. Stored as the edge B → A.
    Before,
    /// A depends on B. Stored as written, A → B.
    DependsOn,
}

impl Arrows {
    /// The snake_case name, as in the tool parameter (`"before"`).
    pub fn name(self) -> &'static str {
        match self {
            Arrows::Before => "before",
            Arrows::DependsOn => "depends_on",
        }
    }
}

/// What kind of thing an [`ImportNote`] tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NoteKind {
    /// The edges were read by a convention the document does not state.
    AssumedReading,
    /// Something of the document's format was read but not kept.
    Ignored,
}

/// Something an import assumed or left out, to be told to whoever imports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportNote {
    /// What kind of note.
    pub kind: NoteKind,
    /// The note, in words, with what to do about it.
    pub message: String,
}

impl ImportNote {
    pub(crate) fn ignored(message: impl Into<String>) -> ImportNote {
        ImportNote {
            kind: NoteKind::Ignored,
            message: message.into(),
        }
    }

    /// One note for the kinds of statement a document had and the network has
    /// no place for: each `(count, what)` with a count above zero, in order;
    /// `None` when every count is zero.
    pub(crate) fn left_out(kinds: &[(usize, &str)]) -> Option<ImportNote> {
        let parts: Vec<String> = kinds
            .iter()
            .filter(|(count, _)| *count > 0)
            .map(|(count, what)| format!("{count} {what}"))
            .collect();
        (!parts.is_empty()).then(|| {
            ImportNote::ignored(format!(
                "read but not kept, as the network has no place for them: {}",
                parts.join("; ")
            ))
        })
    }
}

/// How the format writes an edge from A to B, and the reading it takes when the
/// document states none; `None` for the formats that define their direction.
fn convention(format: Format) -> Option<(&'static str, Arrows, &'static str)> {
    match format {
        Format::Mermaid => Some(("A --> B", Arrows::Before, "the flowchart convention")),
        Format::Dot => Some(("A -> B", Arrows::DependsOn, "the network's own convention")),
        Format::Graphml => Some((
            "an edge source=A target=B",
            Arrows::DependsOn,
            "the network's own convention",
        )),
        Format::NodeLinkJson => Some((
            "an edge {source: A, target: B}",
            Arrows::DependsOn,
            "the network's own convention",
        )),
        Format::EdgeListCsv => Some((
            "a row A,B (source,target)",
            Arrows::DependsOn,
            "the network's own convention",
        )),
        Format::Cypher
        | Format::TaskmasterJson
        | Format::BeadsJsonl
        | Format::MemoryJsonl
        | Format::CargoMetadata
        | Format::PackageLockJson
        | Format::GoModGraph
        | Format::PipdeptreeJson => None,
    }
}

/// The reading of a format whose own definition fixes its direction.
fn defined(format: Format) -> &'static str {
    match format {
        Format::TaskmasterJson => {
            "a task's dependency read as: the task depends on it (defined by Task Master's format; stored as task → dependency)"
        }
        Format::BeadsJsonl => {
            "a dependency {issue_id: A, depends_on_id: B} read as: A depends on B (defined by Beads' format; stored as A → B); a child of a blocked issue also waits on what blocks it, as in bd ready"
        }
        Format::MemoryJsonl => {
            "a relation {from: A, to: B} read as: A relationType B (defined by the memory server's format; stored as A → B)"
        }
        Format::CargoMetadata => {
            "a resolved dependency read as: the package depends on it (defined by cargo metadata; stored as package → dependency, relation = its kind)"
        }
        Format::PackageLockJson => {
            "a dependency read as: the package depends on the copy npm resolves it to (defined by the lockfile; stored as package → dependency, relation = its type)"
        }
        Format::GoModGraph => {
            "a line \"A B\" read as: A requires B (defined by go mod graph; stored as A → B)"
        }
        Format::PipdeptreeJson => {
            "a dependency read as: the package requires it (defined by pipdeptree; stored as package → dependency)"
        }
        _ => "edges kept as written",
    }
}

/// Refuses an `arrows` for a format that defines its own direction.
pub(crate) fn check(format: Format, arrows: Option<Arrows>) -> Result<()> {
    match (arrows, convention(format)) {
        (Some(_), None) => Err(Error::InvalidValue {
            field: "arrows".into(),
            reason: format!(
                "the direction of {}'s edges is defined by the format ({}); leave out arrows",
                format.name(),
                defined(format)
            ),
        }),
        _ => Ok(()),
    }
}

/// Settles the reading of `graph`'s edges (as written by its reader), turns
/// them around for a "before" reading, and writes the reading and its notes.
/// O(edges).
pub(crate) fn orient(
    format: Format,
    mut graph: ImportedGraph,
    arrows: Option<Arrows>,
) -> ImportedGraph {
    let settled = settle(format, graph.stated_reading, arrows);
    if settled.turn_around {
        for edge in &mut graph.edges {
            std::mem::swap(&mut edge.source, &mut edge.target);
        }
    }
    graph.reading = settled.reading;
    graph.notes.extend(settled.notes);
    graph
}

/// How a document's edges are read, settled before they are stored.
pub(crate) struct Settled {
    /// Whether each edge is stored turned around (a "before" reading).
    pub(crate) turn_around: bool,
    /// The reading, in words, for the reply.
    pub(crate) reading: String,
    /// What was assumed or overridden, for the caller to be told.
    pub(crate) notes: Vec<ImportNote>,
}

/// The reading of a document of `format` that states `stated`, imported with
/// `arrows`: the parameter, else the statement, else the format's convention
/// (then noted as assumed).
pub(crate) fn settle(format: Format, stated: Option<Arrows>, arrows: Option<Arrows>) -> Settled {
    let mut notes = Vec::new();
    let Some((shape, default, name)) = convention(format) else {
        return Settled {
            turn_around: false,
            reading: defined(format).to_string(),
            notes,
        };
    };
    let (chosen, why) = match (arrows, stated) {
        (Some(a), Some(stated)) if a != stated => {
            notes.push(ImportNote::ignored(format!(
                "the document states that {shape} means {}; read as the arrows parameter asks instead",
                meaning(stated)
            )));
            (a, "as the arrows parameter asks".to_string())
        }
        (Some(a), _) => (a, "as the arrows parameter asks".to_string()),
        (None, Some(stated)) => (stated, "as the document states".to_string()),
        (None, None) => {
            notes.push(ImportNote {
                kind: NoteKind::AssumedReading,
                message: format!(
                    "the document does not say which way its edges point; {shape} was read as {} ({name}). If {} instead, import again with arrows \"{}\"",
                    meaning(default),
                    meaning(other(default)),
                    other(default).name()
                ),
            });
            (default, format!("{name}; the document states none"))
        }
    };
    let stored = match chosen {
        Arrows::Before => "stored as the edge B → A",
        Arrows::DependsOn => "stored as written, A → B",
    };
    Settled {
        turn_around: chosen == Arrows::Before,
        reading: format!("{shape} read as: {} ({stored}); {why}", meaning(chosen)),
        notes,
    }
}

fn meaning(arrows: Arrows) -> &'static str {
    match arrows {
        Arrows::Before => "B depends on A",
        Arrows::DependsOn => "A depends on B",
    }
}

fn other(arrows: Arrows) -> Arrows {
    match arrows {
        Arrows::Before => Arrows::DependsOn,
        Arrows::DependsOn => Arrows::Before,
    }
}

/// The reading a comment line states: `<prefix> networks-mcp…: … means A
/// depends on B` (or `B depends on A`), the first such line among the
/// document's leading lines (blank lines, comments, an XML declaration). A line
/// after the first statement of the document is never read: it may sit inside a
/// multi-line string or label, and a value must not turn the edges around.
/// O(size of the leading lines).
pub(crate) fn stated_in_comments(content: &str, prefix: &str) -> Option<Arrows> {
    for line in content.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("<?xml") {
            continue;
        }
        let text = line.strip_prefix(prefix)?.trim_start();
        if !text.starts_with("networks-mcp") {
            continue;
        }
        if text.contains("means A depends on B") {
            return Some(Arrows::DependsOn);
        } else if text.contains("means B depends on A") {
            return Some(Arrows::Before);
        }
    }
    None
}
