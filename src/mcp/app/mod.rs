//! The MCP Apps view (SEP-1865, extension `io.modelcontextprotocol/ui`): one
//! self-contained HTML page, served as the resource [`VIEW_URI`], that hosts
//! supporting MCP Apps load in a sandboxed iframe to render `network_visualize`
//! results. It talks to the host only through `postMessage` JSON-RPC
//! (`ui/initialize`, `ui/notifications/tool-result`, `tools/call` for node details)
//! and loads nothing from any origin: no external script, style, font or image.

use rmcp::model::{Resource, ResourceContents};
use serde_json::json;

/// The view's resource URI, named in `network_visualize`'s `_meta.ui.resourceUri`.
pub const VIEW_URI: &str = "ui://networks-mcp/network-view";

/// The MIME type MCP Apps hosts expect for HTML views.
pub const MIME: &str = "text/html;profile=mcp-app";

/// The page: our own HTML, CSS and JavaScript, nothing third-party.
pub const HTML: &str = include_str!("view.html");

/// `_meta.ui` of a tool whose results the view renders.
pub fn tool_meta() -> serde_json::Value {
    json!({ "resourceUri": VIEW_URI, "visibility": ["model", "app"] })
}

/// The view as `resources/list` shows it.
pub fn resource() -> Resource {
    Resource::new(VIEW_URI, "network_view")
        .with_title("Network view")
        .with_description("Interactive drawing of a network_visualize result (MCP Apps view): layered by dependency order, cycles highlighted, pan, zoom and node details.")
        .with_mime_type(MIME)
}

/// The view's contents for `resources/read`, declaring that it needs no external origin.
pub fn contents() -> ResourceContents {
    let mut meta = rmcp::model::JsonObject::new();
    meta.insert(
        "ui".into(),
        json!({ "csp": { "connectDomains": [], "resourceDomains": [] }, "prefersBorder": true }),
    );
    ResourceContents::text(HTML, VIEW_URI)
        .with_mime_type(MIME)
        .with_meta(rmcp::model::MetaObject(meta))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_loads_nothing_from_outside() {
        // The SVG namespace is a name, not a location: nothing is fetched from it.
        let page = HTML.replace("http://www.w3.org/2000/svg", "");
        for needle in ["http://", "https://", "//cdn", "src=\"", "@import"] {
            assert!(!page.contains(needle), "view.html contains {needle}");
        }
        // url() only for fragments of the page itself (SVG markers).
        assert_eq!(page.matches("url(").count(), page.matches("url(#").count());
        assert!(HTML.starts_with("<!DOCTYPE html>"));
        assert!(HTML.contains("ui/initialize"));
        assert!(HTML.contains("ui/notifications/tool-result"));
    }
}
