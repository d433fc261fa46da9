//! The tool table: how one tool is described (name, prompt text, schemas,
//! annotations, toolset) and how its arguments are decoded and its result encoded.
//!
//! Every tool is a plain function `fn(&ToolContext, Params) -> Result<Output>`. The
//! [`ToolDef::new`] wrapper decodes the arguments itself (so malformed arguments get
//! our error object, not rmcp's plain-text message) and serialises the output.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::schema;
use crate::error::{Error, Result};
use crate::registry::NetworkRegistry;

/// The groups that `--toolsets` selects from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum Toolset {
    /// The seed tools and the registry tools: create, list, delete, add node/edge, neighbors.
    Core,
    /// Editing and batch loading.
    Edit,
    /// Questions about the graph: traversal, order, paths, cycles, readiness.
    Analysis,
    /// Import and export in other formats: Mermaid, DOT, NetworkX, GraphML, Cypher, CSV.
    Interchange,
}

impl Toolset {
    /// Every toolset, in listing order.
    pub const ALL: [Toolset; 4] = [
        Toolset::Core,
        Toolset::Edit,
        Toolset::Analysis,
        Toolset::Interchange,
    ];

    /// The name used on the command line and in the `_meta` of each tool.
    pub fn name(self) -> &'static str {
        match self {
            Toolset::Core => "core",
            Toolset::Edit => "edit",
            Toolset::Analysis => "analysis",
            Toolset::Interchange => "interchange",
        }
    }
}

/// What a tool does to the state; drives the MCP annotations and read-only mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Reads only.
    Read,
    /// Adds or changes data without destroying any.
    Write {
        /// Repeating the call with the same arguments changes nothing more.
        idempotent: bool,
    },
    /// Removes data.
    Destroy {
        /// Repeating the call with the same arguments changes nothing more.
        idempotent: bool,
    },
}

impl Effect {
    /// Whether the tool changes state.
    pub fn writes(self) -> bool {
        !matches!(self, Effect::Read)
    }
}

/// What every tool body receives.
pub struct ToolContext<'a> {
    /// The networks.
    pub registry: &'a NetworkRegistry,
    /// The caps every write checks before changing anything.
    pub limits: &'a crate::limits::Limits,
    /// Where a long call reports how far it is, and learns whether it was cancelled.
    pub progress: &'a Progress,
}

/// A progress sink: `(done, total, message)`.
pub type Report = dyn Fn(u64, u64, &str) + Send + Sync;

/// Progress reporting and cancellation for long calls (imports, large batches).
///
/// The MCP layer fills it from the request's `progressToken` and cancellation;
/// tool bodies call [`Progress::report`] as they go and [`Progress::check`] before
/// they apply anything, so a cancelled call changes nothing.
#[derive(Default)]
pub struct Progress {
    report: Option<Box<Report>>,
    cancel: Option<tokio_util::sync::CancellationToken>,
}

impl Progress {
    /// No reporting, never cancelled.
    pub const NONE: Progress = Progress {
        report: None,
        cancel: None,
    };

    /// Reports to `report(done, total, message)` and observes `cancel`.
    pub fn new(
        report: Option<Box<Report>>,
        cancel: Option<tokio_util::sync::CancellationToken>,
    ) -> Self {
        Progress { report, cancel }
    }

    /// Whether anyone listens to [`Progress::report`].
    pub fn is_reported(&self) -> bool {
        self.report.is_some()
    }

    /// Says that `done` of `total` units are finished.
    pub fn report(&self, done: u64, total: u64, message: &str) {
        if let Some(report) = &self.report {
            report(done, total, message);
        }
    }

    /// Fails with [`Error::Cancelled`] if the client cancelled the request.
    pub fn check(&self, operation: &str) -> Result<()> {
        match &self.cancel {
            Some(token) if token.is_cancelled() => Err(Error::Cancelled {
                operation: operation.to_string(),
            }),
            _ => Ok(()),
        }
    }
}

type Handler = dyn Fn(&ToolContext<'_>, &Value) -> Result<Value> + Send + Sync;

/// One tool: its published description and its body.
pub struct ToolDef {
    /// The MCP tool as published in `tools/list`.
    pub tool: Tool,
    /// Its group.
    pub toolset: Toolset,
    /// What it does to the state.
    pub effect: Effect,
    /// Whether a call can run long (see [`ToolMeta::long_running`]).
    pub long_running: bool,
    handler: Box<Handler>,
}

/// The static facts of a tool, written next to its body.
pub struct ToolMeta {
    /// `network_*` name.
    pub name: &'static str,
    /// Short human title.
    pub title: &'static str,
    /// The LLM-facing description.
    pub description: &'static str,
    /// Its group.
    pub toolset: Toolset,
    /// What it does to the state.
    pub effect: Effect,
    /// Whether a call can run long (a large import or batch): it then runs off the
    /// async workers and observes cancellation even without a progress token.
    pub long_running: bool,
}

impl ToolDef {
    /// Builds a tool from its facts and a typed body.
    pub fn new<P, O>(meta: ToolMeta, body: fn(&ToolContext<'_>, P) -> Result<O>) -> Self
    where
        P: DeserializeOwned + JsonSchema + 'static,
        O: Serialize + JsonSchema + 'static,
    {
        let input_schema = Arc::new(schema::tidy_input(
            rmcp::handler::server::common::schema_for_type::<P>()
                .as_ref()
                .clone(),
        ));
        let output_schema = Arc::new(schema::success_or_error(
            rmcp::handler::server::common::schema_for_output::<O>()
                .as_ref()
                .clone(),
        ));
        let expected = describe_parameters(&input_schema);
        let name = meta.name;
        let handler = move |ctx: &ToolContext<'_>, arguments: &Value| -> Result<Value> {
            let params: P = decode(name, &expected, arguments)?;
            let output = body(ctx, params)?;
            serde_json::to_value(output).map_err(|e| Error::Internal {
                message: format!("could not encode the result of {name}: {e}"),
            })
        };
        let (read_only, destructive, idempotent) = match meta.effect {
            Effect::Read => (true, false, true),
            Effect::Write { idempotent } => (false, false, idempotent),
            Effect::Destroy { idempotent } => (false, true, idempotent),
        };
        let annotations = ToolAnnotations::with_title(meta.title)
            .read_only(read_only)
            .destructive(destructive)
            .idempotent(idempotent)
            .open_world(false);
        let mut tool = Tool::new(meta.name, meta.description, input_schema);
        tool.title = Some(meta.title.to_string());
        tool.output_schema = Some(output_schema);
        tool.annotations = Some(annotations);
        ToolDef {
            tool,
            toolset: meta.toolset,
            effect: meta.effect,
            long_running: meta.long_running,
            handler: Box::new(handler),
        }
    }

    /// Adds an entry to the tool's published `_meta` (e.g. `ui` for an MCP Apps view).
    pub fn with_meta(mut self, key: &str, value: Value) -> Self {
        let mut meta = self.tool.meta.take().map(|m| m.0).unwrap_or_default();
        meta.insert(key.into(), value);
        self.tool.meta = Some(rmcp::model::MetaObject(meta));
        self
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.tool.name
    }

    /// Decodes `arguments` and runs the body. The arguments are borrowed: a caller
    /// keeps them for the journal and the audit log without copying them.
    pub fn call(&self, ctx: &ToolContext<'_>, arguments: &Value) -> Result<Value> {
        (self.handler)(ctx, arguments)
    }
}

/// Decodes tool arguments, turning every serde failure into an `invalid_arguments`
/// error that names the field and lists the expected parameters.
fn decode<P: DeserializeOwned>(tool: &str, expected: &str, arguments: &Value) -> Result<P> {
    let empty;
    let arguments = match arguments {
        Value::Null => {
            empty = Value::Object(Map::new());
            &empty
        }
        object @ Value::Object(_) => object,
        other => {
            return Err(Error::InvalidArguments {
                message: format!(
                    "invalid arguments for {tool}: they must be a JSON object of named parameters, not {other}. Expected parameters: {expected}."
                ),
                field: None,
            });
        }
    };
    serde_path_to_error::deserialize(arguments).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        let field = if path == "." {
            field_named_in(&inner)
        } else {
            Some(path.clone())
        };
        let location = if path == "." {
            String::new()
        } else {
            format!("{path}: ")
        };
        Error::InvalidArguments {
            message: format!(
                "invalid arguments for {tool}: {location}{inner}. Expected parameters: {expected}."
            ),
            field,
        }
    })
}

/// serde names a missing or unknown field in backticks: "missing field `node_id`".
fn field_named_in(message: &str) -> Option<String> {
    let start = message.find('`')? + 1;
    let len = message[start..].find('`')?;
    Some(message[start..start + len].to_string())
}

/// "network_name (string, required), weight (number, optional)" from an input schema.
fn describe_parameters(schema: &Arc<JsonObject>) -> String {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return "none".to_string();
    };
    if properties.is_empty() {
        return "none".to_string();
    }
    properties
        .iter()
        .map(|(name, property)| {
            let kind = type_word(property);
            let need = if required.contains(&name.as_str()) {
                "required"
            } else {
                "optional"
            };
            format!("{name} ({kind}, {need})")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn type_word(property: &Value) -> String {
    let types: Vec<&str> = match property.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect(),
        _ => Vec::new(),
    };
    if let Some(values) = property.get("enum").and_then(Value::as_array) {
        let words: Vec<String> = values
            .iter()
            .filter_map(Value::as_str)
            .map(|v| format!("\"{v}\""))
            .collect();
        return words.join(" | ");
    }
    if types.is_empty() {
        if property.get("$ref").is_some() || property.get("anyOf").is_some() {
            return "see schema".to_string();
        }
        return "any JSON".to_string();
    }
    types.join(" or ")
}
