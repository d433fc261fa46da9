//! MCP resources: each network is `network://{name}` (a JSON summary), the
//! template `network://{name}/export/{format}` gives its full export,
//! `network://{name}/ready` the progress of a plan executed with the work tools,
//! whose subscribers hear when tasks become ready to claim, and
//! `network://{name}/view?…` the laid-out drawing that `network_visualize`'s
//! MCP Apps view fetches (so that it never enters the model's context).
//!
//! A part of an export, embedded in a `network_export` result, is named by the
//! parameters that made it and the network's version:
//! `network://{name}/export/{format}?v={version}&limit={n}[&node_id=…&depth=…&direction=…]`.
//! Reading it runs the same export again, so it reads back exactly while the
//! network is unchanged, and says the network changed once it has.
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
use crate::view::model::{Scope, ViewRequest};

/// The view resource's bounds, those of `network_visualize`'s parameters.
pub(crate) const MAX_VIEW_DEPTH: usize = 10;
/// See [`MAX_VIEW_DEPTH`].
pub(crate) const MAX_VIEW_NODES: usize = 5_000;
/// See [`MAX_VIEW_DEPTH`].
pub(crate) const DEFAULT_VIEW_NODES: usize = 300;

/// Every resource URI starts with this.
pub const SCHEME: &str = "network://";

/// What must be escaped in a query value of a URI: a name's set, and the
/// query's own separators.
const QUERY_VALUE: &AsciiSet = &NAME.add(b'&').add(b'=').add(b'+').add(b';');

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

/// What a part of an export was made from: the `network_export` parameters
/// that select its nodes, and the network's version then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportPart {
    /// The network's version when the part was made.
    pub version: u64,
    /// How many of the selected nodes the part holds.
    pub limit: usize,
    /// The nodes whose neighbourhood was selected; `None`: the whole network.
    pub node_ids: Option<Vec<String>>,
    /// How far from `node_ids`.
    pub depth: usize,
    /// Which edges to follow from `node_ids`: `out`, `in` or `both`.
    pub direction: String,
}

/// The URI of a part of a network's export (a `network_export` of some nodes,
/// or of the first `limit`): the parameters that select it and the network's
/// version, so that reading it re-derives the same document while the network
/// is unchanged ([`parse_uri`] reads it back).
pub fn export_part_uri(name: &str, format: Format, part: &ExportPart) -> String {
    let mut uri = format!(
        "{}?v={}&limit={}",
        export_uri(name, format),
        part.version,
        part.limit
    );
    if let Some(ids) = &part.node_ids {
        for id in ids {
            uri.push_str("&node_id=");
            uri.extend(utf8_percent_encode(id, QUERY_VALUE));
        }
        uri.push_str(&format!(
            "&depth={}&direction={}",
            part.depth, part.direction
        ));
    }
    uri
}

/// The part a part URI's query names; `None` for anything else.
fn parse_part_query(query: &str) -> Option<ExportPart> {
    let mut part = ExportPart {
        version: u64::MAX,
        limit: 0,
        node_ids: None,
        depth: 1,
        direction: "out".into(),
    };
    let (mut version, mut limit) = (false, false);
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=')?;
        let value = percent_decode_str(value).decode_utf8().ok()?;
        match key {
            "v" => {
                part.version = value.parse().ok()?;
                version = true;
            }
            "limit" => {
                part.limit = value.parse().ok().filter(|&n| n >= 1)?;
                limit = true;
            }
            "node_id" if !value.is_empty() => part
                .node_ids
                .get_or_insert_with(Vec::new)
                .push(value.into_owned()),
            "depth" => part.depth = value.parse().ok()?,
            "direction" if matches!(&*value, "out" | "in" | "both") => {
                part.direction = value.into_owned();
            }
            _ => return None,
        }
    }
    (version && limit).then_some(part)
}

/// The view resource: the laid-out drawing of `request` (what the MCP Apps
/// view of `network_visualize` renders). Only what differs from the defaults of
/// `network_visualize` is written, `max_nodes` always.
pub fn view_uri(name: &str, request: &ViewRequest) -> String {
    let mut uri = format!("{}/view?max_nodes={}", network_uri(name), request.max_nodes);
    if let Some(focus) = &request.focus {
        uri.push_str("&node_id=");
        uri.extend(utf8_percent_encode(focus, QUERY_VALUE));
        uri.push_str("&scope=");
        uri.push_str(scope_name(request.scope));
        if request.scope == Scope::Neighborhood {
            uri.push_str(&format!("&depth={}", request.depth));
        }
    }
    uri
}

fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::Neighborhood => "neighborhood",
        Scope::Ancestors => "ancestors",
        Scope::Descendants => "descendants",
    }
}

/// The drawing a view URI's query asks for: `max_nodes` (1 to
/// [`MAX_VIEW_NODES`]), `node_id`, `scope` and `depth` (1 to
/// [`MAX_VIEW_DEPTH`]), each at most once, values percent-encoded; a missing one
/// takes `network_visualize`'s default. `None` for anything else.
fn parse_view_query(query: &str) -> Option<ViewRequest> {
    let mut request = ViewRequest {
        max_nodes: DEFAULT_VIEW_NODES,
        ..ViewRequest::default()
    };
    let mut seen = [false; 4];
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=')?;
        let value = percent_decode_str(value).decode_utf8().ok()?;
        let number = |max: usize| {
            value
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=max).contains(n))
        };
        let slot = match key {
            "max_nodes" => {
                request.max_nodes = number(MAX_VIEW_NODES)?;
                0
            }
            "node_id" => {
                request.focus = Some(value.clone().into_owned()).filter(|id| !id.is_empty());
                request.focus.as_ref()?;
                1
            }
            "scope" => {
                request.scope = Scope::parse(&value)?;
                2
            }
            "depth" => {
                request.depth = number(MAX_VIEW_DEPTH)?;
                3
            }
            _ => return None,
        };
        if std::mem::replace(&mut seen[slot], true) {
            return None;
        }
    }
    Some(request)
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
    /// `network://{name}/export/{format}?v=…&limit=…`: a part of an export.
    ExportPart(String, Format, ExportPart),
    /// `network://{name}/view?…`.
    View(String, ViewRequest),
}

impl ResourceRef {
    /// The network the resource belongs to.
    pub fn network(&self) -> &str {
        match self {
            ResourceRef::Summary(name)
            | ResourceRef::Export(name, _)
            | ResourceRef::Ready(name)
            | ResourceRef::ExportPart(name, _, _)
            | ResourceRef::View(name, _) => name,
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
        Some("view") => ResourceRef::View(name, parse_view_query("")?),
        Some(path) if path.starts_with("view?") => {
            ResourceRef::View(name, parse_view_query(&path["view?".len()..])?)
        }
        Some(path) => {
            let export = path.strip_prefix("export/")?;
            match export.split_once('?') {
                None => {
                    ResourceRef::Export(name, Format::parse(export).filter(|f| f.can_export())?)
                }
                Some((format, query)) => ResourceRef::ExportPart(
                    name,
                    Format::parse(format).filter(|f| f.can_export())?,
                    parse_part_query(query)?,
                ),
            }
        }
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
            ResourceTemplate::new(format!("{SCHEME}{{name}}/view{{?max_nodes,node_id,scope,depth}}"), "network_view")
                .with_title("Network drawing")
                .with_description("The laid-out drawing (coordinates by dependency layer, cycles marked) that network_visualize's view renders; its view_uri. Parameters as network_visualize's; bounded by the reply size.")
                .with_mime_type(SUMMARY_MIME),
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
                    "'{uri}' is not a networks-mcp resource URI. Use network://{{name}} for a summary, network://{{name}}/ready for a plan's ready work, network://{{name}}/view?max_nodes=…&node_id=…&scope=…&depth=… for a drawing, or network://{{name}}/export/{{format}} with format one of: {}. resources/list shows every network.",
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
            ResourceRef::ExportPart(name, format, part) => {
                let version = self
                    .registry()
                    .read(name, |net| Ok(net.version()))
                    .map_err(not_found)?;
                if version != part.version {
                    return Err(ErrorData::resource_not_found(
                        format!(
                            "'{uri}' is a part of network '{name}' at version {}, and the network has changed since (version {version}): call network_export again for the part as it is now, or read {} for the whole network.",
                            part.version,
                            export_uri(name, *format)
                        ),
                        Some(json!({ "uri": uri })),
                    ));
                }
                let mut arguments = json!({
                    "network_name": name,
                    "format": format.name(),
                    "limit": part.limit,
                });
                if let Some(ids) = &part.node_ids {
                    arguments["node_ids"] = json!(ids);
                    arguments["depth"] = json!(part.depth);
                    arguments["direction"] = json!(part.direction);
                }
                let exported = self
                    .call_internal("network_export", arguments)
                    .map_err(not_found)?;
                let text = exported["content"].as_str().unwrap_or_default().to_string();
                ResourceContents::text(text, uri).with_mime_type(format.mime_type())
            }
            ResourceRef::View(name, request) => {
                let view =
                    crate::view::model::graph(self.registry(), name, request).map_err(not_found)?;
                let text = serde_json::to_string(&view).unwrap_or_default();
                let bound = self.inner.options.limits.max_reply_bytes;
                if text.len() > bound {
                    return Err(ErrorData::invalid_params(
                        format!(
                            "the drawing is {} bytes, over the reply bound of {bound} bytes (--max-reply-bytes): ask for fewer nodes (a lower max_nodes, or the part around one node_id)",
                            text.len()
                        ),
                        Some(json!({ "uri": uri })),
                    ));
                }
                ResourceContents::text(text, uri).with_mime_type(SUMMARY_MIME)
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
    fn view_uris_round_trip_and_refuse_bad_queries() {
        for name in ["plan", "a/b", "50%"] {
            for focus in [None, Some("x&y=z/#?"), Some("ünï ✓")] {
                for scope in [Scope::Neighborhood, Scope::Ancestors, Scope::Descendants] {
                    let request = ViewRequest {
                        focus: focus.map(String::from),
                        scope: if focus.is_some() {
                            scope
                        } else {
                            Scope::Neighborhood
                        },
                        // Written only where it matters: a focused neighbourhood.
                        depth: if focus.is_some() && scope == Scope::Neighborhood {
                            3
                        } else {
                            2
                        },
                        max_nodes: 42,
                    };
                    let uri = view_uri(name, &request);
                    assert_eq!(
                        parse_uri(&uri),
                        Some(ResourceRef::View(name.into(), request)),
                        "{uri}"
                    );
                }
            }
        }
        assert_eq!(
            parse_uri("network://plan/view"),
            Some(ResourceRef::View(
                "plan".into(),
                ViewRequest {
                    max_nodes: DEFAULT_VIEW_NODES,
                    ..ViewRequest::default()
                }
            ))
        );
        for node_ids in [None, Some(vec!["x&y=z".to_string(), "ünï ✓".to_string()])] {
            let made = ExportPart {
                version: 7,
                limit: 40,
                node_ids,
                depth: 2,
                direction: "in".into(),
            };
            let uri = export_part_uri("a/b", Format::Dot, &made);
            assert!(
                uri.starts_with("network://a%2Fb/export/dot?v=7&limit=40"),
                "{uri}"
            );
            let Some(ResourceRef::ExportPart(name, Format::Dot, read)) = parse_uri(&uri) else {
                panic!("{uri} does not read back");
            };
            assert_eq!(name, "a/b");
            assert_eq!(read.node_ids, made.node_ids);
            assert_eq!((read.version, read.limit), (7, 40));
            if read.node_ids.is_some() {
                assert_eq!((read.depth, read.direction.as_str()), (2, "in"));
            }
        }
        for uri in [
            "network://plan/view?max_nodes=0",
            "network://plan/view?max_nodes=5001",
            "network://plan/view?max_nodes=-1",
            "network://plan/view?depth=11",
            "network://plan/view?depth=0",
            "network://plan/view?scope=sideways",
            "network://plan/view?node_id=",
            "network://plan/view?node_id=%FF",
            "network://plan/view?node_id=a&node_id=b",
            "network://plan/view?colour=red",
            "network://plan/view?max_nodes",
            "network://plan/view/",
            "network://plan/viewx",
            "network://plan/export/dot/part/",
            "network://plan/export/dot/part/v1.0",
            "network://plan/export/dot?v=1",
            "network://plan/export/dot?limit=1",
            "network://plan/export/dot?v=1&limit=0",
            "network://plan/export/dot?v=x&limit=1",
            "network://plan/export/dot?v=1&limit=1&direction=up",
            "network://plan/export/dot?v=1&limit=1&colour=red",
            "network://plan/export/pdf?v=1&limit=1",
        ] {
            assert_eq!(parse_uri(uri), None, "{uri}");
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
