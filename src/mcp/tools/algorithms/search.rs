//! `network_search`: find nodes by id or attribute text, exact or fuzzy
//! ([`crate::network::search`]), best match first, with cursors.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::MAX_SCORES_LIMIT;
use crate::error::{Error, Result};
use crate::mcp::answers::{AnswerKey, Weigh, answer, vec_bytes};
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{
    Paging, Success, check_limit, flat_attributes_schema, no_attributes,
};
use crate::network::search::{Match, SearchFields, SearchMode, SearchOptions, normalize};
use crate::network::{NodeFilter, validate};

/// The longest matched text a match shows, in characters.
const MAX_TEXT_CHARS: usize = 200;
/// The most attribute names one search may name.
const MAX_FIELDS: usize = 64;

fn default_search_limit() -> usize {
    20
}

/// How `network_search` compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SearchModeParam {
    /// Case-insensitive substring.
    #[default]
    Substring,
    /// Closest by edit distance.
    Fuzzy,
}

/// Parameters of `network_search`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    pub query: String,
    /// substring: ignoring case and Unicode forms. fuzzy: within max_distance edits (typos), closest first.
    #[serde(default)]
    pub mode: SearchModeParam,
    /// Search the id and these attributes (default: all text).
    #[serde(default)]
    pub in_attributes: Option<Vec<String>>,
    /// Only nodes with all these attribute values, e.g. {"status": "todo"}.
    #[serde(default = "no_attributes")]
    #[schemars(schema_with = "flat_attributes_schema")]
    pub attributes: Map<String, Value>,
    /// fuzzy: most edits a match may need (default: query length / 3).
    #[serde(default)]
    pub max_distance: Option<usize>,
    /// Matches per page.
    #[serde(default = "default_search_limit")]
    #[schemars(range(min = 1, max = MAX_SCORES_LIMIT))]
    pub limit: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// One node found.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct MatchOut {
    /// The node ID.
    pub node_id: String,
    /// Where it matched: "id" or "attributes.<name>".
    pub field: String,
    /// That field's text (its first 200 characters).
    pub text: String,
    /// Edits between the query and the closest part of the text (0: contains it).
    pub edit_distance: usize,
}

/// Result of `network_search`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct SearchOutput {
    /// "success" (also when nothing matched: `matches` is empty).
    pub status: Success,
    /// This page of the nodes found, closest first (ties in insertion order), each once.
    pub matches: Vec<MatchOut>,
    /// How many nodes match in all.
    pub total: usize,
    /// When nothing matched: how to look further.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

/// What to try when a search found nothing.
fn nothing_found(p: &SearchParams) -> String {
    match p.mode {
        SearchModeParam::Substring => "No searched text contains the query. Try mode \"fuzzy\" for typos and half-remembered names, or in_attributes to search other attributes.".to_string(),
        SearchModeParam::Fuzzy => {
            // The core's default bound: a third of the normalised query's length.
            let bound = p
                .max_distance
                .unwrap_or_else(|| normalize(&p.query).chars().count() / 3);
            format!(
                "No searched text is within {bound} edits of the query. Raise max_distance (e.g. to {}) to look further.",
                bound + 1
            )
        }
    }
}

/// `text` cut to a bounded length.
fn shown(text: &str) -> String {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// The matches, best first, as kept between pages ([`crate::mcp::answers`]):
/// a page then costs O(limit), not a pass over every node's text.
struct Found(Vec<Match>);

impl Weigh for Found {
    fn bytes(&self) -> usize {
        let names: usize = self
            .0
            .iter()
            .filter_map(|m| m.field.as_ref())
            .map(String::capacity)
            .sum();
        std::mem::size_of::<Self>() + vec_bytes(&self.0) + names
    }
}

fn search(ctx: &ToolContext<'_>, p: SearchParams) -> Result<SearchOutput> {
    let limit = check_limit(p.limit, MAX_SCORES_LIMIT)?;
    validate::attributes("attributes", &p.attributes)?;
    if let Some(names) = &p.in_attributes
        && names.len() > MAX_FIELDS
    {
        return Err(Error::InvalidValue {
            field: "in_attributes".into(),
            reason: format!(
                "{} attribute names given; name at most {MAX_FIELDS}, or leave it out to search every text attribute",
                names.len()
            ),
        });
    }
    if p.max_distance.is_some() && p.mode != SearchModeParam::Fuzzy {
        return Err(Error::InvalidValue {
            field: "max_distance".into(),
            reason: "max_distance applies to mode \"fuzzy\" only; set mode to \"fuzzy\" or leave max_distance out".into(),
        });
    }
    ctx.registry.read(&p.network_name, |net| {
        let query = (
            &p.query,
            p.mode,
            &p.in_attributes,
            &p.attributes,
            p.max_distance,
        );
        let page = Page::open(
            ctx,
            net,
            "network_search",
            query,
            p.cursor.as_deref(),
            limit,
            MAX_SCORES_LIMIT,
        )?;
        let filter = (!p.attributes.is_empty()).then(|| NodeFilter {
            attributes: p.attributes.clone(),
            ..NodeFilter::default()
        });
        // Searched once for all pages while the network stays as it is.
        let key = AnswerKey::new("network_search", &[net], query);
        let found = answer(ctx, key, || {
            net.search(&SearchOptions {
                query: &p.query,
                mode: match p.mode {
                    SearchModeParam::Substring => SearchMode::Substring,
                    SearchModeParam::Fuzzy => SearchMode::Fuzzy,
                },
                fields: match &p.in_attributes {
                    Some(names) => SearchFields::These(names),
                    None => SearchFields::All,
                },
                max_distance: p.max_distance,
                filter: filter.as_ref(),
            })
            .map(Found)
        })?;
        if found.0.is_empty() {
            if let Some(names) = &p.in_attributes {
                crate::mcp::tools::unmatched::warn_unknown_keys(net, "in_attributes", names);
            }
            crate::mcp::tools::unmatched::warn_unmatched_attributes(
                net,
                "attributes",
                &p.attributes,
            );
        }
        let listed: Vec<MatchOut> = page.fill(page.slice(&found.0).iter().map(|m| {
            MatchOut {
                node_id: net.id_at(m.node).to_string(),
                field: m
                    .field
                    .as_ref()
                    .map_or_else(|| "id".to_string(), |name| format!("attributes.{name}")),
                text: shown(&m.text(net).unwrap_or_default()),
                edit_distance: m.distance,
            }
        }));
        let total = found.0.len();
        let paging = Paging::of_total(&page, listed.len(), total);
        found.keep_if(paging.next_cursor.is_some());
        Ok(SearchOutput {
            status: Success::Success,
            note: (total == 0).then(|| nothing_found(&p)),
            paging,
            matches: listed,
            total,
        })
    })
}

/// `network_search`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_search",
            title: "Search nodes",
            description: "Find nodes whose ID or attribute text contains a query (see mode), optionally filtered by exact attribute values.",
            toolset: Toolset::Algorithms,
            effect: Effect::Read,
            long_running: true,
        },
        search,
    )
}
