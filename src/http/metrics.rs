//! `/metrics`: the process-wide Prometheus recorder behind the `metrics` facade.
//!
//! [`crate::mcp::NetworksServer::dispatch`] records per-tool counters and a latency
//! histogram; the registry gauges are computed here at scrape time.

use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tracing::warn;

use crate::registry::NetworkRegistry;

/// Latency buckets in seconds: tool calls range from microseconds to seconds.
const LATENCY_BUCKETS: [f64; 16] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0, 2.5, 10.0,
];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// The Prometheus handle, installing the global recorder on first use. If another
/// recorder is already installed (an embedding program's), a private one is used
/// and `/metrics` stays empty (the embedding program exports the metrics instead).
pub fn handle() -> PrometheusHandle {
    HANDLE
        .get_or_init(|| {
            let builder = || {
                PrometheusBuilder::new()
                    .set_buckets_for_metric(
                        Matcher::Full("networks_mcp_tool_call_seconds".into()),
                        &LATENCY_BUCKETS,
                    )
                    .unwrap_or_else(|_| PrometheusBuilder::new())
            };
            match builder().install_recorder() {
                Ok(handle) => {
                    describe();
                    handle
                }
                Err(e) => {
                    warn!(error = %e, "a metrics recorder is already installed; /metrics will be empty");
                    builder().build_recorder().handle()
                }
            }
        })
        .clone()
}

fn describe() {
    metrics::describe_counter!(
        "networks_mcp_tool_calls_total",
        "Tool calls, by tool (successes and errors)."
    );
    metrics::describe_counter!(
        "networks_mcp_tool_errors_total",
        "Tool calls that returned an error object, by tool."
    );
    metrics::describe_histogram!(
        "networks_mcp_tool_call_seconds",
        metrics::Unit::Seconds,
        "Tool call latency inside the server, by tool."
    );
    metrics::describe_gauge!("networks_mcp_networks", "Networks in the registry.");
    metrics::describe_gauge!("networks_mcp_nodes", "Nodes across all networks.");
    metrics::describe_gauge!("networks_mcp_edges", "Edges across all networks.");
}

/// The exposition text, with the registry gauges updated first.
pub fn render(handle: &PrometheusHandle, registry: &NetworkRegistry) -> String {
    let summaries = registry.list();
    let nodes: usize = summaries.iter().map(|s| s.nodes).sum();
    let edges: usize = summaries.iter().map(|s| s.edges).sum();
    metrics::gauge!("networks_mcp_networks").set(summaries.len() as f64);
    metrics::gauge!("networks_mcp_nodes").set(nodes as f64);
    metrics::gauge!("networks_mcp_edges").set(edges as f64);
    handle.run_upkeep();
    handle.render()
}
