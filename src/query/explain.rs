//! `EXPLAIN` and `PROFILE`: a query prefixed with either answers with its
//! plan instead of its rows, one row per clause, so that an agent can see why
//! a query is slow and how to write it faster. `EXPLAIN` only plans (and
//! samples nodes to estimate, as the planner does); `PROFILE` also runs the
//! query and adds the rows each clause put out and its time.

use super::exec::{self, Walk};
use super::plan::{Dir, MatchPlan, NodePat, Plan, Projection, Step};
use super::value::Val;
use crate::network::Network;

/// Whether a query asks for its plan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Mode {
    Run,
    Explain,
    Profile,
}

/// The columns of a plan's answer.
pub(crate) const COLUMNS: [&str; 7] = [
    "part",
    "step",
    "clause",
    "plan",
    "estimated_rows",
    "rows",
    "ms",
];

/// The mode a query asks for, and the query with its `EXPLAIN` or `PROFILE`
/// blanked out (so positions in errors stay those of the text sent).
pub(crate) fn strip(query: &str) -> (Mode, std::borrow::Cow<'_, str>) {
    let trimmed = query.trim_start();
    let lead = query.len() - trimmed.len();
    for (word, mode) in [("EXPLAIN", Mode::Explain), ("PROFILE", Mode::Profile)] {
        let Some(head) = trimmed.get(..word.len()) else {
            continue;
        };
        let boundary = trimmed[word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if head.eq_ignore_ascii_case(word) && boundary {
            let mut text = query.to_string();
            text.replace_range(lead..lead + word.len(), &" ".repeat(word.len()));
            return (mode, text.into());
        }
    }
    (Mode::Run, query.into())
}

/// The plan's rows: one per clause, with the planner's estimate for each
/// MATCH, and what PROFILE measured when `profiled` is given.
pub(crate) fn rows(
    net: &Network,
    plan: &Plan,
    profiled: Option<&[exec::Profiled]>,
) -> Vec<Vec<Val>> {
    let mut out = Vec::new();
    for (part_no, steps) in plan.parts.iter().enumerate() {
        for (step_no, step) in steps.iter().enumerate() {
            let last = step_no + 1 == steps.len();
            let (clause, text, estimate) = match step {
                Step::Match(m) => {
                    let (text, estimate) = describe_match(net, m);
                    let clause = if m.optional {
                        "OPTIONAL MATCH"
                    } else {
                        "MATCH"
                    };
                    (clause, text, estimate)
                }
                Step::Unwind { .. } => ("UNWIND", "one row per item of the list".to_string(), None),
                Step::Project(p) => {
                    let fed = step_no > 0
                        && matches!(steps[step_no - 1], Step::Match(_))
                        && !p.aggregates.is_empty();
                    let clause = if last { "RETURN" } else { "WITH" };
                    (clause, describe_projection(p, fed), None)
                }
            };
            let measured = profiled
                .and_then(|all| all.iter().find(|m| m.part == part_no && m.step == step_no));
            out.push(vec![
                Val::Int(part_no as i64),
                Val::Int(step_no as i64),
                Val::str(clause),
                Val::str(text),
                estimate.map_or(Val::Null, |e: f64| Val::Int(e.round() as i64)),
                measured.map_or(Val::Null, |m| Val::Int(m.rows as i64)),
                measured.map_or(Val::Null, |m| Val::Float((m.seconds * 1e6).round() / 1e3)),
            ]);
        }
    }
    out
}

/// A MATCH: for each path, where its walk starts and why; the WHERE.
fn describe_match(net: &Network, m: &MatchPlan) -> (String, Option<f64>) {
    let mut lines = Vec::new();
    let mut first_estimate = None;
    for part in &m.parts {
        let (walk, estimate) = exec::explain_walk(net, m, part, m.width);
        let reversed = matches!(
            walk,
            Walk::LastAnchored | Walk::Estimated { reversed: true, .. }
        );
        let start = if reversed {
            part.steps.last().map_or(&part.start, |(_, n)| n)
        } else {
            &part.start
        };
        let from = format!(
            "from {} ({} node)",
            node_text(start),
            if reversed { "its last" } else { "its first" }
        );
        let how = start_text(net, start, &estimate);
        let why = match walk {
            Walk::FirstAnchored => "the first node is anchored".to_string(),
            Walk::LastAnchored => "only the last node is anchored".to_string(),
            Walk::AsWritten => "as written".to_string(),
            Walk::OrderSeen => {
                "as written: the next clause sees the match order (aggregate or ORDER BY to let the planner choose the end)".to_string()
            }
            Walk::Estimated { first, last, .. } => format!(
                "estimated first node {:.0}, last node {:.0}",
                first.selected, last.selected
            ),
        };
        let walked = if reversed {
            exec::reverse_path(part)
        } else {
            None
        };
        let hops: Vec<String> = walked
            .as_ref()
            .unwrap_or(part)
            .steps
            .iter()
            .map(|(rel, _)| {
                let types = if rel.types.is_empty() {
                    "any type".to_string()
                } else {
                    format!(":{}", rel.types.join("|"))
                };
                let dir = match rel.dir {
                    Dir::Out => "out",
                    Dir::In => "in",
                    Dir::Both => "both ways",
                };
                match rel.hops {
                    None => format!("{types} {dir}"),
                    Some((min, max)) => format!(
                        "{types} {dir}, {min}..{} hops",
                        max.map_or("".to_string(), |m| m.to_string())
                    ),
                }
            })
            .collect();
        let walk_text = if hops.is_empty() {
            String::new()
        } else {
            format!("; then {}", hops.join(", then "))
        };
        lines.push(format!("{}: {from}, {how} ({why}){walk_text}", part.text));
        first_estimate.get_or_insert(estimate.selected);
    }
    if m.predicate.is_some() {
        lines.push(
            "WHERE: each AND-ed condition checked as soon as its variables are bound".to_string(),
        );
    }
    (lines.join("; "), first_estimate)
}

fn node_text(n: &NodePat) -> String {
    let mut text = String::from("(");
    text.push_str(n.name.as_deref().unwrap_or(""));
    for label in &n.labels {
        text.push(':');
        text.push_str(label);
    }
    text.push(')');
    text
}

fn start_text(net: &Network, start: &NodePat, estimate: &exec::Estimate) -> String {
    if start.bound {
        return "the node bound before".to_string();
    }
    if start.properties.iter().any(|(k, _)| k == "id") {
        return "one node found by its id".to_string();
    }
    let total = net.node_count();
    if estimate.sampled == 0 {
        return format!("a scan of all {total} nodes");
    }
    format!(
        "a scan of {total} nodes, about {:.0} passing its labels, properties and WHERE ({} of {} sampled)",
        estimate.selected, estimate.passed, estimate.sampled
    )
}

fn describe_projection(p: &Projection, fed: bool) -> String {
    let mut parts = vec![format!("{} columns", p.items.len())];
    if !p.aggregates.is_empty() {
        let keys = p.aggregated.iter().filter(|a| !**a).count();
        parts.push(format!(
            "{} aggregates over {keys} grouping keys{}",
            p.aggregates.len(),
            if fed {
                ", fed match by match (the matches are not kept)"
            } else {
                ""
            }
        ));
    }
    if p.distinct {
        parts.push("DISTINCT".to_string());
    }
    if !p.order.is_empty() {
        parts.push(format!(
            "ORDER BY {} keys{}",
            p.order.len(),
            if p.limit.is_some() {
                ", only the rows LIMIT takes are sorted"
            } else {
                ""
            }
        ));
    }
    if let Some(skip) = p.skip {
        parts.push(format!("SKIP {skip}"));
    }
    if let Some(limit) = p.limit {
        parts.push(format!("LIMIT {limit}"));
    }
    if p.predicate.is_some() {
        parts.push("WHERE".to_string());
    }
    parts.join(", ")
}
