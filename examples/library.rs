use networks_mcp::network::{Network, Order};

fn main() -> Result<(), networks_mcp::Error> {
    // A build plan: an edge `a -> b` says "a needs b first"; weights are hours.
    let mut plan = Network::new();
    for task in ["fetch", "compile", "test", "docs", "release"] {
        plan.add_node(task)?;
    }
    plan.add_edge("compile", "fetch", 1.0)?;
    plan.add_edge("test", "compile", 3.0)?;
    plan.add_edge("docs", "fetch", 2.0)?;
    plan.add_edge("release", "test", 1.0)?;
    plan.add_edge("release", "docs", 1.0)?;

    // What can run in parallel: dependencies first, one layer at a time.
    let build = plan.topological_sort(Order::Reverse)?;
    for (step, layer) in build.layers.iter().enumerate() {
        println!("step {step}: {:?}", plan.ids(layer));
    }
    // The chain of work that decides how long the whole plan takes.
    let critical = plan.critical_path()?;
    let hours = critical.total_weight;
    println!("critical: {:?}, {hours} h", plan.ids(&critical.nodes));
    Ok(())
}
