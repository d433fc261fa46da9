//! An edge list as CSV: header `source,target,weight,edge_id,<attribute columns>`,
//! the attribute columns being every edge attribute name in sorted order, one row
//! per edge. Values are written as text (numbers in JSON notation, booleans as
//! `true`/`false`); a null or absent attribute is an empty cell. Isolated nodes,
//! node attributes and node data cannot be expressed in an edge list. Edge
//! attributes named like the fixed columns are left out.

use std::collections::BTreeSet;

use super::Selection;
use crate::interchange::values;

/// The fixed columns.
pub(crate) const FIXED: [&str; 4] = ["source", "target", "weight", "edge_id"];

/// Writes the selection as CSV (RFC 4180 quoting by the `csv` crate). O(size of the output).
pub(crate) fn write(selection: &Selection<'_>) -> String {
    let columns: BTreeSet<&str> = selection
        .edges
        .iter()
        .flat_map(|e| e.attributes.iter().map(|(k, _)| k))
        .filter(|k| !FIXED.contains(k))
        .collect();
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let header: Vec<&str> = FIXED
        .iter()
        .copied()
        .chain(columns.iter().copied())
        .collect();
    let _ = writer.write_record(&header);
    for edge in &selection.edges {
        crate::budget::charge(1);
        let mut row: Vec<String> = vec![
            edge.source.to_string(),
            edge.target.to_string(),
            values::weight_text(edge.weight),
            edge.id.to_string(),
        ];
        row.extend(columns.iter().map(|c| {
            edge.attributes
                .get(c)
                .and_then(values::scalar_text)
                .unwrap_or_default()
        }));
        let _ = writer.write_record(&row);
    }
    let bytes = writer.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}
