// The networks-mcp web view: our own small script, no libraries.
//
// The server computes the layout (src/view/layout.rs); this script draws it as
// SVG, pans and zooms, shows node details, and refetches when the server's event
// stream (/ui/events) says the network changed. It only reads.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const LABEL_CHARS = 28; // as src/view/model.rs
const DEBOUNCE_MS = 200;
const FAR_ZOOM = 0.45; // below this scale labels are hidden
const HIT_PATHS_UP_TO = 2000; // edges
const LARGE = 1500; // nodes: draw for speed over precision
const MAX_FIT_SCALE = 2; // fitting never magnifies more: two nodes stay node-sized
const FIT_PAD = 16; // px kept free around a fitted drawing
const WEIGHT_LABELS_UP_TO = 400; // edges: past this, weights only on hover
const WEIGHT_ZOOM = 0.7; // below this scale weight labels are too small to read
// Where task states live; sent to /ui/api/graph when set (see docs/web-view.md).
const STATUS_PARAMS = ['status_attribute', 'done_value', 'claim_attribute', 'lease_attribute'];
const STATE_MARKS = { done: '\u2713', claimed: '\u25B6', blocked: '\u2298' };

const $ = (id) => document.getElementById(id);

const state = {
  network: null,
  scope: 'all', // all | neighborhood | ancestors | descendants
  focus: null, // the node a non-"all" scope is about
  selected: null,
  view: null,
  index: new Map(), // node id -> index in view.nodes
  networks: [],
  t: { x: 0, y: 0, k: 1 },
  frame: 0,
  events: null,
  pending: { list: false, graph: false },
  timer: null,
  renders: 0,
  status: {}, // status_attribute etc. from the address (query or hash)
  readyPending: false,
};

// ---------- small DOM helpers (text always through textContent) ----------

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) {
    if (child == null) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

function label(id) {
  return id.length > LABEL_CHARS ? id.slice(0, LABEL_CHARS - 1) + '\u2026' : id;
}

function message(text) {
  const box = $('message');
  box.hidden = !text;
  box.replaceChildren(...(Array.isArray(text) ? text : text ? [text] : []));
}

async function getJSON(path, params) {
  const url = path + (params ? '?' + new URLSearchParams(params) : '');
  const res = await fetch(url, { credentials: 'same-origin', cache: 'no-store' });
  let body = null;
  try {
    body = await res.json();
  } catch (_) {
    body = { error: res.status === 401 ? 'Not signed in: open /ui?token=<token> again.' : res.statusText };
  }
  if (!res.ok) {
    const err = new Error(body.error || res.statusText);
    err.status = res.status;
    err.code = body.code;
    throw err;
  }
  return body;
}

// ---------- location: #network=..&scope=..&focus=.. ----------

function readHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  // The status attribute and its friends: from /ui?status_attribute=… or the hash.
  const q = new URLSearchParams(location.search);
  for (const key of STATUS_PARAMS) {
    const v = p.get(key) || q.get(key);
    if (v) state.status[key] = v;
    else delete state.status[key];
  }
  state.network = p.get('network');
  state.scope = ['neighborhood', 'ancestors', 'descendants'].includes(p.get('scope')) ? p.get('scope') : 'all';
  state.focus = state.scope === 'all' ? null : p.get('focus');
  if (!state.focus) state.scope = 'all';
}

function writeHash() {
  const p = new URLSearchParams();
  if (state.network) p.set('network', state.network);
  if (state.scope !== 'all' && state.focus) {
    p.set('scope', state.scope);
    p.set('focus', state.focus);
  }
  for (const [k, v] of Object.entries(state.status)) p.set(k, v);
  history.replaceState(null, '', '#' + p);
}

// ---------- networks list ----------

async function loadNetworks() {
  const { networks } = await getJSON('/ui/api/networks');
  state.networks = networks;
  const list = $('networks');
  list.replaceChildren(
    ...networks.map((n) =>
      el('li', {},
        el('button', {
          type: 'button',
          class: n.name === state.network ? 'current' : '',
          title: n.description || n.name,
          'data-network': n.name,
          onclick: () => openNetwork(n.name),
        },
        el('span', {}, n.name),
        el('span', { class: 'counts' }, `${n.nodes} nodes \u00b7 ${n.edges} edges`)))),
  );
  if (!networks.length) list.replaceChildren(el('li', { class: 'hint' }, 'No networks yet.'));
  return networks;
}

function openNetwork(name) {
  if (name !== state.network) {
    state.network = name;
    state.scope = 'all';
    state.focus = null;
    state.selected = null;
    showDetails(null);
    connectEvents();
  }
  for (const b of document.querySelectorAll('.networks button')) {
    b.classList.toggle('current', b.dataset.network === name);
  }
  writeHash();
  document.body.dataset.ready = 'false';
  return loadGraph(false);
}

// ---------- the drawing ----------

async function loadGraph(keepView) {
  if (!state.network) return;
  const params = { network: state.network, ...state.status };
  if (state.scope !== 'all' && state.focus) {
    params.focus = state.focus;
    params.scope = state.scope;
  }
  let view;
  try {
    view = await getJSON('/ui/api/graph', params);
  } catch (err) {
    if (err.code === 'node_not_found' && state.focus) {
      // The focus node was removed: fall back to the whole network.
      state.scope = 'all';
      state.focus = null;
      writeHash();
      return loadGraph(false);
    }
    if (err.code === 'network_not_found') {
      clearDrawing();
      message(`Network '${state.network}' no longer exists.`);
      document.body.dataset.ready = 'true';
      return;
    }
    message(err.message);
    document.body.dataset.ready = 'true';
    return;
  }
  render(view, keepView);
}

function clearDrawing() {
  state.view = null;
  state.index = new Map();
  for (const id of ['groups', 'edges', 'weights', 'nodes']) $(id).replaceChildren();
}

/// The point at t = 1/2 of one cubic segment [p0, c1, c2, p1].
function bezierMid([p0, c1, c2, p1]) {
  return [(p0[0] + 3 * c1[0] + 3 * c2[0] + p1[0]) / 8, (p0[1] + 3 * c1[1] + 3 * c2[1] + p1[1]) / 8];
}

/// An edge as cubic segments, its SVG path and its midpoint (for the weight label).
/// Forward edges leave the right side of their source for the left side of their
/// target. A cut edge (e.back) closes a cycle right to left: it leaves the bottom
/// (or top) of its source's left half and enters the bottom (or top) of its
/// target's right half, whichever faces its route, so it never runs over a forward
/// edge between the same nodes.
function edgeGeometry(e, nodes, h) {
  const s = nodes[e.s];
  const t = nodes[e.t];
  let segments;
  if (e.s === e.t) {
    const x = s.x + s.w / 2;
    segments = [[[x, s.y - 5], [x + 28, s.y - 24], [x + 28, s.y + 24], [x, s.y + 5]]];
  } else if (!e.back) {
    const points = [[s.x + s.w / 2, s.y], ...e.bends, [t.x - t.w / 2, t.y]];
    segments = horizontal(points);
  } else {
    const next = e.bends.length ? e.bends[0] : [t.x, t.y];
    const prev = e.bends.length ? e.bends[e.bends.length - 1] : [s.x, s.y];
    const down = e.bends.length ? next[1] >= s.y : true; // a direct back edge sags below
    const up = e.bends.length ? prev[1] >= t.y : true;
    const ds = down ? 1 : -1;
    const dt = up ? 1 : -1;
    const points = [[s.x - s.w / 4, s.y + ds * h / 2], ...e.bends, [t.x + t.w / 4, t.y + dt * h / 2]];
    segments = horizontal(points);
    const first = segments[0];
    const last = segments[segments.length - 1];
    const reach = 18 + Math.abs(points[points.length - 1][0] - points[0][0]) * 0.08;
    first[1] = [first[0][0], first[0][1] + ds * reach];
    last[2] = [last[3][0], last[3][1] + dt * reach];
  }
  let d = `M${segments[0][0][0]},${segments[0][0][1]}`;
  for (const [, c1, c2, p1] of segments) d += ` C${c1[0]},${c1[1]} ${c2[0]},${c2[1]} ${p1[0]},${p1[1]}`;
  const m = segments.length;
  const mid = m % 2 ? bezierMid(segments[(m - 1) / 2]) : segments[m / 2][0];
  return { d, mid };
}

/// Cubic segments through `points`, leaving and entering each point horizontally.
function horizontal(points) {
  const segments = [];
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1];
    const [x1, y1] = points[i];
    const mx = (x0 + x1) / 2;
    segments.push([[x0, y0], [mx, y0], [mx, y1], [x1, y1]]);
  }
  return segments;
}

function formatWeight(w) {
  return Number.isInteger(w) ? String(w) : String(Number(w.toPrecision(3)));
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function edgeMarker(e) {
  return e.back ? 'url(#arrow-back)' : e.cyclic ? 'url(#arrow-cyclic)' : 'url(#arrow)';
}

function edgeTitle(e, nodes) {
  const head = `${nodes[e.s].id} \u2192 ${nodes[e.t].id}`;
  const lines = e.ids.map((id, k) => `weight ${e.weights[k]} (edge #${id})`);
  return [head, ...lines].join('\n') + (e.back ? '\ndrawn back: closes a cycle' : e.cyclic ? '\non a cycle' : '');
}

function render(view, keepView) {
  state.view = view;
  state.index = new Map(view.nodes.map((n, i) => [n.id, i]));
  $('title').textContent = view.network + (view.mode === 'focus' ? ` \u2014 ${view.scope} of ${view.focus}` : '');
  renderSummary(view);

  const groups = document.createDocumentFragment();
  for (const g of view.groups) {
    groups.append(svg('rect', { class: 'group', x: g.x, y: g.y, width: g.w, height: g.h, rx: 6 }));
  }
  // Weights are labelled only when they say something: a plan built without
  // weights has weight 1 on every edge (the default of network_add_edge), and a "1"
  // on each edge would be noise. So labels appear when some weight differs from 1,
  // and only on drawings sparse enough to place them (else: hover, as always).
  const weighted = view.edges.length <= WEIGHT_LABELS_UP_TO
    && view.edges.some((e) => e.weights.some((w) => w !== 1));
  const edges = document.createDocumentFragment();
  const weights = document.createDocumentFragment();
  view.edges.forEach((e, i) => {
    const { d, mid } = edgeGeometry(e, view.nodes, view.node_height);
    const g = svg('g', { 'data-edge': i });
    const path = svg('path', {
      d,
      class: 'edge' + (e.cyclic ? ' cyclic' : '') + (e.back ? ' back' : ''),
      'marker-end': edgeMarker(e),
    });
    if (weighted) {
      const text = svg('text', { class: 'weight' + (e.cyclic ? ' cyclic' : ''), x: mid[0], y: mid[1] - 7, 'data-edge': i });
      text.textContent = e.weights.map(formatWeight).join(', ');
      weights.append(text);
    }
    const title = svg('title');
    title.textContent = edgeTitle(e, view.nodes);
    g.append(path);
    // A wide transparent twin makes thin edges easy to hover; skipped on big drawings.
    if (view.edges.length <= HIT_PATHS_UP_TO) g.append(svg('path', { d, class: 'edge-hit' }));
    g.append(title);
    edges.append(g);
  });
  const nodes = document.createDocumentFragment();
  const h = view.node_height;
  view.nodes.forEach((n, i) => {
    const g = svg('g', {
      class: 'node' + (n.cyclic ? ' cyclic' : '') + (n.id === view.focus ? ' focus' : '')
        + (n.state ? ` state-${n.state}` : ''),
      transform: `translate(${n.x - n.w / 2},${n.y - h / 2})`,
      'data-id': n.id,
      'data-index': i,
    });
    const rect = svg('rect', { width: n.w, height: h, rx: 4 });
    const text = svg('text', { x: n.w / 2, y: h / 2, 'text-anchor': 'middle' });
    const mark = STATE_MARKS[n.state];
    text.textContent = (mark ? mark + ' ' : '') + label(n.id);
    const title = svg('title');
    const stateLine = n.state ? `\n${n.state}` + (n.claimed_by ? ` by ${n.claimed_by}` : '') : '';
    title.textContent = `${n.id}\nin ${n.in} \u00b7 out ${n.out}` + stateLine + (n.cyclic ? '\non a cycle' : '');
    g.append(rect, text, title);
    nodes.append(g);
  });
  $('graph').classList.toggle('large', view.nodes.length > LARGE);
  $('groups').replaceChildren(groups);
  $('edges').replaceChildren(edges);
  $('weights').replaceChildren(weights);
  $('nodes').replaceChildren(nodes);

  const ids = $('ids');
  const known = view.nodes.length ? view.nodes.map((n) => n.id) : view.summary.top_in_degree.concat(view.summary.top_out_degree).map((p) => p[0]);
  ids.replaceChildren(...[...new Set(known)].slice(0, 5000).map((id) => el('option', { value: id })));

  if (view.mode === 'summary') {
    message([
      el('strong', {}, `${view.summary.node_count} nodes is more than the view draws at once (--ui-max-nodes ${view.max_nodes}).`),
      el('br'),
      'Find a node id (or click one in the summary) to see its neighbourhood.',
    ]);
  } else if (!view.nodes.length) {
    message('This network is empty.');
  } else if (view.truncated) {
    message(`Showing the first ${view.nodes.length} nodes (--ui-max-nodes ${view.max_nodes}).`);
  } else {
    message(null);
  }

  renderLegend(view);
  updateScopeButtons();
  // data-ready turns "true" once this drawing is on screen with its transform.
  state.readyPending = true;
  if (!keepView) fit();
  else applyTransform();
  if (state.selected && state.index.has(state.selected)) select(state.selected, false);
  else if (state.selected && view.mode !== 'summary') {
    state.selected = null;
    showDetails(null);
  }
  state.renders += 1;
  document.body.dataset.renders = String(state.renders);
  document.body.dataset.state = 'ready';
}

function row(dl, term, value) {
  dl.append(el('dt', {}, term), el('dd', {}, value));
}

/// Buttons that find a node; with `counts`, each shows its number (a degree).
function nodeButtons(ids, counts, what) {
  return el('ul', { class: 'linklist' }, ...ids.map((id, k) => {
    const attrs = { type: 'button', onclick: () => findNode(id) };
    if (counts) attrs.title = `${id}: ${what} ${counts[k]}`;
    return el('li', {}, el('button', attrs, label(id),
      counts ? el('span', { class: 'count' }, String(counts[k])) : null));
  }));
}

/// The status half of the legend: shown when the drawing is a plan.
function renderLegend(view) {
  const st = view.status;
  $('legend-status').hidden = !st;
  const attr = state.status.status_attribute || (st && st.attribute) || '';
  if (document.activeElement !== $('status-attribute')) $('status-attribute').value = state.status.status_attribute || '';
  $('status-attribute').placeholder = (st && st.attribute) || 'status';
  if (!st) {
    $('status-note').textContent = `No drawn node has the attribute "${attr || 'status'}" or a claim, so tasks are not styled.`;
    return;
  }
  $('legend-attribute').textContent = `${st.attribute}:`;
  for (const span of document.querySelectorAll('#legend-status [data-state]')) {
    span.querySelector('.n').textContent = String(st[span.dataset.state]);
  }
  $('status-note').textContent = `Read from "${st.attribute}" (done = "${st.done_value}") and claims in "${st.claim_attribute}".`;
}

function renderSummary(view) {
  const s = view.summary;
  const dl = el('dl');
  row(dl, 'nodes', s.node_count);
  row(dl, 'edges', s.edge_count);
  row(dl, 'DAG', s.is_dag ? 'yes'
    : view.back_edges ? `no: cycles in red, ${plural(view.back_edges, 'edge')} drawn back (dashed)` : 'no (cycles in red)');
  row(dl, 'components', s.weak_component_count);
  row(dl, 'sources / sinks', `${s.source_count} / ${s.sink_count}`);
  if (s.isolated_count) row(dl, 'isolated', s.isolated_count);
  if (s.self_loop_count) row(dl, 'self-loops', s.self_loop_count);
  if (view.nodes.length) {
    // Columns are dependency layers: every edge not drawn back points one or more to the right.
    row(dl, 'drawn', `${plural(view.nodes.length, 'node')} in ${plural(view.layers, 'layer')} (columns, left to right)`);
    row(dl, 'crossings', view.crossings);
  }
  const parts = [dl];
  if (s.top_in_degree.length) {
    parts.push(el('h2', { class: 'sub' }, 'most depended on (in-degree)'),
      nodeButtons(s.top_in_degree.map((p) => p[0]), s.top_in_degree.map((p) => p[1]), 'in-degree'));
  }
  if (s.top_out_degree.length) {
    parts.push(el('h2', { class: 'sub' }, 'most dependencies (out-degree)'),
      nodeButtons(s.top_out_degree.map((p) => p[0]), s.top_out_degree.map((p) => p[1]), 'out-degree'));
  }
  $('summary').replaceChildren(...parts);
}

function updateScopeButtons() {
  for (const b of document.querySelectorAll('.scope button')) {
    const scope = b.dataset.scope;
    b.classList.toggle('active', scope === state.scope);
    b.disabled = scope !== 'all' && !state.selected && !state.focus;
  }
}

// ---------- selection and details ----------

function select(id, fetchDetails = true) {
  state.selected = id;
  for (const g of document.querySelectorAll('.node.selected')) g.classList.remove('selected');
  for (const p of document.querySelectorAll('.edge.hl')) {
    p.classList.remove('hl');
    p.setAttribute('marker-end', p.classList.contains('back') ? 'url(#arrow-back)'
      : p.classList.contains('cyclic') ? 'url(#arrow-cyclic)' : 'url(#arrow)');
  }
  const i = state.index.get(id);
  if (i !== undefined) {
    const g = document.querySelector(`.node[data-index="${i}"]`);
    if (g) g.classList.add('selected');
    state.view.edges.forEach((e, k) => {
      if (e.s === i || e.t === i) {
        const p = document.querySelector(`[data-edge="${k}"] .edge`);
        p.classList.add('hl');
        p.setAttribute('marker-end', 'url(#arrow-hl)');
      }
    });
  }
  updateScopeButtons();
  if (fetchDetails) loadDetails(id);
}

async function loadDetails(id) {
  try {
    const d = await getJSON('/ui/api/node', { network: state.network, id });
    if (state.selected === id) showDetails(d);
  } catch (err) {
    if (state.selected === id) showDetails(null, err.message);
  }
}

function showDetails(d, error) {
  const box = $('details');
  if (!d) {
    box.replaceChildren(el('p', { class: 'hint' }, error || 'Click a node to see its data.'));
    return;
  }
  const dl = el('dl');
  row(dl, 'in-degree', d.in_degree);
  row(dl, 'out-degree', d.out_degree);
  const parts = [el('p', { class: 'id', 'data-node-id': d.id }, d.id), dl];
  const attrs = Object.entries(d.attributes);
  if (attrs.length) {
    const table = el('dl');
    for (const [k, v] of attrs) row(table, k, typeof v === 'string' ? v : JSON.stringify(v));
    parts.push(el('h2', { class: 'sub' }, 'attributes'), table);
  }
  if (d.data !== null && d.data !== undefined) {
    parts.push(el('h2', { class: 'sub' }, 'data'), el('pre', {}, JSON.stringify(d.data, null, 2)));
  }
  if (d.successors.length) parts.push(el('h2', { class: 'sub' }, 'points to'), nodeButtons(d.successors));
  if (d.predecessors.length) parts.push(el('h2', { class: 'sub' }, 'pointed to by'), nodeButtons(d.predecessors));
  if (d.truncated) parts.push(el('p', { class: 'hint' }, 'Lists cut at 50.'));
  box.replaceChildren(...parts);
}

/// Selects a node, drawing its neighbourhood first if it is not drawn.
async function findNode(id) {
  id = id.trim();
  if (!id || !state.network) return;
  if (!state.index.has(id)) {
    state.scope = 'neighborhood';
    state.focus = id;
    writeHash();
    await loadGraph(false);
    if (!state.index.has(id)) {
      message(`No node '${id}' in ${state.network}.`);
      return;
    }
  }
  select(id);
  centerOn(id);
}

function setScope(scope) {
  if (scope === 'all') {
    state.scope = 'all';
    state.focus = null;
  } else {
    const about = state.selected || state.focus;
    if (!about) return;
    state.scope = scope;
    state.focus = about;
  }
  writeHash();
  loadGraph(false);
}

// ---------- pan and zoom ----------

/// Applies state.t at the next frame: a burst of wheel events costs one repaint.
function applyTransform() {
  if (state.frame) return;
  state.frame = requestAnimationFrame(() => {
    state.frame = 0;
    const { x, y, k } = state.t;
    $('viewport').setAttribute('transform', `translate(${x},${y}) scale(${k})`);
    $('graph').classList.toggle('far', k < FAR_ZOOM);
    $('graph').classList.toggle('weights-small', k < WEIGHT_ZOOM);
    if (state.readyPending) {
      state.readyPending = false;
      document.body.dataset.ready = 'true';
    }
  });
}

/// Zooms and pans so the whole drawing fills the area (above the legend), never
/// magnifying past MAX_FIT_SCALE. Measures what is drawn (self-loops and edges
/// drawn back reach past the layout's box), not the layout's size.
function fit() {
  const box = $('graph').getBoundingClientRect();
  let bb = null;
  try {
    bb = state.view && state.view.nodes.length ? $('viewport').getBBox() : null;
  } catch (_) { /* not rendered */ }
  if (!bb || !bb.width || !bb.height || !box.width) {
    state.t = { x: 0, y: 0, k: 1 };
  } else {
    const legend = $('legend').offsetHeight + 8;
    const w = Math.max(1, box.width - 2 * FIT_PAD);
    const h = Math.max(1, box.height - 2 * FIT_PAD - legend);
    const k = Math.max(0.02, Math.min(MAX_FIT_SCALE, w / bb.width, h / bb.height));
    state.t = {
      k,
      x: FIT_PAD + (w - bb.width * k) / 2 - bb.x * k,
      y: FIT_PAD + (h - bb.height * k) / 2 - bb.y * k,
    };
  }
  applyTransform();
}

function centerOn(id) {
  const n = state.view && state.view.nodes[state.index.get(id)];
  if (!n) return;
  const box = $('graph').getBoundingClientRect();
  const k = Math.max(state.t.k, 0.8);
  state.t = { k, x: box.width / 2 - n.x * k, y: box.height / 2 - n.y * k };
  applyTransform();
}

function zoomAt(px, py, factor) {
  const t = state.t;
  const k = Math.min(4, Math.max(0.02, t.k * factor));
  const f = k / t.k;
  state.t = { k, x: px - (px - t.x) * f, y: py - (py - t.y) * f };
  applyTransform();
}

function setupPanZoom() {
  const area = $('graph');
  area.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const r = area.getBoundingClientRect();
    zoomAt(ev.clientX - r.left, ev.clientY - r.top, Math.exp(-ev.deltaY * 0.0015));
  }, { passive: false });
  let drag = null;
  area.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, tx: state.t.x, ty: state.t.y, moved: false };
  });
  window.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    drag.moved = true;
    area.classList.add('panning');
    state.t = { ...state.t, x: drag.tx + dx, y: drag.ty + dy };
    applyTransform();
  });
  window.addEventListener('pointerup', () => {
    area.classList.remove('panning');
    setTimeout(() => { drag = null; }, 0);
  });
  area.addEventListener('click', (ev) => {
    if (drag && drag.moved) return;
    const node = ev.target.closest('.node');
    if (node) select(node.dataset.id);
  });
}

// ---------- live updates ----------

function setLive(on) {
  const live = $('live');
  live.classList.toggle('on', on);
  live.textContent = on ? 'live' : 'offline';
}

/// Coalesces bursts of changes into one refetch.
function schedule(list, graph) {
  state.pending.list ||= list;
  state.pending.graph ||= graph;
  clearTimeout(state.timer);
  state.timer = setTimeout(async () => {
    const { list: doList, graph: doGraph } = state.pending;
    state.pending = { list: false, graph: false };
    if (doList) {
      const networks = await loadNetworks().catch((e) => { message(e.message); return []; });
      if (!state.network && networks.length) {
        await openNetwork(networks[0].name);
        return;
      }
    }
    if (doGraph) await loadGraph(true);
    if (doGraph && state.selected && state.index.has(state.selected)) loadDetails(state.selected);
  }, DEBOUNCE_MS);
}

function connectEvents() {
  if (state.events) state.events.close();
  const url = '/ui/events' + (state.network ? '?' + new URLSearchParams({ network: state.network }) : '');
  const events = new EventSource(url);
  let connections = 0;
  events.addEventListener('ready', () => {
    setLive(true);
    // After a reconnection, refetch whatever changed while we were away.
    if (connections++ > 0) schedule(true, true);
  });
  events.addEventListener('network', (ev) => {
    let name = null;
    try { name = JSON.parse(ev.data); } catch (_) { /* ignore */ }
    schedule(true, name === state.network);
  });
  events.addEventListener('list', () => schedule(true, false));
  events.addEventListener('lagged', () => schedule(true, true));
  events.addEventListener('error', () => setLive(events.readyState === EventSource.OPEN));
  state.events = events;
}

// ---------- start ----------

async function start() {
  setupPanZoom();
  $('fit').addEventListener('click', fit);
  $('search-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    findNode($('search').value);
  });
  for (const b of document.querySelectorAll('.scope button')) {
    b.addEventListener('click', () => setScope(b.dataset.scope));
  }
  $('status-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const value = $('status-attribute').value.trim();
    if (value) state.status.status_attribute = value;
    else delete state.status.status_attribute;
    writeHash();
    loadGraph(true);
  });
  window.addEventListener('resize', () => { if (state.view) applyTransform(); });
  readHash();
  let networks;
  try {
    networks = await loadNetworks();
  } catch (err) {
    message(err.message);
    document.body.dataset.state = 'error';
    document.body.dataset.ready = 'true';
    return;
  }
  if (!state.network || !networks.some((n) => n.name === state.network)) {
    state.network = networks.length ? networks[0].name : null;
  }
  connectEvents();
  if (state.network) {
    for (const b of document.querySelectorAll('.networks button')) {
      b.classList.toggle('current', b.dataset.network === state.network);
    }
    writeHash();
    await loadGraph(false);
  } else {
    message('No networks yet. Create one through /mcp; it appears here when it does.');
    document.body.dataset.state = 'ready';
    document.body.dataset.ready = 'true';
  }
}

start();
