// Browser test of the web view: starts networks-mcp --http with a token, builds a
// network through /mcp (plain JSON-RPC over HTTP POST), opens /ui?token=... in
// headless Debian chromium (driven by playwright-core, no bundled browser) and
// checks what a person would: the nodes are drawn and fitted to the window (the
// page says so with body[data-ready="true"]), cycles are coloured and broken by
// edges drawn back, weights label the edges, tasks are styled by status, the
// degree chips carry counts, clicking a node shows its data, a write through /mcp
// shows up without a reload, search and the ancestors toggle work. Saves
// artifacts/ui.png, ui-small-plan.png, ui-cycle.png and ui-status.png.
//
//   bash tests/ui_browser/run.sh            (installs what it needs, then runs this)
//
// Environment: NETWORKS_MCP_BIN (default target/debug/networks-mcp), CHROMIUM
// (default /usr/bin/chromium), UPDATE_DOCS_SCREENSHOT=1 also copies the screenshots
// to docs/.

import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const bin = resolve(process.env.NETWORKS_MCP_BIN || join(root, 'target/debug/networks-mcp'));
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const token = 'ui-test-' + randomBytes(12).toString('hex');
const PROTOCOL = '2025-06-18';
const started = Date.now();

function log(msg) {
  console.log(`ui-browser: [${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}`);
}

function fail(msg) {
  throw new Error(msg);
}

/** Starts the server on a free port; resolves to its base URL. */
function startServer() {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NETWORKS_MCP')));
  env.NETWORKS_MCP_AUTH_TOKEN = token;
  const toolsets = 'core,edit,analysis,interchange,work';
  const child = spawn(bin, ['--http', '127.0.0.1:0', '--log-level', 'info', '--toolsets', toolsets], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines = [];
  const base = new Promise((resolveBase, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${lines.join('')}`)), 20000);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${lines.join('')}`)));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      lines.push(chunk);
      const m = /read-only web view at (http:\/\/[^\s/]+)\/ui/.exec(lines.join(''));
      if (m) {
        clearTimeout(timer);
        resolveBase(m[1]);
      }
    });
  });
  return { child, base, logs: lines };
}

/** A raw streamable-HTTP MCP session. */
class Mcp {
  constructor(base) {
    this.url = base + '/mcp';
    this.session = null;
    this.id = 0;
  }

  async post(body) {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    };
    if (this.session) {
      headers['mcp-session-id'] = this.session;
      headers['mcp-protocol-version'] = PROTOCOL;
    }
    const res = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!this.session && res.headers.get('mcp-session-id')) this.session = res.headers.get('mcp-session-id');
    const text = await res.text();
    if (!res.ok) fail(`${body.method}: HTTP ${res.status} ${text}`);
    if (body.id === undefined) return null;
    try {
      return JSON.parse(text);
    } catch (_) {
      // An SSE body: the reply is the data line carrying our id.
      for (const line of text.split('\n').reverse()) {
        if (!line.startsWith('data:')) continue;
        try {
          const msg = JSON.parse(line.slice(5));
          if (msg.id === body.id) return msg;
        } catch (_) { /* not JSON */ }
      }
      fail(`no reply in ${text}`);
    }
  }

  async open() {
    const init = await this.post({
      jsonrpc: '2.0', id: this.id++, method: 'initialize',
      params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'ui-browser-test', version: '1' } },
    });
    if (!init.result) fail(`initialize: ${JSON.stringify(init)}`);
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  async tool(name, args) {
    const reply = await this.post({ jsonrpc: '2.0', id: this.id++, method: 'tools/call', params: { name, arguments: args } });
    const out = reply.result && reply.result.structuredContent;
    if (!out || out.status !== 'success') fail(`${name}: ${JSON.stringify(reply)}`);
    return out;
  }
}

/** How much of the drawing area the drawn graph covers on screen: [width, height] shares. */
async function drawnShare(page) {
  return page.evaluate(() => {
    const area = document.getElementById('graph').getBoundingClientRect();
    const drawn = document.getElementById('viewport').getBoundingClientRect();
    return [drawn.width / area.width, drawn.height / area.height];
  });
}

/** Opens a network fresh and waits until the page says it is drawn and fitted. */
async function openFresh(page, base, network, extra = '') {
  await page.goto('about:blank'); // a new document: a hash change alone would not reload
  await page.goto(`${base}/ui${extra}#network=${encodeURIComponent(network)}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15000 });
  const shown = await page.textContent('#title');
  if (shown !== network) fail(`opened ${network}, the page shows ${shown}`);
}

const NETWORK = 'release_plan';
// "A → B": A depends on B. design → requirements; a review loop makes a cycle.
const EDGES = [
  ['implement', 'design', 3],
  ['design', 'requirements', 2],
  ['test', 'implement', 2],
  ['docs', 'design', 1],
  ['deploy', 'test', 1],
  ['deploy', 'docs', 1],
  ['implement', 'review', 1],
  ['review', 'rework', 1],
  ['rework', 'implement', 1],
  ['test', 'requirements', 1],
];

async function main() {
  const server = startServer();
  const userData = mkdtempSync(join(tmpdir(), 'networks-mcp-ui-'));
  let context = null;
  try {
    const base = await server.base;
    log(`server at ${base}`);
    const mcp = new Mcp(base);
    await mcp.open();
    await mcp.tool('network_create', { network_name: NETWORK, description: 'What a release needs' });
    await mcp.tool('network_add_node', {
      network_name: NETWORK,
      node_id: 'design',
      attributes: { owner: 'ana', estimate_days: 3 },
      data: { doc: 'docs/design.md', risks: ['schema change'] },
    });
    await mcp.tool('network_add_edges', {
      network_name: NETWORK,
      edges: EDGES.map(([source, target, weight]) => ({ source, target, weight })),
      create_missing_nodes: true,
    });
    const nodeCount = new Set(EDGES.flatMap(([a, b]) => [a, b])).size;
    log(`network '${NETWORK}' with ${nodeCount} nodes and ${EDGES.length} edges created through /mcp`);

    context = await chromium.launchPersistentContext(userData, {
      executablePath: browserPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run'],
      viewport: { width: 1280, height: 760 },
    });
    const page = context.pages()[0] || (await context.newPage());
    const problems = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('response', (res) => { if (res.status() >= 400) problems.push(`HTTP ${res.status()} for ${res.url()}`); });
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
    });

    // 1. The token once in the URL; the page then lives on the cookie.
    await page.goto(`${base}/ui?token=${encodeURIComponent(token)}`);
    if (page.url().includes('token=')) fail(`the token stayed in the address bar: ${page.url()}`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 15000 });
    const cookies = await context.cookies(`${base}/ui`);
    const cookie = cookies.find((c) => c.name === 'networks_mcp_ui');
    if (!cookie || !cookie.httpOnly || cookie.sameSite !== 'Strict' || cookie.path !== '/ui') {
      fail(`cookie not as expected: ${JSON.stringify(cookies)}`);
    }
    log('opened /ui?token=…, redirected to /ui with an HttpOnly SameSite=Strict cookie');

    // 2. The network list and the drawing.
    const listed = await page.textContent(`.networks button[data-network="${NETWORK}"]`);
    if (!listed.includes(`${nodeCount} nodes`)) fail(`network list shows: ${listed}`);
    const drawn = await page.locator('#nodes .node').count();
    if (drawn !== nodeCount) fail(`${drawn} nodes drawn, expected ${nodeCount}`);
    const edgesDrawn = await page.locator('#edges path.edge').count();
    if (edgesDrawn !== EDGES.length) fail(`${edgesDrawn} edges drawn, expected ${EDGES.length}`);
    const cyclic = (await page.locator('#nodes .node.cyclic').evaluateAll((els) => els.map((e) => e.dataset.id))).sort();
    if (cyclic.join() !== 'implement,review,rework') fail(`cyclic nodes: ${cyclic}`);
    if ((await page.locator('#edges path.edge.cyclic').count()) !== 3) fail('cycle edges not coloured');
    // Layers respect edge direction on screen: every non-cyclic edge points right.
    const leftToRight = await page.evaluate(() => {
      const box = (id) => document.querySelector(`.node[data-id="${id}"]`).getBoundingClientRect();
      return box('deploy').x < box('test').x && box('test').x < box('implement').x
        && box('implement').x < box('design').x && box('design').x < box('requirements').x;
    });
    if (!leftToRight) fail('columns do not follow edge direction');
    const title = await page.locator('#edges g').first().locator('title').textContent();
    if (!/weight \d/.test(title)) fail(`edge title without weight: ${title}`);
    if ((await page.locator('#edges path.edge.back').count()) !== 1) fail('the cycle should have one edge drawn back');
    const [sw, sh] = await drawnShare(page);
    if (Math.max(sw, sh) < 0.6) fail(`the fitted drawing covers only ${sw.toFixed(2)} x ${sh.toFixed(2)} of the view`);
    log(`${drawn} nodes and ${edgesDrawn} edges drawn left to right, the 3-node cycle in red, one edge drawn back; fitted to ${(sw * 100).toFixed(0)}% x ${(sh * 100).toFixed(0)}% of the view`);

    // 3. Click a node: its details.
    await page.click('.node[data-id="design"]');
    await page.waitForSelector('#details .id[data-node-id="design"]', { timeout: 5000 });
    const details = await page.textContent('#details');
    for (const expected of ['owner', 'ana', 'estimate_days', 'docs/design.md', 'in-degree']) {
      if (!details.includes(expected)) fail(`details lack '${expected}': ${details}`);
    }
    if (!(await page.locator('.node[data-id="design"].selected').count())) fail('clicked node not highlighted');
    log('clicking "design" shows its attributes, data and degrees');

    // 4. Pan and zoom change the viewport transform.
    const before = await page.getAttribute('#viewport', 'transform');
    await page.mouse.move(900, 400);
    await page.mouse.wheel(0, -300);
    await page.mouse.down();
    await page.mouse.move(960, 450, { steps: 4 });
    await page.mouse.up();
    const after = await page.getAttribute('#viewport', 'transform');
    if (before === after) fail('pan/zoom did not move the drawing');

    // 5. A write through /mcp appears without a reload.
    await page.evaluate(() => { window.__sameDocument = true; });
    const renders = Number(await page.getAttribute('body', 'data-renders'));
    const t0 = Date.now();
    await mcp.tool('network_add_edges', {
      network_name: NETWORK,
      edges: [{ source: 'announce', target: 'deploy', weight: 0.5 }],
      create_missing_nodes: true,
    });
    await page.waitForSelector('.node[data-id="announce"]', { timeout: 5000 });
    const updatedIn = Date.now() - t0;
    if (!(await page.evaluate(() => window.__sameDocument === true))) fail('the page reloaded');
    if (Number(await page.getAttribute('body', 'data-renders')) <= renders) fail('no re-render counted');
    if ((await page.locator('#nodes .node').count()) !== nodeCount + 1) fail('new node count wrong');
    await page.waitForFunction((n) => document.querySelector('.networks button.current').textContent.includes(`${n} nodes`), nodeCount + 1);
    // The selection survives the refresh.
    if (!(await page.locator('.node[data-id="design"].selected').count())) fail('selection lost on update');
    log(`an edge added through /mcp was drawn ${updatedIn} ms later, without a reload`);

    // 6. Search and the ancestors / descendants toggles.
    await page.click('.node[data-id="deploy"]');
    await page.waitForSelector('#details .id[data-node-id="deploy"]', { timeout: 5000 });
    await page.fill('#search', 'design');
    await page.press('#search', 'Enter');
    await page.waitForSelector('#details .id[data-node-id="design"]', { timeout: 5000 });
    const ids = () => page.locator('#nodes .node').evaluateAll((els) => els.map((e) => e.dataset.id).sort().join());
    await page.click('#scope-descendants');
    await page.waitForFunction(() => document.querySelectorAll('#nodes .node').length === 2);
    if ((await ids()) !== 'design,requirements') fail(`descendants of design: ${await ids()}`);
    await page.click('#scope-ancestors');
    await page.waitForFunction(() => document.querySelectorAll('#nodes .node').length === 8);
    if ((await ids()) !== 'announce,deploy,design,docs,implement,review,rework,test') {
      fail(`ancestors of design: ${await ids()}`);
    }
    await page.click('#scope-all');
    await page.waitForFunction((n) => document.querySelectorAll('#nodes .node').length === n, nodeCount + 1);
    log('search found "design"; the descendants (2) and ancestors (8) toggles redrew the view');

    // 7. The screenshot, with a node selected.
    await page.click('.node[data-id="implement"]');
    await page.waitForSelector('#details .id[data-node-id="implement"]');
    await page.fill('#search', '');
    await page.click('#fit');
    await page.waitForTimeout(150);
    const artifacts = join(here, 'artifacts');
    mkdirSync(artifacts, { recursive: true });
    const shot = join(artifacts, 'ui.png');
    await page.screenshot({ path: shot });
    if (process.env.UPDATE_DOCS_SCREENSHOT === '1') {
      copyFileSync(shot, join(root, 'docs', 'ui.png'));
      log('copied the screenshot to docs/ui.png');
    }
    log(`screenshot: ${shot}`);

    // 8. A network over --ui-max-nodes (default 2000): a summary, then a searched node's neighbourhood.
    const chain = Array.from({ length: 2100 }, (_, i) => ({ source: `step_${i}`, target: `step_${i + 1}` }));
    await mcp.tool('network_create', { network_name: 'long_chain' });
    await mcp.tool('network_add_edges', { network_name: 'long_chain', edges: chain, create_missing_nodes: true });
    await page.click('.networks button[data-network="long_chain"]', { timeout: 5000 });
    await page.waitForFunction(() => /more than the view draws/.test(document.getElementById('message').textContent));
    if ((await page.locator('#nodes .node').count()) !== 0) fail('a summary should draw no nodes');
    await page.fill('#search', 'step_1000');
    await page.press('#search', 'Enter');
    await page.waitForSelector('#details .id[data-node-id="step_1000"]', { timeout: 5000 });
    if ((await ids()) !== 'step_1000,step_1001,step_1002,step_998,step_999') fail(`neighbourhood: ${await ids()}`);
    log('a 2,101-node network shows a summary; searching step_1000 draws its 2-hop neighbourhood');

    const docs = process.env.UPDATE_DOCS_SCREENSHOT === '1';
    const snap = async (name) => {
      const file = join(artifacts, name);
      await page.screenshot({ path: file });
      if (docs) copyFileSync(file, join(root, 'docs', name));
      return file;
    };

    // 9. A small plan with durations as weights: fitted, weights on the edges, counts in the chips.
    const SMALL = [
      ['design', 'research', 8], ['build', 'design', 5], ['docs', 'design', 2],
      ['test', 'build', 3], ['ship', 'test', 1], ['ship', 'docs', 1.5],
    ];
    await mcp.tool('network_create', { network_name: 'small_plan', description: 'Six tasks, weights in days' });
    await mcp.tool('network_add_edges', {
      network_name: 'small_plan',
      edges: SMALL.map(([source, target, weight]) => ({ source, target, weight })),
      create_missing_nodes: true,
    });
    await openFresh(page, base, 'small_plan');
    const labels = await page.locator('#weights text.weight').evaluateAll((els) => els.map((e) => e.textContent).sort());
    const expectedLabels = SMALL.map(([, , w]) => String(w)).sort();
    if (labels.join() !== expectedLabels.join()) fail(`weight labels ${labels}, expected ${expectedLabels}`);
    if (!(await page.locator('#weights').isVisible())) fail('weight labels hidden at the fitted scale');
    const [pw, ph] = await drawnShare(page);
    if (pw < 0.6 && ph < 0.6) fail(`small plan covers only ${pw.toFixed(2)} x ${ph.toFixed(2)} of the view`);
    const chips = await page.locator('#summary .linklist button').evaluateAll((els) => els.map((e) => e.textContent));
    if (!chips.length || !chips.every((c) => /\d$/.test(c))) fail(`degree chips without counts: ${chips}`);
    if (!chips.includes('design2')) fail(`"design" (2 tasks need it) should show 2: ${chips}`);
    const summary = await page.textContent('#summary');
    if (!summary.includes('6 nodes in 5 layers')) fail(`summary: ${summary}`);
    log(`small plan: ${labels.length} weight labels, fitted to ${(pw * 100).toFixed(0)}% x ${(ph * 100).toFixed(0)}%, chips ${chips.join(' ')}; ${await snap('ui-small-plan.png')}`);
    // User zoom still works after the fit.
    const fitted = await page.getAttribute('#viewport', 'transform');
    await page.mouse.move(700, 300);
    await page.mouse.wheel(0, 400);
    await page.waitForFunction((t) => document.getElementById('viewport').getAttribute('transform') !== t, fitted);

    // 10. A cycle through every node: spread over columns, one edge drawn back.
    const RING = ['draft', 'review', 'revise', 'approve', 'publish', 'collect_feedback'];
    await mcp.tool('network_create', { network_name: 'review_cycle' });
    await mcp.tool('network_add_edges', {
      network_name: 'review_cycle',
      edges: RING.map((a, i) => ({ source: a, target: RING[(i + 1) % RING.length], weight: 1 })),
      create_missing_nodes: true,
    });
    await openFresh(page, base, 'review_cycle');
    const columns = await page.locator('#nodes .node').evaluateAll((els) =>
      new Set(els.map((e) => Math.round(e.getBoundingClientRect().x))).size);
    if (columns < 2) fail(`a full cycle uses ${columns} column(s)`);
    if ((await page.locator('#edges path.edge.back').count()) !== 1) fail('a full cycle needs exactly one edge drawn back');
    if ((await page.locator('#edges path.edge.cyclic').count()) !== RING.length) fail('every edge of the ring is on the cycle');
    if ((await page.locator('#weights text').count()) !== 0) fail('all weights are 1: no labels expected');
    const ringSummary = await page.textContent('#summary');
    if (/\b1 columns\b|\b1 layers\b/.test(ringSummary) || !ringSummary.includes(`${RING.length} layers`)) fail(`summary: ${ringSummary}`);
    if (!ringSummary.includes('1 edge drawn back')) fail(`summary: ${ringSummary}`);
    log(`full cycle: ${columns} columns, 1 edge drawn back; ${await snap('ui-cycle.png')}`);

    // 11. A plan with done, claimed and blocked tasks, styled and in the legend.
    const PLAN = [
      ['release', 'qa'], ['release', 'notes'], ['qa', 'backend'], ['qa', 'frontend'],
      ['backend', 'schema'], ['frontend', 'schema'], ['notes', 'schema'],
    ];
    await mcp.tool('network_create', { network_name: 'team_plan', description: 'done, claimed, blocked' });
    await mcp.tool('network_add_edges', {
      network_name: 'team_plan',
      edges: PLAN.map(([source, target]) => ({ source, target })),
      create_missing_nodes: true,
    });
    const claim = (worker, limit) => mcp.tool('network_claim_ready', { network_name: 'team_plan', worker, limit, lease_seconds: 3600 });
    // Ready tasks are claimed in insertion order: schema, then notes, backend, frontend.
    const claimed = async (worker) => (await claim(worker, 1)).claimed.map((t) => t.node_id).join();
    const got = [await claimed('ana')];
    await mcp.tool('network_complete_claim', { network_name: 'team_plan', worker: 'ana', node_ids: ['schema'] });
    got.push(await claimed('ana'));
    await mcp.tool('network_complete_claim', { network_name: 'team_plan', worker: 'ana', node_ids: ['notes'] });
    got.push(await claimed('bo'), await claimed('cy'));
    if (got.join(' ') !== 'schema notes backend frontend') fail(`claims went to ${got}`);
    await openFresh(page, base, 'team_plan');
    const byState = await page.locator('#nodes .node').evaluateAll((els) => Object.fromEntries(
      els.map((e) => [e.dataset.id, [...e.classList].find((c) => c.startsWith('state-')) || ''])));
    const want = { schema: 'state-done', notes: 'state-done', backend: 'state-claimed', frontend: 'state-claimed', qa: 'state-blocked', release: 'state-blocked' };
    for (const [id, cls] of Object.entries(want)) {
      if (byState[id] !== cls) fail(`${id} is ${byState[id]}, expected ${cls}: ${JSON.stringify(byState)}`);
    }
    const doneLabel = await page.textContent('.node[data-id="schema"] text');
    if (!doneLabel.startsWith('\u2713')) fail(`a done task has no check mark: ${doneLabel}`);
    if (await page.locator('#legend-status').isHidden()) fail('the status legend is hidden');
    const legendText = await page.textContent('#legend-status');
    if (!/done\s*2/.test(legendText) || !/claimed\s*2/.test(legendText) || !/blocked\s*2/.test(legendText)) fail(`legend: ${legendText}`);
    log(`plan with states: done, claimed, blocked styled, legend "${legendText.replace(/\s+/g, ' ').trim()}"; ${await snap('ui-status.png')}`);
    // Another status attribute, from the address: nothing has it, nothing is styled.
    await openFresh(page, base, 'team_plan', '?status_attribute=phase&claim_attribute=owner');
    if ((await page.locator('#nodes .node[class*="state-"]').count()) !== 0) fail('?status_attribute=phase still styled tasks');
    if (!(await page.locator('#legend-status').isHidden())) fail('the status legend shows for an attribute nobody has');
    log('?status_attribute=phase&claim_attribute=owner: no task styled, no status legend');

    // The documented one-line screenshot (docs/web-view.md) waits for the ready signal.
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const oneLiner = join(artifacts, 'one-liner.png');
    const address = `${base}/ui?token=${encodeURIComponent(token)}#network=small_plan`;
    const { stdout: said } = await promisify(execFile)(process.execPath, [join(here, 'screenshot.mjs'), address, oneLiner, '1280x760']);
    if (!/: 6 nodes drawn/.test(said)) fail(`screenshot.mjs did not wait for the drawing: ${said}`);
    log(`the one-line screenshot command: ${said.trim()}`);

    if (problems.length) fail(problems.join('\n'));
    log(`passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    if (context) await context.close().catch(() => {});
    server.child.kill('SIGTERM');
    rmSync(userData, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`ui-browser: FAILED: ${err.stack || err}`);
  process.exit(1);
});
