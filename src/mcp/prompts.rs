//! MCP prompts: our best practice for the jobs agents most often bring, as
//! ready-made instructions that name the tools to call in order. A prompt that
//! needs an opt-in toolset is offered only when that toolset is.

use rmcp::ErrorData;
use rmcp::model::{
    GetPromptResult, JsonObject, ListPromptsResult, Prompt, PromptArgument, PromptMessage, Role,
};
use serde_json::json;

use super::tool::Toolset;

struct PromptDef {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    /// (name, description, required)
    arguments: &'static [(&'static str, &'static str, bool)],
    render: fn(&Args<'_>) -> String,
    /// The opt-in toolset whose tools it uses, if any.
    needs: Option<Toolset>,
}

/// A prompt's arguments, with defaults for the optional ones, and the toolsets
/// the server offers (a prompt names only tools the caller has).
struct Args<'a> {
    values: &'a JsonObject,
    toolsets: &'a std::collections::BTreeSet<Toolset>,
}

impl Args<'_> {
    fn get(&self, name: &str) -> Option<&str> {
        self.values
            .get(name)
            .and_then(|v| v.as_str())
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }

    fn or<'a>(&'a self, name: &str, default: &'a str) -> &'a str {
        self.get(name).unwrap_or(default)
    }

    /// `text` when the server offers `toolset`, else nothing.
    fn with(&self, toolset: Toolset, text: String) -> String {
        if self.toolsets.contains(&toolset) {
            text
        } else {
            String::new()
        }
    }
}

const PROMPTS: &[PromptDef] = &[
    PromptDef {
        name: "plan_dependencies",
        title: "Plan a goal as a dependency graph",
        description: "Turn a goal into a depends-on graph of steps with networks-mcp, check it for cycles, then get the order of work, the parallel batches, the critical path and what can start now.",
        arguments: &[
            (
                "goal",
                "What should be achieved, in a sentence or a paragraph.",
                true,
            ),
            (
                "network_name",
                "Name of the network to build the plan in (default: plan).",
                false,
            ),
        ],
        render: plan_dependencies,
        needs: None,
    },
    PromptDef {
        name: "impact_analysis",
        title: "What breaks if this changes",
        description: "Find everything that depends, directly or transitively, on one node of a depends-on network, nearest first, and summarise the risk of changing it.",
        arguments: &[
            ("network_name", "The network to analyse.", true),
            ("node_id", "The node that will change.", true),
        ],
        render: impact_analysis,
        needs: None,
    },
    PromptDef {
        name: "untangle_cycles",
        title: "Find and break dependency cycles",
        description: "List every dependency cycle of a network and propose the fewest edges to remove so that the work can be ordered.",
        arguments: &[("network_name", "The network to check.", true)],
        render: untangle_cycles,
        needs: None,
    },
    PromptDef {
        name: "execute_plan",
        title: "Work through a shared plan as one of several workers",
        description: "The loop a worker follows to execute a plan network together with other workers: claim ready tasks, do them, complete or release them, renew long ones, until every task is done.",
        arguments: &[
            ("network_name", "The plan to execute.", true),
            (
                "worker",
                "Your worker id, unique among the workers (e.g. agent-3).",
                true,
            ),
        ],
        render: execute_plan,
        needs: Some(Toolset::Work),
    },
];

fn plan_dependencies(args: &Args<'_>) -> String {
    let goal = args.or("goal", "");
    let network = args.or("network_name", "plan");
    format!(
        r#"Plan this goal as a dependency graph with the networks-mcp tools:

GOAL: {goal}

Convention: an edge A -> B means "A depends on B" (B must be done before A).

1. network_create with network_name "{network}" and a one-line description of the goal.
2. Break the goal into concrete steps (5 to 50). Add them in ONE call to network_add_nodes: short stable ids such as "design_schema", attributes {{"status": "todo", "estimate_hours": <number>}} and a sentence in data.
3. Add every dependency in ONE call to network_add_edges: source = the step that depends, target = the step it needs. Use the target's estimate as weight if you want a critical path in hours.
4. network_find_cycles. If is_dag is false, the plan cannot be ordered: remove or reverse the edge that is wrong (network_remove_edge) and check again.
5. network_topological_sort with reverse: true. Each layer is a batch of steps that can run in parallel; present the layers in order.
6. network_critical_path: the chain that sets the least total time.
7. network_ready_nodes with done_attributes {{"status": "done"}}: what can start now. As work finishes, mark it with network_update_nodes (one call for all that finished: updates [{{"node_id": ..., "attributes": {{"status": "done"}}}}]) and ask again.

Answer with the layers, the critical path and the first steps to start. Quote node ids exactly as stored."#
    )
}

fn impact_analysis(args: &Args<'_>) -> String {
    let network = args.or("network_name", "");
    let node = args.or("node_id", "");
    let structure = args.with(
        Toolset::Algorithms,
        format!(
            r#"
5. network_structure with method "articulation_points": is "{node}" a single point of failure (its loss splits the network)? With method "dominators", root "{node}" and a target it relies on: the nodes every dependency chain between them passes, the single points of failure between the two. network_centrality with measure "betweenness": is it a bottleneck many chains go through?
6. network_query for questions the other tools do not answer directly, in read-only Cypher (an edge's type is its relation): e.g. query "MATCH (d)-[*1..3]->(n {{id: $id}}) WHERE d.status <> 'done' RETURN DISTINCT d.id, d.status" with parameters {{"id": "{node}"}} lists the dependents within three hops that are not done."#
        ),
    );
    format!(
        r#"Assess what breaks if "{node}" changes in network "{network}", with the networks-mcp tools.

Convention: an edge A -> B means "A depends on B", so everything that depends on "{node}" is found by walking edges backwards from it.

1. network_get_node for "{node}": its data, attributes and degrees. If it is not found, the error lists close ids; pick the right one.
2. network_ancestors of "{node}": every node that depends on it, directly (depth 1) or transitively, nearest first. If truncated is true, fetch the next page with cursor set to next_cursor, or summarise by depth and total.
3. network_get_neighbors with direction "in" for the direct dependents, and network_get_node on the most important ones.
4. network_descendants of "{node}" if you also need what it relies on itself.{structure}

Report: the direct dependents, the total number affected, the longest chain of impact (greatest depth), and which affected nodes look critical (high in-degree, a single point of failure, or attributes that say so). Quote node ids exactly as stored."#
    )
}

fn untangle_cycles(args: &Args<'_>) -> String {
    let network = args.or("network_name", "");
    let condensation = args.with(
        Toolset::Algorithms,
        r#"
If the cycles must stay: network_copy with method "condensation" makes a network with one node per cycle (its data lists the members), which network_topological_sort can order."#
            .to_string(),
    );
    format!(
        r#"Find and break the dependency cycles of network "{network}" with the networks-mcp tools.

Convention: an edge A -> B means "A depends on B"; a cycle means no valid order of work exists.

1. network_find_cycles: every group of nodes caught in a cycle, each with one concrete cycle. If is_dag is true, say so and stop.
2. For each cycle, read the edges involved (network_list_edges with node_id) and decide which dependency is wrong or weakest. Prefer removing one edge that lies on several cycles.
3. Propose the removals (edge ids and why) and ask before calling network_remove_edge, unless you were told to fix them.
4. After removing, run network_find_cycles again, then network_topological_sort with reverse: true to show the order that is now possible.{condensation}"#
    )
}

fn execute_plan(args: &Args<'_>) -> String {
    let network = args.or("network_name", "");
    let worker = args.or("worker", "");
    let ready = super::resources::ready_uri(network);
    format!(
        r#"You are worker "{worker}", one of several workers executing the plan in network "{network}" together, with the networks-mcp tools. Each task is a node; an edge A -> B means "A needs B first". A task is done when its attribute status is "done".

Repeat:
1. network_claim_ready with network_name "{network}", worker "{worker}", limit 1 and lease_seconds a little longer than a task takes you (default 600). The tasks in claimed are yours alone: no other worker gets them while the lease holds.
2. If claimed is empty: if finished is true, every task is done: stop. If note says the plan has a dependency cycle, stop and report it. Otherwise other workers hold the tasks the rest waits on: wait (a client subscribed to the resource {ready} is told when tasks become ready; else wait until waiting.next_lease_end_ms) and go to 1.
3. Do the task: its data and attributes say what it is. If it takes longer than the lease, call network_renew_claim with node_ids [the task] before the lease ends (lease_expires_ms, milliseconds since the Unix epoch; now_ms is the server's time).
4. When it is done, network_complete_claim with node_ids [the task]. newly_ready lists the tasks this unblocked. If you cannot finish it, network_release_claim gives it back at once.
5. An error claim_not_held means your lease ran out and another worker took the task: drop it and go to 1.

network_plan_progress shows how far the plan is: done, claimed, ready, blocked, who holds what, and what is left of the critical path. Quote node ids exactly as stored."#
    )
}

/// `prompts/list`: the prompts whose tools are among `toolsets`.
pub fn list(toolsets: &std::collections::BTreeSet<Toolset>) -> ListPromptsResult {
    let prompts = PROMPTS
        .iter()
        .filter(|p| p.needs.is_none_or(|t| toolsets.contains(&t)))
        .map(|p| {
            let arguments = p
                .arguments
                .iter()
                .map(|(name, description, required)| {
                    PromptArgument::new(*name)
                        .with_description(*description)
                        .with_required(*required)
                })
                .collect();
            Prompt::new(p.name, Some(p.description), Some(arguments)).with_title(p.title)
        })
        .collect();
    ListPromptsResult::with_all_items(prompts)
}

/// `prompts/get`: the prompt with its arguments filled in, or an error naming
/// the unknown prompt or the missing argument.
pub fn get(
    name: &str,
    arguments: Option<&JsonObject>,
    toolsets: &std::collections::BTreeSet<Toolset>,
) -> Result<GetPromptResult, ErrorData> {
    let offered = |p: &&PromptDef| p.needs.is_none_or(|t| toolsets.contains(&t));
    let Some(prompt) = PROMPTS.iter().filter(offered).find(|p| p.name == name) else {
        let names: Vec<&str> = PROMPTS.iter().filter(offered).map(|p| p.name).collect();
        return Err(ErrorData::invalid_params(
            format!(
                "unknown prompt '{name}'. Available prompts: {}.",
                names.join(", ")
            ),
            Some(json!({ "available": names })),
        ));
    };
    let empty = JsonObject::new();
    let args = Args {
        values: arguments.unwrap_or(&empty),
        toolsets,
    };
    for (argument, _, required) in prompt.arguments {
        if *required && args.get(argument).is_none() {
            return Err(ErrorData::invalid_params(
                format!("prompt '{name}' needs the argument '{argument}' (a non-empty string)."),
                Some(json!({ "argument": argument })),
            ));
        }
    }
    let text = (prompt.render)(&args);
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(prompt.description),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::ContentBlock;

    fn all() -> std::collections::BTreeSet<Toolset> {
        Toolset::ALL.into_iter().collect()
    }

    fn get(name: &str, arguments: Option<&JsonObject>) -> Result<GetPromptResult, ErrorData> {
        super::get(name, arguments, &all())
    }

    fn text(result: &GetPromptResult) -> String {
        match &result.messages[0].content {
            ContentBlock::Text(t) => t.text.clone(),
            other => panic!("expected text, got {other:?}"),
        }
    }

    #[test]
    fn prompts_fill_in_their_arguments_and_name_existing_tools() {
        let tools: Vec<String> = crate::mcp::tools::all()
            .iter()
            .map(|t| t.name().to_string())
            .collect();
        let mut args = JsonObject::new();
        args.insert("goal".into(), json!("ship the release"));
        args.insert("network_name".into(), json!("release"));
        args.insert("node_id".into(), json!("logging"));
        args.insert("worker".into(), json!("agent-3"));
        for prompt in PROMPTS {
            let result = get(prompt.name, Some(&args)).expect("renders");
            let body = text(&result);
            let mentioned: Vec<&str> = body
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| w.starts_with("network_") && *w != "network_name")
                .collect();
            assert!(!mentioned.is_empty(), "{} names tools", prompt.name);
            for tool in mentioned {
                assert!(
                    tools.iter().any(|t| t == tool),
                    "{} mentions unknown tool {tool}",
                    prompt.name
                );
            }
        }
        assert!(text(&get("plan_dependencies", Some(&args)).unwrap()).contains("ship the release"));
        assert!(text(&get("impact_analysis", Some(&args)).unwrap()).contains("\"logging\""));
        assert!(text(&get("execute_plan", Some(&args)).unwrap()).contains("worker \"agent-3\""));
    }

    #[test]
    fn a_prompt_for_an_opt_in_toolset_is_offered_only_with_it() {
        let default: std::collections::BTreeSet<Toolset> = Toolset::DEFAULT.into_iter().collect();
        let names = |toolsets| -> Vec<String> {
            list(toolsets)
                .prompts
                .iter()
                .map(|p| p.name.clone())
                .collect()
        };
        assert!(!names(&default).contains(&"execute_plan".to_string()));
        assert!(names(&all()).contains(&"execute_plan".to_string()));
        let mut args = JsonObject::new();
        args.insert("network_name".into(), json!("plan"));
        args.insert("worker".into(), json!("w1"));
        assert!(super::get("execute_plan", Some(&args), &default).is_err());
    }

    #[test]
    fn a_missing_argument_or_unknown_prompt_is_a_clear_error() {
        let error = get("impact_analysis", None).unwrap_err();
        assert!(error.message.contains("network_name"), "{}", error.message);
        let error = get("nope", None).unwrap_err();
        assert!(error.message.contains("plan_dependencies"));
    }

    #[test]
    fn prompts_name_the_algorithm_tools_only_when_they_are_offered() {
        let mut args = JsonObject::new();
        args.insert("network_name".into(), json!("deps"));
        args.insert("node_id".into(), json!("logging"));
        let default: std::collections::BTreeSet<Toolset> = Toolset::DEFAULT.into_iter().collect();
        for (prompt, tool) in [
            ("impact_analysis", "network_structure"),
            ("impact_analysis", "network_query"),
            ("untangle_cycles", "network_copy"),
        ] {
            let with = text(&get(prompt, Some(&args)).unwrap());
            let without = text(&super::get(prompt, Some(&args), &default).unwrap());
            assert!(with.contains(tool), "{prompt} with every toolset");
            assert!(
                !without.contains(tool),
                "{prompt} with the default toolsets"
            );
        }
    }
}
