//! Reads an edge list from CSV.
//!
//! The first row is the header and must name a `source` and a `target` column.
//! `weight` is optional: a finite number, or an empty cell for 1.0. `edge_id` is
//! ignored (the network assigns ids). Every other column is an edge attribute: an
//! empty cell means the attribute is absent; `true`/`false` become booleans, text
//! that is exactly a JSON number becomes a number (integer or float), anything else
//! is a string, and an integer past 64 bits a string of its exact text. Nodes are created from the endpoints in order of first appearance;
//! an edge list cannot hold isolated nodes, node attributes or node data.
//! Rows are numbered by the line they start on (the header is line 1).

use serde_json::Map;

use crate::error::Result;
use crate::interchange::apply::check_edge_at;
use crate::interchange::meter::Meter;
use crate::interchange::stream::{Collect, ItemSink};
use crate::interchange::{Format, ImportedGraph, invalid, values};
use crate::network::{DEFAULT_WEIGHT, EdgeSpec};

const FORMAT: Format = Format::EdgeListCsv;

/// Parses a CSV edge list. O(size of the document).
pub(crate) fn parse(content: &str, meter: &mut Meter) -> Result<ImportedGraph> {
    let mut collect = Collect::default();
    stream(content, meter, &mut collect)?;
    Ok(collect.into())
}

/// About how many edges `content` gives: its lines, less the header. Never
/// more than the lines there are, so a hostile document cannot make a network
/// reserve more than its own size.
pub(crate) fn estimated_edges(content: &str) -> usize {
    content
        .as_bytes()
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        .saturating_sub(1)
}

/// Reads a CSV edge list into `sink`, row by row: it lists no nodes, so each
/// edge can be stored as it is read, the network creating its endpoints in
/// order of first appearance. O(size of the document).
pub(crate) fn stream(content: &str, meter: &mut Meter, sink: &mut dyn ItemSink) -> Result<()> {
    let content = content.strip_prefix('\u{FEFF}').unwrap_or(content);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(content.as_bytes());
    let csv_error = |e: csv::Error| {
        let location = e.position().map(|p| format!("row {}", p.line()));
        invalid(FORMAT, location, format!("not valid CSV: {e}"))
    };
    let header = reader.headers().map_err(csv_error)?.clone();
    if header.is_empty() || (header.len() == 1 && header[0].is_empty()) {
        return Err(invalid(
            FORMAT,
            Some("row 1".into()),
            "the header row is missing; start with source,target[,weight,...]",
        ));
    }
    let column = |name: &str| header.iter().position(|h| h.trim() == name);
    // One hash set, not a scan per column: a header of a million columns is
    // checked in linear time.
    let mut seen = hashbrown::HashSet::new();
    for name in header.iter() {
        if !seen.insert(name) {
            return Err(invalid(
                FORMAT,
                Some("row 1".into()),
                format!(
                    "column '{}' appears twice in the header",
                    crate::error::clip(name, 64)
                ),
            ));
        }
    }
    let missing = |name: &str| {
        invalid(
            FORMAT,
            Some("row 1".into()),
            format!(
                "the header has no '{name}' column; it needs source and target (weight optional)"
            ),
        )
    };
    let source = column("source").ok_or_else(|| missing("source"))?;
    let target = column("target").ok_or_else(|| missing("target"))?;
    let weight = column("weight");
    let edge_id = column("edge_id");
    let attributes: Vec<(usize, &str)> = header
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != source && i != target && Some(i) != weight && Some(i) != edge_id)
        .collect();

    sink.nodes_done()?;
    for (index, record) in reader.records().enumerate() {
        let record = record.map_err(csv_error)?;
        crate::budget::charge(1 + record.len() as u64);
        let row = record.position().map_or(0, |p| p.line());
        let cell = |i: usize| record.get(i).unwrap_or_default();
        let weight = match weight.map(cell) {
            None | Some("") => DEFAULT_WEIGHT,
            Some(text) => values::parse_weight(text).ok_or_else(|| {
                    invalid(
                        FORMAT,
                        Some(format!("row {row}, column 'weight'")),
                        format!("weight '{text}' is not a finite number; write a number such as 1.5 or leave the cell empty for 1.0"),
                    )
                })?,
        };
        let mut map = Map::new();
        for &(i, name) in &attributes {
            let text = cell(i);
            if !text.is_empty() {
                map.insert(name.to_string(), values::infer_scalar(text));
            }
        }
        let (source, target) = (cell(source), cell(target));
        meter.edge(source, target, &map, || format!("at row {row}"))?;
        let edge = EdgeSpec {
            source: source.to_string(),
            target: target.to_string(),
            weight,
            attributes: map,
        };
        check_edge_at(FORMAT, &edge, || format!("row {row}"))?;
        sink.edge(edge, index)?;
    }
    Ok(())
}
