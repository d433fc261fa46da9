//! The team test: many workers execute one plan together through the work
//! tools, against the built binary over HTTP, and the run is checked.
//!
//! ```text
//! cargo run --release --example team -- --server target/release/networks-mcp
//!     [--tasks 10000] [--workers 16] [--dying 3] [--lease 3] [--durable] [--kills 2]
//!     [--routed]
//! cargo run --release --example team -- --server target/release/networks-mcp --bench
//! ```
//!
//! A random DAG plan of `--tasks` tasks is loaded; `--workers` threads, each its
//! own MCP session, loop: claim one task, complete it. `--dying` of them die
//! holding a claim, whose lease (`--lease` seconds) then runs out and another
//! worker takes the task. With `--durable` the server keeps a data directory and
//! is killed (SIGKILL) and restarted `--kills` times during the run; workers open
//! new sessions and carry on. Checked at the end, exiting non-zero otherwise:
//! - every task was completed exactly once;
//! - no task was claimed before all its prerequisites were done;
//! - no two live claims on one task at any moment (each claim began after the
//!   lease of the one before it ended, by the server's clock);
//! - the final state is the plan with every task done.
//!
//! `--routed` gives the tasks priorities (0 to 3, or none), one of two roles
//! (`backend`, `frontend`), and for some an exclusion group (one of 20), and adds
//! epics (parents of up to 20 tasks, one per 500); each worker has a role and
//! claims with `match_attributes` and `order: "priority"`, and half of them
//! complete parents with their last child. Checked besides:
//! - no epic claimed or completed before all its children were done;
//! - never two tasks of one exclusion group held at once (a claim's hold ends
//!   when its lease does or its completion was sent, whichever is first);
//! - no claim took a task while a more urgent one (a lower priority number)
//!   that its worker may do was certainly ready: every prerequisite's completion
//!   acknowledged before the claim was sent, nobody's claim on it yet, and its
//!   group free.
//!
//! `--bench` prints the figures of BENCHMARKS.md instead: tasks per second with
//! 1, 4 and 16 workers through `network_claim_ready`, and, for comparison, the
//! same with workers that claim by compare-and-swap (`network_ready_nodes`, then
//! `network_update_node` with `if_version` and `expect`) and the rate at which
//! those must retry on `version_conflict` or `precondition_failed`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Child;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "mcp_http/mod.rs"]
mod mcp_http;
use mcp_http::{Lost, Mcp, spawn};

/// A tool call as a well-behaved client makes it: a `server_busy` reply (the
/// network is held and enough calls already wait for it) is sent again after
/// the `retry_after_ms` it names; nothing was changed by the refused call.
fn patient(mcp: &mut Mcp, name: &str, arguments: Value) -> Result<Value, Lost> {
    loop {
        let reply = mcp.tool(name, arguments.clone())?;
        if reply["code"] != "server_busy" {
            return Ok(reply);
        }
        let wait = reply["retry_after_ms"].as_u64().unwrap_or(100).min(2_000);
        std::thread::sleep(Duration::from_millis(wait));
    }
}

const PLAN: &str = "plan";

#[derive(Clone)]
struct Args {
    server: PathBuf,
    tasks: usize,
    workers: usize,
    dying: usize,
    lease: u64,
    durable: bool,
    kills: usize,
    bench: bool,
    routed: bool,
    seed: u64,
}

fn args() -> Args {
    let mut args = Args {
        server: PathBuf::from("target/release/networks-mcp"),
        tasks: 10_000,
        workers: 16,
        dying: 3,
        lease: 3,
        durable: false,
        kills: 2,
        bench: false,
        routed: false,
        seed: 7,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--server" => args.server = PathBuf::from(value()),
            "--tasks" => args.tasks = value().parse().expect("--tasks N"),
            "--workers" => args.workers = value().parse().expect("--workers N"),
            "--dying" => args.dying = value().parse().expect("--dying N"),
            "--lease" => args.lease = value().parse().expect("--lease SECONDS"),
            "--kills" => args.kills = value().parse().expect("--kills N"),
            "--seed" => args.seed = value().parse().expect("--seed N"),
            "--durable" => args.durable = true,
            "--bench" => args.bench = true,
            "--routed" => args.routed = true,
            other => panic!("unknown option {other}"),
        }
    }
    args
}

// ---------------------------------------------------------------- the server

/// The binary serving HTTP; restartable on the same port.
struct Server {
    child: Child,
    port: u16,
    command: Vec<String>,
    bin: PathBuf,
}

impl Server {
    fn start(bin: &PathBuf, data_dir: Option<&PathBuf>) -> Server {
        let mut command = vec![
            "--toolsets".to_string(),
            "core,edit,analysis,work".to_string(),
            "--log-level".to_string(),
            "warn".to_string(),
        ];
        if let Some(dir) = data_dir {
            command.push("--data-dir".into());
            command.push(dir.display().to_string());
        }
        let (child, port) = spawn(bin, &command, 0);
        Server {
            child,
            port,
            command,
            bin: bin.clone(),
        }
    }

    fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// SIGKILL, then the same command on the same port.
    fn kill_and_restart(&mut self) -> Duration {
        self.child.kill().expect("SIGKILL the server");
        let _ = self.child.wait();
        let started = Instant::now();
        let (child, _) = spawn(&self.bin, &self.command, self.port);
        self.child = child;
        started.elapsed()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------- the plan

/// A random DAG: task i needs up to three earlier tasks, mostly recent ones,
/// so that the plan is both wide and deep.
fn random_plan(tasks: usize, seed: u64) -> Vec<Vec<usize>> {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    (0..tasks)
        .map(|i| {
            if i == 0 {
                return Vec::new();
            }
            let mut needs: Vec<usize> = (0..next() % 4)
                .map(|_| i - 1 - next() % i.min(200))
                .collect();
            needs.sort_unstable();
            needs.dedup();
            needs
        })
        .collect()
}

fn task_id(i: usize) -> String {
    format!("task-{i:05}")
}

/// What `--routed` adds to each task: its priority, its role (0 backend, 1
/// frontend), its exclusion group, and its parent; epics are the tasks past
/// the DAG, each the parent of up to 20 of its tasks.
#[derive(Clone, Default)]
struct Routing {
    priority: Vec<Option<u8>>,
    role: Vec<u8>,
    group: Vec<Option<usize>>,
    parent: Vec<Option<usize>>,
    /// Per task: its children (empty but for epics).
    children: Vec<Vec<usize>>,
}

const ROLES: [&str; 2] = ["backend", "frontend"];
const GROUPS: usize = 20;

/// Routes a plan of `tasks` DAG tasks, adding one epic per 500; returns the
/// routing and the plan's new size.
fn route(tasks: usize, seed: u64) -> Routing {
    let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let epics = tasks / 500;
    let total = tasks + epics;
    let mut routing = Routing {
        priority: Vec::with_capacity(total),
        role: Vec::with_capacity(total),
        group: Vec::with_capacity(total),
        parent: vec![None; total],
        children: vec![Vec::new(); total],
    };
    for i in 0..total {
        let epic = i >= tasks;
        routing.priority.push(match next() % 5 {
            4 => None,
            p if !epic => Some(p as u8),
            _ => None,
        });
        routing.role.push((next() % 2) as u8);
        routing
            .group
            .push((!epic && next() % 10 == 0).then(|| next() % GROUPS));
    }
    for e in tasks..total {
        for _ in 0..1 + next() % 20 {
            let child = next() % tasks;
            if routing.parent[child].is_none() {
                routing.parent[child] = Some(e);
                routing.children[e].push(child);
            }
        }
    }
    routing
}

fn load(mcp: &mut Mcp, needs: &[Vec<usize>], routing: Option<&Routing>) -> usize {
    mcp.ok("network_create", json!({"network_name": PLAN}));
    let total = routing.map_or(needs.len(), |r| r.role.len());
    for chunk in (0..total).collect::<Vec<_>>().chunks(10_000) {
        let nodes: Vec<Value> = chunk
            .iter()
            .map(|&i| {
                let mut attributes = json!({"status": "todo"});
                if let Some(r) = routing {
                    attributes["role"] = json!(ROLES[r.role[i] as usize]);
                    if let Some(p) = r.priority[i] {
                        attributes["priority"] = json!(p);
                    }
                    if let Some(g) = r.group[i] {
                        attributes["exclusion_group"] = json!(format!("db-{g}"));
                    }
                    if let Some(e) = r.parent[i] {
                        attributes["parent"] = json!(task_id(e));
                    }
                }
                json!({"node_id": task_id(i), "attributes": attributes})
            })
            .collect();
        mcp.ok(
            "network_add_nodes",
            json!({"network_name": PLAN, "nodes": nodes}),
        );
    }
    let edges: Vec<Value> = needs
        .iter()
        .enumerate()
        .flat_map(|(i, js)| {
            js.iter()
                .map(move |&j| json!({"source": task_id(i), "target": task_id(j)}))
        })
        .collect();
    for chunk in edges.chunks(10_000) {
        mcp.ok(
            "network_add_edges",
            json!({"network_name": PLAN, "edges": chunk}),
        );
    }
    edges.len()
}

// ---------------------------------------------------------------- the ledger

/// An acknowledged claim: `(worker, server time, lease end, wall time the
/// request was sent)`.
type ClaimSeen = (usize, u64, u64, u64);

/// A claim of a task: `(server time, wall time the request was sent, task)`.
type ClaimOf = (u64, u64, usize);

/// The wall clock in ms since the Unix epoch: the server's clock too (one machine).
fn wall_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

/// What the workers saw, to check the invariants against.
struct Ledger {
    /// Set before a completion is sent: the server can have it done only after.
    complete_sent: Vec<AtomicBool>,
    /// Completions acknowledged per task.
    completions: Vec<AtomicUsize>,
    /// Per task: when its completion was first sent, and acknowledged (wall
    /// ms; 0: not yet).
    sent_at: Vec<AtomicU64>,
    acked_at: Vec<AtomicU64>,
    /// Per task: the claims acknowledged.
    claims: Mutex<HashMap<usize, Vec<ClaimSeen>>>,
    violations: Mutex<Vec<String>>,
    done: AtomicUsize,
}

impl Ledger {
    fn new(tasks: usize) -> Ledger {
        Ledger {
            complete_sent: (0..tasks).map(|_| AtomicBool::new(false)).collect(),
            completions: (0..tasks).map(|_| AtomicUsize::new(0)).collect(),
            sent_at: (0..tasks).map(|_| AtomicU64::new(0)).collect(),
            acked_at: (0..tasks).map(|_| AtomicU64::new(0)).collect(),
            claims: Mutex::default(),
            violations: Mutex::default(),
            done: AtomicUsize::new(0),
        }
    }

    fn violation(&self, what: String) {
        let mut violations = self.violations.lock().unwrap();
        if violations.len() < 20 {
            eprintln!("VIOLATION: {what}");
        }
        violations.push(what);
    }

    fn claimed(&self, needs: &[Vec<usize>], task: usize, worker: usize, times: (u64, u64, u64)) {
        let (now, until, sent) = times;
        for &p in &needs[task] {
            if !self.complete_sent[p].load(Ordering::SeqCst) {
                self.violation(format!(
                    "{} claimed by worker {worker} before its prerequisite {} was done",
                    task_id(task),
                    task_id(p)
                ));
            }
        }
        let mut claims = self.claims.lock().unwrap();
        let list = claims.entry(task).or_default();
        if let Some(&(other, _, end, _)) = list.last()
            && end > now
        {
            self.violation(format!(
                "{} claimed by worker {worker} at {now} while worker {other}'s lease ran to {end}",
                task_id(task)
            ));
        }
        list.push((worker, now, until, sent));
    }

    fn completed(&self, task: usize) {
        self.completions[task].fetch_add(1, Ordering::SeqCst);
        let _ =
            self.acked_at[task].compare_exchange(0, wall_ms(), Ordering::SeqCst, Ordering::SeqCst);
        self.done.fetch_add(1, Ordering::SeqCst);
    }

    /// Sets the flag and time of a completion about to be sent.
    fn sending(&self, task: usize) {
        let _ =
            self.sent_at[task].compare_exchange(0, wall_ms(), Ordering::SeqCst, Ordering::SeqCst);
        self.complete_sent[task].store(true, Ordering::SeqCst);
    }

    /// The checks of `--routed` on the whole run: no two claims of one group
    /// at once, and no claim passed over a more urgent task its worker could
    /// surely take.
    fn check_routing(&self, routing: &Routing, needs: &[Vec<usize>]) {
        let claims = self.claims.lock().unwrap();
        // Each claim's hold: from its server time to its lease's end, or to
        // when its completion was sent if that was first (the last claim of a
        // task is the one that completed it).
        // Also the latest it can have ended: its completion's acknowledgement.
        let mut holds: Vec<Vec<(u64, u64, u64, usize)>> = vec![Vec::new(); GROUPS];
        for (&task, list) in claims.iter() {
            let Some(g) = routing.group[task] else {
                continue;
            };
            for (k, &(_, start, until, _)) in list.iter().enumerate() {
                let sent = self.sent_at[task].load(Ordering::SeqCst);
                let acked = self.acked_at[task].load(Ordering::SeqCst);
                let last = k + 1 == list.len();
                let end = if last && sent > 0 {
                    until.min(sent)
                } else {
                    until
                };
                let latest = if last && acked > 0 {
                    until.min(acked)
                } else {
                    until
                };
                holds[g].push((start, end, latest, task));
            }
        }
        for (g, list) in holds.iter_mut().enumerate() {
            list.sort_unstable();
            let mut held: Option<(u64, usize)> = None;
            for &(start, end, _, task) in list.iter() {
                if let Some((until, other)) = held
                    && start < until
                    && other != task
                {
                    self.violation(format!(
                        "{} claimed at {start} while {} of group db-{g} was held until {until}",
                        task_id(task),
                        task_id(other)
                    ));
                }
                if held.is_none_or(|(until, _)| end > until) {
                    held = Some((end, task));
                }
            }
        }
        // Per (role, priority): the claims, by server time.
        let rank = |t: usize| routing.priority[t].map_or(u64::from(u8::MAX), u64::from);
        let mut by_rank: HashMap<(u8, u64), Vec<ClaimOf>> = HashMap::new();
        for (&task, list) in claims.iter() {
            for &(worker, start, _, sent) in list {
                let role = (worker % 2) as u8;
                if routing.role[task] == role {
                    by_rank
                        .entry((role, rank(task)))
                        .or_default()
                        .push((start, sent, task));
                }
            }
        }
        for list in by_rank.values_mut() {
            list.sort_unstable();
        }
        let group_free_at = |g: usize, at: u64| {
            holds[g]
                .iter()
                .all(|&(start, _, latest, _)| !(start <= at && at <= latest))
        };
        for (x, prerequisites) in needs.iter().enumerate() {
            // Certainly ready from when its last prerequisite's completion was acknowledged...
            let mut ready_from = 0;
            let mut known = true;
            for &p in prerequisites {
                let at = self.acked_at[p].load(Ordering::SeqCst);
                known &= at > 0;
                ready_from = ready_from.max(at);
            }
            if !known {
                continue;
            }
            // ...until the first claim on it (or the end, for an epic completed with its children).
            let first_claim = claims
                .get(&x)
                .and_then(|l| l.iter().map(|c| c.1).min())
                .unwrap_or_else(|| self.sent_at[x].load(Ordering::SeqCst));
            let role = routing.role[x];
            for (&(r, p), list) in &by_rank {
                if r != role || p <= rank(x) {
                    continue;
                }
                let from = list.partition_point(|c| c.0 <= ready_from);
                for &(start, sent, task) in &list[from..] {
                    if start >= first_claim {
                        break;
                    }
                    if sent > ready_from && routing.group[x].is_none_or(|g| group_free_at(g, start))
                    {
                        self.violation(format!(
                            "{} (priority {p}) claimed at {start} while {} (priority {}) was ready for its role",
                            task_id(task),
                            task_id(x),
                            rank(x)
                        ));
                    }
                }
            }
        }
    }
}

fn index_of(node_id: &str) -> usize {
    node_id.trim_start_matches("task-").parse().unwrap()
}

// ---------------------------------------------------------------- workers

struct Team {
    needs: Vec<Vec<usize>>,
    routed: bool,
    ledger: Ledger,
    base: Arc<RwLock<String>>,
    lease: u64,
    claim_requests: AtomicU64,
}

/// Claims and completes until the plan is finished; a dying worker stops
/// holding its `die_after`-th claim.
fn worker(team: &Team, me: usize, die_after: Option<usize>) {
    let mut mcp = Mcp::new(Arc::clone(&team.base));
    let name = format!("worker-{me:02}");
    let mut claims = 0;
    let mut request = json!({"network_name": PLAN, "worker": name, "lease_seconds": team.lease});
    if team.routed {
        // Even workers are backend, odd frontend; half complete parents.
        request["match_attributes"] = json!({"role": ROLES[me % 2]});
        request["order"] = json!("priority");
    }
    let complete_parents = team.routed && me % 4 < 2;
    loop {
        team.claim_requests.fetch_add(1, Ordering::Relaxed);
        let sent = wall_ms();
        let reply = match patient(&mut mcp, "network_claim_ready", request.clone()) {
            Ok(reply) => reply,
            // The claim may have been applied: its task waits for its lease to run out.
            Err(Lost) => continue,
        };
        assert_eq!(reply["status"], "success", "claim: {reply}");
        let Some(task) = reply["claimed"][0]["node_id"].as_str().map(index_of) else {
            if reply["finished"] == true {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
            continue;
        };
        let now = reply["now_ms"].as_u64().unwrap();
        let until = reply["lease_expires_ms"].as_u64().unwrap();
        team.ledger
            .claimed(&team.needs, task, me, (now, until, sent));
        claims += 1;
        if die_after == Some(claims) {
            return;
        }
        team.ledger.sending(task);
        let mut lost_before = false;
        loop {
            match patient(
                &mut mcp,
                "network_complete_claim",
                json!({"network_name": PLAN, "worker": name, "node_ids": [task_id(task)],
                       "complete_parents": complete_parents}),
            ) {
                Ok(reply) if reply["status"] == "success" => {
                    for parent in reply["completed_parent_node_ids"]
                        .as_array()
                        .into_iter()
                        .flatten()
                    {
                        let parent = index_of(parent.as_str().unwrap());
                        team.ledger.complete_sent[parent].store(true, Ordering::SeqCst);
                        team.ledger.completed(parent);
                    }
                    let completed = reply["completed"].as_array().unwrap().len() == 1;
                    let repeated = reply["already_done"].as_array().unwrap().len() == 1;
                    if completed || (repeated && lost_before) {
                        team.ledger.completed(task);
                    } else {
                        team.ledger
                            .violation(format!("completing {} said {reply}", task_id(task)));
                    }
                    break;
                }
                // Only when the lease ran out (the server was away) and another
                // worker took the task: an acknowledged claim must survive a restart.
                Ok(reply) if reply["code"] == "claim_not_held" => {
                    let wall = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .unwrap()
                        .as_millis() as u64;
                    if wall < until {
                        team.ledger.violation(format!(
                            "{}: worker {me} lost its claim before its lease ended: {reply}",
                            task_id(task)
                        ));
                    }
                    break;
                }
                Ok(reply) => panic!("complete: {reply}"),
                Err(Lost) => lost_before = true,
            }
        }
    }
}

/// Runs one team over the plan; returns the elapsed time and claim requests.
fn run_team(args: &Args, durable: bool) -> (Duration, u64) {
    let data_dir = durable.then(|| {
        let dir = std::env::temp_dir().join(format!("networks-mcp-team-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    });
    let mut server = Server::start(&args.server, data_dir.as_ref());
    let base = Arc::new(RwLock::new(server.base()));
    let mut needs = random_plan(args.tasks, args.seed);
    let routing = args.routed.then(|| route(args.tasks, args.seed));
    let edges = load(&mut Mcp::new(Arc::clone(&base)), &needs, routing.as_ref());
    // An epic needs its children.
    if let Some(r) = &routing {
        needs.extend(r.children[args.tasks..].iter().cloned());
    }
    let tasks = needs.len();
    let team = Team {
        ledger: Ledger::new(tasks),
        routed: args.routed,
        needs,
        base: Arc::clone(&base),
        lease: args.lease,
        claim_requests: AtomicU64::new(0),
    };
    let started = Instant::now();
    let kills = if durable { args.kills } else { 0 };
    std::thread::scope(|scope| {
        for me in 0..args.workers {
            let team = &team;
            let die_after = (me < args.dying).then_some(50 * (me + 1));
            scope.spawn(move || worker(team, me, die_after));
        }
        for k in 1..=kills {
            let at = args.tasks * k / (kills + 1);
            while team.ledger.done.load(Ordering::SeqCst) < at {
                std::thread::sleep(Duration::from_millis(2));
            }
            let down = server.kill_and_restart();
            eprintln!(
                "team: killed the server (SIGKILL) after {} completions; back in {:.0} ms",
                team.ledger.done.load(Ordering::SeqCst),
                down.as_secs_f64() * 1e3
            );
        }
    });
    let elapsed = started.elapsed();

    // The invariants.
    let ledger = &team.ledger;
    for (task, count) in ledger.completions.iter().enumerate() {
        let count = count.load(Ordering::SeqCst);
        if count != 1 {
            ledger.violation(format!("{} completed {count} times", task_id(task)));
        }
    }
    let mut mcp = Mcp::new(base);
    let progress = mcp.ok("network_plan_progress", json!({"network_name": PLAN}));
    let describe = mcp.ok("network_describe", json!({"network_name": PLAN}));
    if let Some(r) = &routing {
        ledger.check_routing(r, &team.needs);
    }
    let expected = (tasks, 0, 0, 0, true);
    let got = (
        progress["done_count"].as_u64().unwrap() as usize,
        progress["claimed_count"].as_u64().unwrap() as usize,
        progress["ready_count"].as_u64().unwrap() as usize,
        progress["blocked_count"].as_u64().unwrap() as usize,
        progress["finished"] == true,
    );
    if got != expected {
        ledger.violation(format!("final progress {progress}"));
    }
    let shape = (
        describe["node_count"].as_u64().unwrap_or(0) as usize,
        describe["edge_count"].as_u64().unwrap_or(0) as usize,
    );
    if shape != (tasks, edges) {
        ledger.violation(format!(
            "the plan changed shape: {shape:?}, not {:?}",
            (tasks, edges)
        ));
    }
    let taken_over = ledger
        .claims
        .lock()
        .unwrap()
        .values()
        .filter(|c| c.len() > 1)
        .count();
    let violations = ledger.violations.lock().unwrap().len();
    eprintln!(
        "team{}: {} tasks, {edges} edges, {} workers ({} dying), {kills} kills: {:.1} s, {} claim requests, {taken_over} tasks taken over after a lease ran out, {violations} violations",
        match (durable, args.routed) {
            (true, _) => " (durable)",
            (_, true) => " (routed: priorities, 2 roles, 20 exclusion groups, epics)",
            _ => "",
        },
        tasks,
        args.workers,
        args.dying,
        elapsed.as_secs_f64(),
        team.claim_requests.load(Ordering::Relaxed),
    );
    drop(server);
    if let Some(dir) = data_dir {
        let _ = std::fs::remove_dir_all(dir);
    }
    if violations > 0 {
        std::process::exit(1);
    }
    if args.dying > 0 && taken_over < args.dying {
        eprintln!("team: the dying workers' tasks were not taken over");
        std::process::exit(1);
    }
    (elapsed, team.claim_requests.load(Ordering::Relaxed))
}

// ---------------------------------------------------------------- the bench

/// Workers that claim by compare-and-swap: read the version, list ready tasks,
/// then claim one with `if_version` and `expect`. Returns (claims, retries).
fn cas_worker(base: &Arc<RwLock<String>>, me: usize, stop: &AtomicBool) -> (u64, u64) {
    let mut mcp = Mcp::new(Arc::clone(base));
    let name = format!("worker-{me:02}");
    let (mut claims, mut retries) = (0u64, 0u64);
    let mut pick = me;
    while !stop.load(Ordering::Relaxed) {
        let version = mcp.ok("network_describe", json!({"network_name": PLAN}))["version"].clone();
        let ready = mcp.ok(
            "network_ready_nodes",
            json!({"network_name": PLAN, "done_attributes": {"status": "done"}, "limit": 64, "blocked_limit": 0}),
        );
        let ready = ready["ready"].as_array().unwrap().clone();
        if ready.is_empty() {
            return (claims, retries);
        }
        pick = pick.wrapping_mul(31).wrapping_add(7);
        let task = ready[pick % ready.len()].as_str().unwrap().to_string();
        let claim = patient(
            &mut mcp,
            "network_update_node",
            json!({"network_name": PLAN, "node_id": task, "if_version": version,
                   "expect": {"claimed_by": null}, "attributes": {"claimed_by": name}}),
        );
        match claim {
            Ok(reply) if reply["status"] == "success" => {
                claims += 1;
                mcp.ok(
                    "network_update_node",
                    json!({"network_name": PLAN, "node_id": task, "attributes": {"status": "done"}}),
                );
            }
            Ok(_) => retries += 1,
            Err(Lost) => panic!("the server went away"),
        }
    }
    (claims, retries)
}

fn bench(args: &Args) {
    let tasks = 2_000;
    println!("| workers | claim tool: tasks/s | CAS: tasks/s | CAS: retries per claim |");
    println!("|---:|---:|---:|---:|");
    for workers in [1, 4, 16] {
        let team_args = Args {
            tasks,
            workers,
            dying: 0,
            ..args.clone()
        };
        let (elapsed, _) = run_team(&team_args, false);
        let claim_rate = tasks as f64 / elapsed.as_secs_f64();

        let server = Server::start(&args.server, None);
        let base = Arc::new(RwLock::new(server.base()));
        load(
            &mut Mcp::new(Arc::clone(&base)),
            &random_plan(tasks, args.seed),
            None,
        );
        let stop = AtomicBool::new(false);
        let started = Instant::now();
        let results: Vec<(u64, u64)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers)
                .map(|me| {
                    let (base, stop) = (&base, &stop);
                    scope.spawn(move || cas_worker(base, me, stop))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let elapsed = started.elapsed();
        let claims: u64 = results.iter().map(|r| r.0).sum();
        let retries: u64 = results.iter().map(|r| r.1).sum();
        println!(
            "| {workers} | {claim_rate:.0} | {:.0} | {:.2} |",
            claims as f64 / elapsed.as_secs_f64(),
            retries as f64 / claims.max(1) as f64
        );
    }
}

fn main() {
    let args = args();
    if args.bench {
        bench(&args);
        return;
    }
    run_team(&args, args.durable);
}
