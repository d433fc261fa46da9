//! MCP resources: each network is `network://{name}` (a JSON summary), the
//! template `network://{name}/export/{format}` gives its full export, and
//! `network://{name}/ready` the progress of a plan executed with the work tools,
//! whose subscribers hear when tasks become ready to claim.
//!
//! Names are percent-encoded in URIs (a `/` always is), so `network://a%2Fb` is the
//! network `a/b` and never an export path.

use percent_encoding::{AsciiSet, CONTROLS, percent_decode_str, utf8_percent_encode};
use rmcp::ErrorData;
use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate,
};
use serde_json::{Value, json};

use super::NetworksServer;
use crate::interchange::{self, Format};

/// Every resource URI starts with this.
pub const SCHEME: &str = "network://";

/// What must be escaped in a network name inside a URI.
const NAME: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}')
    .add(b'|')
    .add(b'\\')
    .add(b'^')
    .add(b'[')
    .add(b']');

/// The summary resource of a network.
pub fn network_uri(name: &str) -> String {
    format!("{SCHEME}{}", utf8_percent_encode(name, NAME))
}

/// The export resource of a network in one format.
pub fn export_uri(name: &str, format: Format) -> String {
    format!("{}/export/{}", network_uri(name), format.name())
}

/// The ready-work resource of a plan.
pub fn ready_uri(name: &str) -> String {
    format!("{}/ready", network_uri(name))
}

/// What a resource URI names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceRef {
    /// `network://{name}`.
    Summary(String),
    /// `network://{name}/export/{format}`.
    Export(String, Format),
    /// `network://{name}/ready`.
    Ready(String),
}

impl ResourceRef {
    /// The network the resource belongs to.
    pub fn network(&self) -> &str {
        match self {
            ResourceRef::Summary(name)
            | ResourceRef::Export(name, _)
            | ResourceRef::Ready(name) => name,
        }
    }
}

/// Reads a `network://` URI; `None` if it is not one of ours.
pub fn parse_uri(uri: &str) -> Option<ResourceRef> {
    let rest = uri.strip_prefix(SCHEME)?;
    let (encoded, path) = match rest.split_once('/') {
        None => (rest, None),
        Some((name, path)) => (name, Some(path)),
    };
    let name = percent_decode_str(encoded).decode_utf8().ok()?.into_owned();
    if name.is_empty() {
        return None;
    }
    Some(match path {
        None => ResourceRef::Summary(name),
        Some("ready") => ResourceRef::Ready(name),
        Some(path) => ResourceRef::Export(
            name,
            Format::parse(path.strip_prefix("export/")?).filter(|f| f.can_export())?,
        ),
    })
}

const SUMMARY_MIME: &str = "application/json";

impl NetworksServer {
    /// `resources/list`: one summary resource per network.
    pub fn resource_list(&self) -> ListResourcesResult {
        let resources = self
            .registry()
            .list()
            .into_iter()
            .map(|summary| {
                Resource::new(network_uri(&summary.name), summary.name.clone())
                    .with_title(format!("Network '{}'", summary.name))
                    .with_description(format!(
                        "Summary of network '{}' ({} nodes, {} edges): counts, DAG or not, sources, sinks, top degrees, and the export URIs.{}",
                        summary.name,
                        summary.nodes,
                        summary.edges,
                        summary
                            .description
                            .as_deref()
                            .map(|d| format!(" Description: {d}"))
                            .unwrap_or_default()
                    ))
                    .with_mime_type(SUMMARY_MIME)
            })
            .collect::<Vec<_>>();
        let mut resources = resources;
        resources.push(super::app::resource());
        ListResourcesResult::with_all_items(resources)
    }

    /// `resources/templates/list`: the export template.
    pub fn resource_templates() -> ListResourceTemplatesResult {
        let formats: Vec<&str> = Format::EXPORTABLE.iter().map(|f| f.name()).collect();
        let templates = vec![
            ResourceTemplate::new(format!("{SCHEME}{{name}}"), "network")
                .with_title("Network summary")
                .with_description("A network's JSON summary (the same as network_describe). {name} is the network name, percent-encoded.")
                .with_mime_type(SUMMARY_MIME),
            ResourceTemplate::new(format!("{SCHEME}{{name}}/export/{{format}}"), "network_export")
                .with_title("Network export")
                .with_description(format!(
                    "The whole network as a document, without the size limit of the network_export tool. {{format}} is one of: {}. {{name}} is the network name, percent-encoded.",
                    formats.join(", ")
                )),
            ResourceTemplate::new(format!("{SCHEME}{{name}}/ready"), "network_ready")
                .with_title("Ready work of a plan")
                .with_description("The progress of a plan executed with the work tools (as network_plan_progress with its defaults): tasks done, claimed, ready and blocked. Subscribe to it to be told when tasks become ready to claim: when a completion unblocks some, or a claim is released.")
                .with_mime_type(SUMMARY_MIME),
        ];
        ListResourceTemplatesResult::with_all_items(templates)
    }

    /// `resources/read`.
    pub fn resource_read(&self, uri: &str) -> Result<ReadResourceResult, ErrorData> {
        if uri == super::app::VIEW_URI {
            return Ok(ReadResourceResult::new(vec![super::app::contents()]));
        }
        let Some(resource) = parse_uri(uri) else {
            return Err(ErrorData::invalid_params(
                format!(
                    "'{uri}' is not a networks-mcp resource URI. Use network://{{name}} for a summary, network://{{name}}/ready for a plan's ready work, or network://{{name}}/export/{{format}} with format one of: {}. resources/list shows every network.",
                    Format::EXPORTABLE.map(|f| f.name()).join(", ")
                ),
                Some(json!({ "uri": uri })),
            ));
        };
        let not_found = |e: crate::Error| {
            ErrorData::resource_not_found(e.to_string(), Some(json!({ "uri": uri })))
        };
        let contents = match &resource {
            ResourceRef::Summary(name) => {
                let summary = self.summary_of(name).map_err(not_found)?;
                let text = serde_json::to_string_pretty(&summary).unwrap_or_default();
                ResourceContents::text(text, uri).with_mime_type(SUMMARY_MIME)
            }
            ResourceRef::Ready(name) => {
                let mut progress = self
                    .call_internal(
                        "network_plan_progress",
                        json!({ "network_name": name, "limit": 20 }),
                    )
                    .map_err(not_found)?;
                if let Value::Object(map) = &mut progress {
                    map.remove("status");
                    map.insert("uri".into(), Value::from(ready_uri(name)));
                }
                let text = serde_json::to_string_pretty(&progress).unwrap_or_default();
                ResourceContents::text(text, uri).with_mime_type(SUMMARY_MIME)
            }
            ResourceRef::Export(name, format) => {
                let text = self
                    .registry()
                    .read(name, |net| Ok(interchange::export(net, *format, None)))
                    .map_err(not_found)?;
                ResourceContents::text(text, uri).with_mime_type(format.mime_type())
            }
        };
        Ok(ReadResourceResult::new(vec![contents]))
    }

    /// The summary resource: `network_describe`'s answer plus the export URIs.
    fn summary_of(&self, name: &str) -> crate::Result<Value> {
        let mut summary = self.call_internal(
            "network_describe",
            json!({ "network_name": name, "list_limit": 20, "top_k": 5 }),
        )?;
        if let Value::Object(map) = &mut summary {
            map.remove("status");
            map.insert("uri".into(), Value::from(network_uri(name)));
            let exports: serde_json::Map<String, Value> = Format::EXPORTABLE
                .iter()
                .map(|f| (f.name().to_string(), Value::from(export_uri(name, *f))))
                .collect();
            map.insert("exports".into(), Value::Object(exports));
        }
        Ok(summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_round_trip_names_with_slashes_spaces_and_unicode() {
        for name in ["plan", "a/b", "with space", "ünï ✓", "50%", "x/export/dot"] {
            let uri = network_uri(name);
            assert_eq!(
                parse_uri(&uri),
                Some(ResourceRef::Summary(name.into())),
                "{uri}"
            );
            let uri = export_uri(name, Format::Graphml);
            assert_eq!(
                parse_uri(&uri),
                Some(ResourceRef::Export(name.into(), Format::Graphml)),
                "{uri}"
            );
            let uri = ready_uri(name);
            assert_eq!(
                parse_uri(&uri),
                Some(ResourceRef::Ready(name.into())),
                "{uri}"
            );
        }
    }

    #[test]
    fn foreign_or_malformed_uris_are_not_ours() {
        for uri in [
            "file:///etc/passwd",
            "network://",
            "network://plan/other",
            "network://plan/export/pdf",
            "network://plan/ready/",
            "network://plan/readyx",
            "network://%FF/ready",
            "network://%FF",
        ] {
            assert_eq!(parse_uri(uri), None, "{uri}");
        }
    }
}
