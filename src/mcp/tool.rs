//! The tool table: how one tool is described (name, prompt text, schemas,
//! annotations, toolset) and how its arguments are decoded and its result encoded.
//!
//! Every tool is a plain function `fn(&ToolContext, Params) -> Result<Output>`. The
//! [`ToolDef::new`] wrapper decodes the arguments itself (so malformed arguments get
//! our error object, not rmcp's plain-text message) and serialises the output.

use std::borrow::Cow;
use std::cell::Cell;
use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::schema;
use crate::clock::{Clock, SystemClock};
use crate::error::{Error, Result};
use crate::network::Network;
use crate::registry::NetworkRegistry;

/// The groups that `--toolsets` selects from, and `network_toolsets` turns on.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    clap::ValueEnum,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Toolset {
    /// The seed tools and the registry tools: create, list, delete, add node/edge, neighbors.
    Core,
    /// Editing and batch loading.
    Edit,
    /// Questions about the graph: traversal, order, paths, cycles, readiness.
    Analysis,
    /// Import and export in other formats: Mermaid, DOT, NetworkX, GraphML, Cypher, CSV.
    Interchange,
    /// Several workers executing one plan: claim ready tasks under leases,
    /// complete, release, renew, progress. Opt-in: offered only when named.
    Work,
    /// What the peer graph servers answer: centrality, communities, all and k
    /// shortest paths, structure (redundant edges, dominators, single points of
    /// failure), search, diff and copies. Opt-in.
    Algorithms,
}

impl Toolset {
    /// Every toolset, in listing order.
    pub const ALL: [Toolset; 6] = [
        Toolset::Core,
        Toolset::Edit,
        Toolset::Analysis,
        Toolset::Interchange,
        Toolset::Work,
        Toolset::Algorithms,
    ];

    /// What a single agent planning alone uses: all but the opt-in `work` and
    /// `algorithms` (`--toolsets core,edit,analysis,interchange`).
    pub const DEFAULT: [Toolset; 4] = [
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
            Toolset::Work => "work",
            Toolset::Algorithms => "algorithms",
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
    /// A write's `if_version`: the version the network must be at for the write
    /// to apply (see [`ToolContext::write`]).
    pub if_version: Option<u64>,
    /// The network's version right after this call's write, taken under the
    /// network's lock, so that it names exactly the state this write made.
    pub written: Cell<Option<u64>>,
    /// The server's clock (see [`ToolContext::now`]).
    pub clock: &'a dyn Clock,
    /// The time this call read from `clock`, once read: the journal records it.
    pub read_at: Cell<Option<u64>>,
    /// The server's answers kept for later pages (none in a replay or dry run).
    pub answers: Option<&'a super::answers::Answers>,
    /// Whether the call left every size parameter out ([`SIZE_PARAMETERS`]):
    /// its pages then stop at the default reply size
    /// ([`super::page::DEFAULT_REPLY_BYTES`]), not only at the reply bound.
    pub default_sized: bool,
    /// Where this call may read and write files (see `mcp::files`).
    pub files: Option<&'a super::files::Roots>,
    /// The document argument of a tool that reads one in place (see
    /// [`ToolDef::reads_document`]), lent from the call's arguments: a
    /// document of hundreds of megabytes is then not copied into the
    /// parameters, whose field is left empty.
    pub lent_document: Option<&'a str>,
}

impl<'a> ToolContext<'a> {
    /// A context with no `if_version`.
    pub fn new(
        registry: &'a NetworkRegistry,
        limits: &'a crate::limits::Limits,
        progress: &'a Progress,
    ) -> Self {
        ToolContext {
            registry,
            limits,
            progress,
            if_version: None,
            written: Cell::new(None),
            clock: &SystemClock,
            read_at: Cell::new(None),
            answers: None,
            default_sized: false,
            files: None,
            lent_document: None,
        }
    }

    /// The same context allowed to read and write files inside `roots`.
    pub(crate) fn with_files(self, roots: Option<&'a super::files::Roots>) -> Self {
        ToolContext {
            files: roots,
            ..self
        }
    }

    /// The same context keeping answers for later pages in `answers`.
    pub(crate) fn with_answers(self, answers: &'a super::answers::Answers) -> Self {
        ToolContext {
            answers: Some(answers),
            ..self
        }
    }

    /// The same context reading time from `clock`.
    pub fn with_clock(self, clock: &'a dyn Clock) -> Self {
        ToolContext { clock, ..self }
    }

    /// The current time in milliseconds since the Unix epoch, read once per call:
    /// every later read in the same call gives the same time, and the journal
    /// records it, so that a replay reads it again.
    pub fn now(&self) -> u64 {
        match self.read_at.get() {
            Some(now) => now,
            None => {
                let now = self.clock.now_ms();
                self.read_at.set(Some(now));
                now
            }
        }
    }

    /// Runs a write on network `name` under its lock: first the compare of
    /// compare-and-swap (the network must be at `if_version`, when one was given,
    /// else [`Error::VersionConflict`] and nothing changes), then `f`, then the
    /// version `f` left the network at is recorded for the reply.
    pub fn write<T>(&self, name: &str, f: impl FnOnce(&mut Network) -> Result<T>) -> Result<T> {
        self.registry.write(name, |net| {
            self.check_version(name, net)?;
            let out = f(net)?;
            self.written.set(Some(net.version()));
            Ok(out)
        })
    }

    /// [`Error::VersionConflict`] unless `net` is at the `if_version` asked for.
    pub fn check_version(&self, name: &str, net: &Network) -> Result<()> {
        match self.if_version {
            Some(expected) if expected != net.version() => Err(Error::VersionConflict {
                network: name.to_string(),
                expected,
                current: net.version(),
            }),
            _ => Ok(()),
        }
    }

    /// Records the version of network `name` as it is now, for a write that
    /// made or replaced the whole network (no other writer can hold it yet).
    pub fn record_version(&self, name: &str) {
        if let Ok(version) = self.registry.read(name, |net| Ok(net.version())) {
            self.written.set(Some(version));
        }
    }
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

/// The parameters that size a reply: a call that gives none of them gets a
/// reply of the default size ([`ToolContext::default_sized`]).
const SIZE_PARAMETERS: [&str; 4] = [
    "limit",
    "max_nodes_per_group",
    "list_limit",
    "blocked_limit",
];

type Handler = dyn Fn(&ToolContext<'_>, &Value, Option<&str>) -> Result<Value> + Send + Sync;

/// One tool: its published description and its body.
pub struct ToolDef {
    /// The MCP tool as published in `tools/list`.
    pub tool: Tool,
    /// Every parameter it accepts: the published ones and the attribute names
    /// the instructions explain once (see `schema::published`).
    pub accepted: Arc<JsonObject>,
    /// Its group.
    pub toolset: Toolset,
    /// What it does to the state.
    pub effect: Effect,
    /// Whether a call can run long (see [`ToolMeta::long_running`]).
    pub long_running: bool,
    /// The result field that holds a document (see [`ToolDef::with_document`]).
    pub document: Option<&'static str>,
    /// The argument that holds a document read in place (see
    /// [`ToolDef::reads_document`]).
    document_argument: Option<&'static str>,
    handler: Box<Handler>,
}

/// The tools whose calls may run where they were received
/// ([`ToolDef::runs_in_place`]).
const RUN_IN_PLACE: &[&str] = &[
    "network_add_node",
    "network_add_edge",
    "network_get_node",
    "network_get_neighbors",
    "network_update_node",
    "network_remove_edge",
    "network_list",
    "network_create",
    "network_changes",
    "network_claim_ready",
    "network_renew_claim",
    "network_release_claim",
    "network_complete_claim",
    "network_toolsets",
];

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
    /// Whether a call can run long (whole-graph analysis, an import, an export, a
    /// batch): it then runs on the compute pool's heavy lane, so that it never
    /// holds up the single reads and writes of the light lane (see `mcp::compute`).
    pub long_running: bool,
}

impl ToolDef {
    /// The compute lane its calls run on.
    pub(crate) fn lane(&self) -> super::compute::Lane {
        match self.long_running {
            true => super::compute::Lane::Heavy,
            false => super::compute::Lane::Light,
        }
    }

    /// Whether a call may run on the async runtime's own thread when the light
    /// lane is free ([`super::compute::ComputePool::run`]): the calls that read
    /// or write a bounded part of one network (a node, an edge, a page of
    /// neighbours or changes, a claim) and free nothing large. Deleting a
    /// network or a node frees memory in proportion to its size, so those take
    /// a thread of their own like every other call.
    pub(crate) fn runs_in_place(&self) -> bool {
        RUN_IN_PLACE.contains(&self.name())
    }

    /// Builds a tool from its facts and a typed body.
    pub fn new<P, O>(meta: ToolMeta, body: fn(&ToolContext<'_>, P) -> Result<O>) -> Self
    where
        P: DeserializeOwned + JsonSchema + 'static,
        O: Serialize + JsonSchema + 'static,
    {
        let mut input_schema = schema::tidy_input(
            rmcp::handler::server::common::schema_for_type::<P>()
                .as_ref()
                .clone(),
        );
        let mut output_schema = rmcp::handler::server::common::schema_for_output::<O>()
            .as_ref()
            .clone();
        if meta.effect.writes() {
            schema::add_versioning(&mut input_schema, &mut output_schema);
        }
        schema::add_warnings(&mut output_schema);
        let published = Arc::new(schema::published(&input_schema));
        let input_schema = Arc::new(input_schema);
        let output_schema = Arc::new(schema::success_or_error(output_schema));
        let expected = describe_parameters(&input_schema);
        let checked_schema = Arc::clone(&input_schema);
        let name = meta.name;
        let writes = meta.effect.writes();
        let handler = move |ctx: &ToolContext<'_>,
                            arguments: &Value,
                            lent_document: Option<&str>|
              -> Result<Value> {
            let (arguments, if_version) = match writes {
                true => take_if_version(name, &checked_schema, arguments)?,
                false => (Cow::Borrowed(arguments), None),
            };
            let params: P = decode(name, &checked_schema, &expected, &arguments)?;
            let outer = ctx;
            let ctx = ToolContext {
                registry: outer.registry,
                limits: outer.limits,
                progress: outer.progress,
                if_version: if_version.or(outer.if_version),
                written: Cell::new(None),
                clock: outer.clock,
                read_at: Cell::new(outer.read_at.get()),
                answers: outer.answers,
                default_sized: !SIZE_PARAMETERS.iter().any(|p| arguments.get(p).is_some()),
                files: outer.files,
                lent_document,
            };
            let (output, warnings) = crate::warnings::collect(|| body(&ctx, params));
            outer.read_at.set(ctx.read_at.get());
            let output = output?;
            let mut value = serde_json::to_value(output).map_err(|e| Error::Internal {
                message: format!("could not encode the result of {name}: {e}"),
            })?;
            if let Some(object) = value.as_object_mut() {
                if let Some(version) = ctx.written.get() {
                    object.insert("version".into(), Value::from(version));
                }
                if !warnings.is_empty() {
                    object.insert("warnings".into(), schema::warnings_value(&warnings));
                }
            }
            Ok(value)
        };
        let (read_only, destructive, idempotent) = match meta.effect {
            Effect::Read => (true, false, true),
            Effect::Write { idempotent } => (false, false, idempotent),
            Effect::Destroy { idempotent } => (false, true, idempotent),
        };
        // The title is the tool's own `title`; the annotations do not repeat it.
        // The destructive and idempotent hints mean something only for a tool
        // that writes (MCP: "meaningful only when readOnlyHint == false").
        let mut annotations = ToolAnnotations::new()
            .read_only(read_only)
            .open_world(false);
        if !read_only {
            annotations = annotations.destructive(destructive).idempotent(idempotent);
        }
        let mut tool = Tool::new(meta.name, meta.description, published);
        tool.title = Some(meta.title.to_string());
        tool.output_schema = Some(output_schema);
        tool.annotations = Some(annotations);
        ToolDef {
            tool,
            accepted: input_schema,
            toolset: meta.toolset,
            effect: meta.effect,
            long_running: meta.long_running,
            document: None,
            document_argument: None,
            handler: Box::new(handler),
        }
    }

    /// Says that the argument `field` holds a document (an import's
    /// `content`) that the body reads in place from
    /// [`ToolContext::lent_document`]: decoding the parameters would copy it
    /// (serde makes an owned string of a borrowed one), and a copy of a
    /// 500 MB document is 500 MB of fresh memory. The published schema is
    /// unchanged.
    pub fn reads_document(mut self, field: &'static str) -> Self {
        self.document_argument = Some(field);
        self
    }

    /// The arguments without the document argument, and the document, when
    /// the tool reads one in place and the call gives it as a string. Every
    /// other argument is small, so copying them is cheap.
    fn lend_document<'v>(&self, arguments: &'v Value) -> Option<(Value, &'v str)> {
        let field = self.document_argument?;
        let object = arguments.as_object()?;
        let document = object.get(field)?.as_str()?;
        let rest = object
            .iter()
            .filter(|(key, _)| key.as_str() != field)
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        Some((Value::Object(rest), document))
    }

    /// Adds an entry to the tool's published `_meta` (e.g. `ui` for an MCP Apps view).
    pub fn with_meta(mut self, key: &str, value: Value) -> Self {
        let mut meta = self.tool.meta.take().map(|m| m.0).unwrap_or_default();
        meta.insert(key.into(), value);
        self.tool.meta = Some(rmcp::model::MetaObject(meta));
        self
    }

    /// Says that the result's `field` is a document (an export), which MCP
    /// clients receive once: as an embedded resource block whose `uri` and
    /// `mimeType` are the result's `resource_uri` and `mime_type` fields, while
    /// `structuredContent` (and the first text block) carry the rest, its
    /// metadata. A large document is thus not sent twice. The published output
    /// schema lists the metadata only.
    pub fn with_document(mut self, field: &'static str) -> Self {
        self.document = Some(field);
        if let Some(schema) = self.tool.output_schema.as_mut() {
            let mut schema = (**schema).clone();
            if let Some(Value::Object(success)) = schema
                .get_mut("anyOf")
                .and_then(|branches| branches.get_mut(0))
            {
                if let Some(Value::Object(properties)) = success.get_mut("properties") {
                    properties.remove(field);
                }
                if let Some(Value::Array(required)) = success.get_mut("required") {
                    required.retain(|name| name != field);
                }
            }
            self.tool.output_schema = Some(Arc::new(schema));
        }
        self
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.tool.name
    }

    /// Decodes `arguments` and runs the body. The arguments are borrowed: a caller
    /// keeps them for the journal and the audit log without copying them.
    ///
    /// The last guard of `--max-reply-bytes`: a read whose reply, pages and items
    /// cut already, would still be larger is answered with `limit_exceeded`
    /// instead. A write is answered whatever its size, since it has been applied;
    /// its reply lists only what its input named.
    pub fn call(&self, ctx: &ToolContext<'_>, arguments: &Value) -> Result<Value> {
        let mut value = match self.lend_document(arguments) {
            Some((rest, document)) => (self.handler)(ctx, &rest, Some(document))?,
            None => (self.handler)(ctx, arguments, None)?,
        };
        if !self.effect.writes() {
            let bytes = self.reply_bytes(&mut value);
            if bytes > ctx.limits.max_reply_bytes {
                return Err(ctx.limits.reply_exceeded(self.name(), bytes));
            }
        }
        Ok(value)
    }

    /// The bytes `value` takes as a reply on the wire: its JSON twice (as
    /// `structuredContent` and as text), its document once (an embedded
    /// resource), and the JSON-RPC envelope around them.
    fn reply_bytes(&self, value: &mut Value) -> usize {
        let document = self
            .document
            .and_then(|field| Some((field, value.as_object_mut()?.remove(field)?)));
        let mut bytes =
            super::page::reply_bytes(&*value).saturating_add(super::page::ENVELOPE_BYTES);
        if let Some((field, document)) = document {
            let text = |key: &str| value.get(key).and_then(Value::as_str).unwrap_or_default();
            bytes = bytes.saturating_add(super::page::resource_bytes(
                document.as_str().unwrap_or_default(),
                text("resource_uri"),
                text("mime_type"),
            ));
            if let Some(object) = value.as_object_mut() {
                object.insert(field.into(), document);
            }
        }
        bytes
    }
}

/// Decodes tool arguments, turning every serde failure into an `invalid_arguments`
/// error that names the field and lists the expected parameters.
fn decode<P: DeserializeOwned>(
    tool: &str,
    schema: &JsonObject,
    expected: &str,
    arguments: &Value,
) -> Result<P> {
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
    let arguments = whole_numbers(tool, schema, arguments)?;
    serde_path_to_error::deserialize(arguments.as_ref()).map_err(|e| {
        let path = e.path().to_string();
        let inner = in_json_terms(&e.into_inner().to_string());
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

/// Checks every integer parameter against the `minimum` and `maximum` its
/// published schema states, so that the schema is the one statement of each range
/// and every range error reads the same, in JSON's terms. A float with no
/// fractional part (`10.0`) is the integer it equals; the arguments are copied
/// only when one is rewritten.
fn whole_numbers<'a>(
    tool: &str,
    schema: &JsonObject,
    arguments: &'a Value,
) -> Result<Cow<'a, Value>> {
    let (Some(properties), Value::Object(given)) = (
        schema.get("properties").and_then(Value::as_object),
        arguments,
    ) else {
        return Ok(Cow::Borrowed(arguments));
    };
    let mut rewritten: Option<Map<String, Value>> = None;
    for (name, value) in given {
        let Some(property) = properties.get(name) else {
            continue;
        };
        if property.get("type").and_then(Value::as_str) != Some("integer") {
            continue;
        }
        let minimum = property.get("minimum").and_then(Value::as_i64);
        let maximum = property.get("maximum").and_then(Value::as_u64);
        let range = match (minimum, maximum) {
            (Some(min), Some(max)) => format!("a whole number from {min} to {max}"),
            (Some(min), None) => format!("a whole number of at least {min}"),
            (None, Some(max)) => format!("a whole number of at most {max}"),
            (None, None) => "a whole number".to_string(),
        };
        let number = match value {
            Value::Number(number) => number,
            // An optional parameter may be null; serde says "none" for it.
            Value::Null => continue,
            other => {
                let shown = crate::error::clip(&other.to_string(), 80).into_owned();
                return Err(Error::InvalidArguments {
                    message: format!(
                        "invalid arguments for {tool}: {name} must be {range}, not {shown}"
                    ),
                    field: Some(name.clone()),
                });
            }
        };
        let whole: i128 = if let Some(i) = number.as_i64() {
            i128::from(i)
        } else if let Some(u) = number.as_u64() {
            i128::from(u)
        } else {
            match number.as_f64() {
                // `as` saturates: 1e300 becomes i128::MAX, out of every range.
                Some(f) if f.is_finite() && f.fract() == 0.0 => f as i128,
                _ => {
                    return Err(Error::InvalidValue {
                        field: name.clone(),
                        reason: format!("{number} is not {range}"),
                    });
                }
            }
        };
        let below = minimum.is_some_and(|min| whole < i128::from(min));
        let above = maximum.is_some_and(|max| whole > i128::from(max));
        if below || above {
            return Err(Error::InvalidValue {
                field: name.clone(),
                reason: format!("{number} is out of range; give {range}"),
            });
        }
        if number.is_f64() {
            let exact = match u64::try_from(whole) {
                Ok(u) => Value::from(u),
                Err(_) => match i64::try_from(whole) {
                    Ok(i) => Value::from(i),
                    Err(_) => {
                        return Err(Error::InvalidValue {
                            field: name.clone(),
                            reason: format!("{number} is out of range; give {range}"),
                        });
                    }
                },
            };
            rewritten
                .get_or_insert_with(|| given.clone())
                .insert(name.clone(), exact);
        }
    }
    Ok(match rewritten {
        Some(map) => Cow::Owned(Value::Object(map)),
        None => Cow::Borrowed(arguments),
    })
}

/// Splits a write's `if_version` from its other arguments (checked first against
/// the schema like every integer), so that the tool's own parameters stay strict.
fn take_if_version<'a>(
    tool: &str,
    schema: &JsonObject,
    arguments: &'a Value,
) -> Result<(Cow<'a, Value>, Option<u64>)> {
    let Some(given) = arguments.get(IF_VERSION) else {
        return Ok((Cow::Borrowed(arguments), None));
    };
    let version = match given {
        Value::Null => None,
        _ => {
            let alone = serde_json::json!({ IF_VERSION: given });
            let checked = whole_numbers(tool, schema, &alone)?;
            checked.get(IF_VERSION).and_then(Value::as_u64)
        }
    };
    let mut rest = arguments.clone();
    if let Some(object) = rest.as_object_mut() {
        object.remove(IF_VERSION);
    }
    Ok((Cow::Owned(rest), version))
}

/// The optional parameter of every write tool that makes it conditional.
pub const IF_VERSION: &str = "if_version";

/// serde's messages name Rust's types (`usize`, `f64`, "a sequence"); a client
/// speaks JSON.
fn in_json_terms(message: &str) -> String {
    const TERMS: [(&str, &str); 15] = [
        ("expected usize", "expected a whole number of at least 0"),
        ("expected u64", "expected a whole number of at least 0"),
        ("expected u32", "expected a whole number of at least 0"),
        ("expected i64", "expected a whole number"),
        ("expected f64", "expected a number"),
        ("expected f32", "expected a number"),
        ("expected a sequence", "expected an array"),
        ("expected a map", "expected an object"),
        ("invalid type: floating point", "invalid type: number"),
        ("invalid type: integer", "invalid type: number"),
        ("invalid type: sequence", "invalid type: array"),
        ("invalid type: map", "invalid type: object"),
        ("invalid type: unit value", "invalid type: null"),
        ("invalid value: integer", "invalid value: number"),
        ("expected struct ", "expected an object "),
    ];
    let mut message = message.to_string();
    for (rust, json) in TERMS {
        message = message.replace(rust, json);
    }
    message
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

#[cfg(test)]
mod tests {
    /// Every tool named in the list of calls that run in place exists: a
    /// misspelt name would quietly match no call.
    #[test]
    fn the_tools_that_run_in_place_are_real_tools() {
        // The tool table, and the session's own tool beside it.
        let mut names: Vec<String> = crate::mcp::tools::all()
            .iter()
            .map(|tool| tool.name().to_string())
            .collect();
        names.push(crate::mcp::toolsets::TOOL_NAME.to_string());
        for name in super::RUN_IN_PLACE {
            assert!(names.iter().any(|n| n == name), "no tool named {name}");
        }
    }
}
