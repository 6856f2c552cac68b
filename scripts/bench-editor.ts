/**
 * Plangate's editor side by side with a plain React Flow page (issues #17, #29), in headless
 * Chromium at 1440×900, against a production server on an empty embedded database.
 * For each size (BENCH_SIZES, default 1,000 / 10,000 / 20,000 tasks) both get the same
 * synthetic graph at the same saved wave-column positions, and the bench measures:
 *   - each page opened at the task in the middle of the plan (`?task=`), every load in a fresh
 *     browser context (empty cache, only the session cookie), timed from its navigation start:
 *     cold (the first load after the server was started) and warm (median of 3 after it). For
 *     Plangate the first picture (the linked task on screen: for a big plan the read-only
 *     preview the server draws, timed by Element Timing as the browser paints it, else the
 *     `plangate:canvas-ready` mark) and every task editable (`plangate:editable`, the editor's
 *     canvas); the plain page (./plain-flow) is editable once it draws (`plain:canvas-ready`);
 *   - drag frame times (rAF deltas while a node is dragged): that task, each page opened at it
 *     (fitted to it), on Plangate's editor canvas;
 *   - the worker's first layout (the `plangate:layout` mark) of a plan without positions,
 *     over the 2,000 tasks the server lays out itself and up to 10,000 tasks (20,000 too with BENCH_LAYOUT_20K=1);
 *   - a one-field edit saved with PATCH and PUT /api/plans/{id}, median of 5 after one warm-up.
 * And a 2,000-task plan grouped into subgraphs (issue 7), saved collapsed: canvas ready,
 * the nodes React Flow draws, and the time from "Expand all" / "Collapse all" to the canvas
 * showing it. Last, plain React Flow drawing one node (the floor: React and React Flow booting).
 * One JSON document on stdout; the side-by-side table and which targets hold on stderr.
 *
 * Run: `npm run bench` (after the graph benchmark) or `npx tsx scripts/bench-editor.ts`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from '../e2e/auth-support';
import { startServer, type ServerProcess } from '../e2e/server-process';
import { buildGraphIndex, waveLevels } from '../lib/graph';
import { FIRST_LAYOUT_MAX_TASKS } from '../lib/layout/first-layout';
import { normaliseSubgraphs } from '../lib/optimize/subgraph-edits';
import { PLANGATE_MARKS, VIEWPORT, benchPlan, editorSession, freshLoad, median, type Load, type Session } from './lib/editor-loads';
import { ensureBuild, root } from './lib/setup.mjs';
import { startPlainFlow, type PlainGraph } from './plain-flow/serve';

const PORT = Number(process.env.BENCH_PORT ?? 4100);
const PLAIN_PORT = Number(process.env.BENCH_PLAIN_PORT ?? PORT + 1);
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,20000').split(',').map(Number);
const LAYOUT_MAX = process.env.BENCH_LAYOUT_20K === '1' ? 20_000 : 10_000;
const NAVIGATIONS = 3;
const SAVES = 5;

let BASE = '';

/** The plan as the plain page draws it: one default node per task, labelled with its id, one edge per dependency. */
function plainGraphOf(body: ReturnType<typeof benchPlan>): PlainGraph {
  const tasks = body.plan.planned_tasks;
  return {
    nodes: tasks.map((t) => ({ id: t.task_id, position: body.view.positions[t.task_id], data: { label: t.task_id } })),
    edges: tasks.flatMap((t) => t.dependencies.map((d) => ({ id: `${d}->${t.task_id}`, source: d, target: t.task_id }))),
  };
}

const GROUPED_TASKS = Number(process.env.BENCH_GROUPED ?? 2000);
const GROUP_SIZE = 25;

/**
 * The plan grouped by wave, at most GROUP_SIZE tasks a subgraph (acyclic, since every
 * dependency points to a later wave), each subgraph drawn as a compact block of five
 * columns and the blocks on a grid, as a grouped layout would place them.
 */
function groupedPlanOf(n: number) {
  const body = benchPlan(n, false);
  const tasks = body.plan.planned_tasks;
  const levels = waveLevels(buildGraphIndex(tasks))!;
  const byWave = new Map<number, string[][]>();
  tasks.forEach((t, i) => {
    const chunks = byWave.get(levels[i]) ?? byWave.set(levels[i], [[]]).get(levels[i])!;
    if (chunks[chunks.length - 1].length === GROUP_SIZE) chunks.push([]);
    chunks[chunks.length - 1].push(t.task_id);
  });
  const groups = [...byWave.entries()].sort(([a], [b]) => a - b).flatMap(([, chunks]) => chunks);
  const subgraphs = normaliseSubgraphs(tasks, groups.map((task_ids, g) => ({ subgraph_id: `sg-${g + 1}`, task_ids })));
  const positions: Record<string, { x: number; y: number }> = {};
  groups.forEach((ids, g) => {
    ids.forEach((id, k) => {
      positions[id] = { x: (g % 10) * 1_700 + (k % 5) * 300, y: Math.floor(g / 10) * 800 + Math.floor(k / 5) * 130 };
    });
  });
  return { ...body, title: `Bench ${n} grouped`, subgraphs, view: { positions, collapsed: subgraphs.map((sg) => sg.subgraph_id) } };
}

async function api<T>(method: string, url: string, body?: string): Promise<T> {
  const response = await fetch(`${BASE}${url}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
    body,
  });
  if (!response.ok) throw new Error(`bench-editor: ${method} ${url} answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
  return (await response.json()) as T;
}

const createPlan = async (body: unknown) => (await api<{ id: string }>('POST', '/api/plans', JSON.stringify(body))).id;

/**
 * The cold load (the caller has just started the server, so it is the first after the start),
 * then NAVIGATIONS warm ones, each in a fresh context, and their medians. A page that never
 * becomes editable is not asked again.
 */
async function coldAndWarm(browser: Browser, url: string, marks: { first: string; editable: string; painted?: string }, session?: Session) {
  const loads: Load[] = [];
  for (let i = 0; i <= NAVIGATIONS; i++) {
    const { page, timing } = await freshLoad(browser, BASE, url, marks, session);
    await page.context().close();
    loads.push(timing);
    if (timing.editable === null) break;
  }
  const [cold, ...warm] = loads;
  const mid = (key: keyof Load) => (warm.length === NAVIGATIONS && warm.every((l) => l[key] !== null) ? median(warm.map((l) => l[key]!)) : null);
  return { cold, warm: { first_picture: mid('first_picture'), canvas_ready: mid('canvas_ready'), editable: mid('editable'), first_byte: mid('first_byte') }, warm_runs: warm };
}

/** Until the page draws 10 frames in a row in under 25 ms (at most `maxMs`): what its last render left to do is done. */
async function settle(page: Page, maxMs = 10_000) {
  // Strings, not functions, for page code below: tsx's name helpers do not exist inside the page.
  await page.evaluate(`new Promise((resolve) => {
    let calm = 0;
    let last = performance.now();
    const end = last + ${maxMs};
    const tick = (t) => {
      calm = t - last < 25 ? calm + 1 : 0;
      last = t;
      if (calm >= 10 || t > end) resolve();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })`);
}

async function dragFrames(page: Page, nodeId: string) {
  const node = page.locator(`.react-flow__node[data-id="${nodeId}"]`);
  const box = (await node.boundingBox())!;
  await page.evaluate(`(() => {
    window.__frames = [];
    window.__recording = true;
    const tick = (t) => {
      window.__frames.push(t);
      if (window.__recording) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  const x = box.x + box.width / 2;
  const y = box.y + Math.min(20, box.height / 2);
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 60; i++) await page.mouse.move(x + i * 4, y + i * 2);
  await page.mouse.up();
  const frames = (await page.evaluate('window.__recording = false, window.__frames')) as number[];
  const after = await node.boundingBox();
  if (process.env.BENCH_DEBUG) process.stderr.write(JSON.stringify(frames.slice(1).map((t, i) => Math.round(t - frames[i]))) + '\n');
  const deltas = frames.slice(1).map((t, i) => t - frames[i]).sort((a, b) => a - b);
  const at = (q: number) => Number(deltas[Math.min(deltas.length - 1, Math.floor(deltas.length * q))].toFixed(1));
  // A drag that did not move the node measured nothing.
  const moved = !!after && Math.hypot(after.x - box.x, after.y - box.y) > 50;
  return { node: nodeId, moved, p50: at(0.5), p95: at(0.95), max: at(1), frames: deltas.length };
}

type Drag = Awaited<ReturnType<typeof dragFrames>>;

/** Drags `nodeId` once it is drawn; null when it never is. */
async function dragWhenDrawn(page: Page, nodeId: string, canvas = '.react-flow'): Promise<Drag | null> {
  const drawn = await page
    .locator(`${canvas} .react-flow__node[data-id="${nodeId}"]`)
    .waitFor({ state: 'visible', timeout: 30_000 })
    .then(() => true, () => false);
  if (!drawn) {
    process.stderr.write(`bench-editor: ${nodeId} was not drawn within 30 s at ${page.url()}\n`);
    return null;
  }
  await settle(page);
  return dragFrames(page, nodeId);
}

/**
 * A one-field edit (a task's description) saved over the REST API, as the editor sends it
 * (PATCH: the one task) and as a whole plan (PUT): one warm-up each, then the median of SAVES.
 */
async function saveTimes(id: string, taskId: string) {
  type Task = { task_id: string; description: string };
  const head = await api<{ revision: number; plan: { planned_tasks: Task[] } }>('GET', `/api/plans/${id}`);
  let revision = head.revision;
  const task = head.plan.planned_tasks.find((t) => t.task_id === taskId)!;
  const timed = async (method: 'PATCH' | 'PUT', i: number) => {
    const edited = { ...task, description: `${task.description} (${method} ${i})` };
    // The body is ready before the clock starts, as an editor's would be when the user saves.
    const body = JSON.stringify(
      method === 'PATCH'
        ? { base_revision: revision, upsert_tasks: [edited], message: `Bench edit ${i}` }
        : { base_revision: revision, plan: { ...head.plan, planned_tasks: head.plan.planned_tasks.map((t) => (t.task_id === taskId ? edited : t)) }, message: `Bench edit ${i}` },
    );
    const start = performance.now();
    revision = (await api<{ revision: number }>(method, `/api/plans/${id}`, body)).revision;
    return { ms: Math.round(performance.now() - start), bytes: body.length };
  };
  const patch: number[] = [];
  const put: number[] = [];
  let patchBytes = 0;
  for (let i = 0; i <= SAVES; i++) {
    const { ms, bytes } = await timed('PATCH', i);
    patchBytes = bytes;
    if (i > 0) patch.push(ms);
  }
  for (let i = 0; i <= SAVES; i++) {
    const { ms } = await timed('PUT', i);
    if (i > 0) put.push(ms);
  }
  return { median: median(patch), runs: patch, body_bytes: patchBytes, whole_plan_median: median(put) };
}

// The plain page is editable as soon as it draws.
const PLAIN_MARKS = { first: 'plain:canvas-ready', editable: 'plain:canvas-ready' };

async function benchSize(browser: Browser, plainUrl: string, setGraph: (name: string, graph: PlainGraph) => void, n: number) {
  const body = benchPlan(n, true);
  const id = await createPlan(body);
  setGraph(String(n), plainGraphOf(body));
  const target = `task-${Math.floor(n / 2)}`;

  // Cold: the first load after the server starts, so nothing of the plan is cached in it.
  await restartServer();
  const session = await editorSession(browser, BASE);
  const plangate = await coldAndWarm(browser, `/plans/${id}?task=${target}`, PLANGATE_MARKS, session);
  const plain = await coldAndWarm(browser, `${plainUrl}/?graph=${n}&task=${target}`, PLAIN_MARKS);

  // Dragged where each page opened at the task draws it: on Plangate's editor canvas.
  const plangatePage = (await freshLoad(browser, BASE, `/plans/${id}?task=${target}`, PLANGATE_MARKS, session)).page;
  const plangateDrag = await dragWhenDrawn(plangatePage, target, '[aria-label="Plan graph"]');
  await plangatePage.context().close();
  const plainPage = (await freshLoad(browser, BASE, `${plainUrl}/?graph=${n}&task=${target}`, PLAIN_MARKS)).page;
  const plainDrag = await dragWhenDrawn(plainPage, target);
  await plainPage.context().close();

  let layout: { ms: number | null } | null = null;
  // A plan of up to FIRST_LAYOUT_MAX_TASKS sent without positions is laid out by the server as
  // it is stored, so its page never lays it out.
  if (n > FIRST_LAYOUT_MAX_TASKS && n <= LAYOUT_MAX) {
    // Opened as a user opens it; whatever the page shows first, the worker lays the plan out.
    const bare = await createPlan(benchPlan(n, false));
    const { page } = await freshLoad(browser, BASE, `/plans/${bare}`, { first: 'plangate:layout', editable: 'plangate:layout' }, session);
    layout = { ms: await page.evaluate(() => (performance.getEntriesByName('plangate:layout')[0] as PerformanceMark | undefined)?.detail?.ms ?? null) };
    await page.context().close();
  }

  const save = await saveTimes(id, target);
  const ratio = (x: number | null, base: number | null) => (x === null || base === null ? null : Number((x / base).toFixed(2)));
  return {
    tasks: n,
    plangate: { ...plangate, drag: plangateDrag },
    plain: { ...plain, drag: plainDrag },
    ratio: {
      cold: { first_picture: ratio(plangate.cold.first_picture, plain.cold.editable), editable: ratio(plangate.cold.editable, plain.cold.editable) },
      warm: { first_picture: ratio(plangate.warm.first_picture, plain.warm.editable), editable: ratio(plangate.warm.editable, plain.warm.editable) },
    },
    layout,
    save: { median_ms: save.median, runs: save.runs, body_bytes: save.body_bytes, whole_plan_median_ms: save.whole_plan_median },
  };
}

type SizeResult = Awaited<ReturnType<typeof benchSize>>;

/** Milliseconds from a click on `button` until the canvas draws task nodes (`expanded`) or none. */
async function timeToggle(page: Page, button: string, expanded: boolean) {
  const start = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name: button }).click();
  // A function, not a string: the app's CSP forbids evaluating strings in the page.
  await page.waitForFunction((want) => document.querySelectorAll('.react-flow__node-task').length > 0 === want, expanded, { timeout: 60_000 });
  return Math.round((await page.evaluate(() => performance.now())) - start);
}

/**
 * Opened on the task canvas (a viewport in the link; a plan this big would open in the
 * overview), where collapsed subgraphs are drawn as one node each.
 */
async function benchGrouped(browser: Browser, session: Session) {
  const body = groupedPlanOf(GROUPED_TASKS);
  const id = await createPlan(body);
  const url = `/plans/${id}?view=0,0,0.5`;
  // The first load warms the server for this plan; the second is timed.
  await (await freshLoad(browser, BASE, url, PLANGATE_MARKS, session)).page.context().close();
  const { page, timing } = await freshLoad(browser, BASE, url, PLANGATE_MARKS, session);
  try {
    const drawn = () => page.evaluate(() => document.querySelectorAll('.react-flow__node').length);
    const collapsedNodes = await drawn();
    const expandMs = await timeToggle(page, 'Expand all', true);
    const expandedNodes = await drawn();
    const collapseMs = await timeToggle(page, 'Collapse all', false);
    return { tasks: GROUPED_TASKS, subgraphs: body.subgraphs.length, interactive_collapsed_ms: timing.editable, nodes_drawn_collapsed: collapsedNodes, nodes_drawn_expanded: expandedNodes, expand_all_ms: expandMs, collapse_all_ms: collapseMs };
  } finally {
    await page.context().close();
  }
}

type Grouped = Awaited<ReturnType<typeof benchGrouped>>;

/**
 * Plain React Flow drawing one node: what booting React and React Flow costs in a fresh
 * context, before any graph. A ratio target below floor / plain time cannot be met by any
 * editor built on React Flow, so the table prints it beside the sizes.
 */
async function benchFloor(browser: Browser, plainUrl: string, setGraph: (name: string, graph: PlainGraph) => void) {
  setGraph('floor', { nodes: [{ id: 'task-0', position: { x: 0, y: 0 }, data: { label: 'task-0' } }], edges: [] });
  const { warm } = await coldAndWarm(browser, `${plainUrl}/?graph=floor&task=task-0`, PLAIN_MARKS);
  return { one_node_ms: warm.editable };
}

type Floor = Awaited<ReturnType<typeof benchFloor>>;

const TARGETS = { first_picture_ratio: 0.3, editable_ratio: 0.5, drag_frame_p95_ms: 17, layout_10000_ms: 3_000, save_ms: 100 };

interface Check {
  target: string;
  figure: string;
  /** null: not measured in this run (its size left out of BENCH_SIZES). */
  holds: boolean | null;
}

const fmt = (v: number) => v.toLocaleString('en');

/** Every size measured: the ratios, cold and warm, and the drag; the layout at 10,000 and the saves. */
function checks(results: SizeResult[]): Record<string, Check> {
  const out: Record<string, Check> = {};
  for (const r of results) {
    const tasks = `${fmt(r.tasks)} tasks`;
    for (const when of ['cold', 'warm'] as const) {
      for (const [kind, label, limit] of [['first_picture', 'first picture', TARGETS.first_picture_ratio], ['editable', 'every task editable', TARGETS.editable_ratio]] as const) {
        const ratio = r.ratio[when][kind];
        const mine = r.plangate[when][kind];
        const base = r.plain[when].editable;
        out[`${kind}_${when}_${r.tasks}`] = {
          target: `${tasks}, ${when}: ${label} ≤ ${limit}× plain React Flow`,
          figure: ratio === null ? 'no figure (a page set no mark; see the results)' : `${ratio}× (${fmt(mine!)} / ${fmt(base!)} ms)`,
          holds: ratio !== null && ratio <= limit,
        };
      }
    }
    const drag = r.plangate.drag;
    out[`drag_p95_${r.tasks}`] = {
      target: `${tasks}: drag frame p95 ≤ ${TARGETS.drag_frame_p95_ms} ms`,
      figure: drag ? `${drag.p95} ms${drag.moved ? '' : ' (the node did not move)'}; plain React Flow ${r.plain.drag?.p95 ?? '—'} ms` : 'no figure (the task was not drawn)',
      holds: !!drag && drag.moved && drag.p95 <= TARGETS.drag_frame_p95_ms,
    };
    if (r.tasks === 10_000) {
      const ms = r.layout?.ms ?? null;
      out.layout_10000 = { target: `${tasks}: first layout in the worker < ${fmt(TARGETS.layout_10000_ms)} ms`, figure: ms === null ? 'no figure' : `${fmt(ms)} ms`, holds: ms !== null && ms < TARGETS.layout_10000_ms };
    }
    out[`save_${r.tasks}`] = { target: `${tasks}: one-field edit saved < ${TARGETS.save_ms} ms`, figure: `${fmt(r.save.median_ms)} ms`, holds: r.save.median_ms < TARGETS.save_ms };
  }
  return out;
}

function table(results: SizeResult[], grouped: Grouped | { error: string }, floor: Floor, verdicts: Record<string, Check>) {
  const ms = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${fmt(v)} ms`);
  const x = (v: number | null) => (v === null ? '—' : `${v.toFixed(2)}×`);
  // '—': no figure; for a load, the page never set its mark.
  const drag = (d: Drag | null) => (d ? `${d.p95}${d.moved ? '' : '*'}` : '—');
  const head = ['tasks', 'load', 'Plangate first picture', 'Plangate editable', 'plain React Flow', 'ratio first / editable', 'first byte'];
  const rows = results.flatMap((r) =>
    (['cold', 'warm'] as const).map((when) => [
      fmt(r.tasks),
      when,
      ms(r.plangate[when].first_picture),
      ms(r.plangate[when].editable),
      ms(r.plain[when].editable),
      `${x(r.ratio[when].first_picture)} / ${x(r.ratio[when].editable)}`,
      ms(r.plangate[when].first_byte),
    ]),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ');
  const lines = [
    '',
    `Editor opened at a task, from navigation start, each load in a fresh browser context (cold: the first after the server started; warm: median of ${NAVIGATIONS} after it), Plangate vs plain React Flow (same graph, same positions)`,
    line(head),
    widths.map((w) => '-'.repeat(w)).join('-|-'),
    ...rows.map(line),
    'first picture: the linked task on screen (for a plan over 500 tasks read-only, from the tasks the page carries); editable: the editor holds every task, the linked one drawn; plain React Flow is editable once it draws',
    `floor: plain React Flow drawing one node, warm: ${ms(floor.one_node_ms)}${results.map((r) => (floor.one_node_ms && r.plain.warm.editable ? `; ${x(floor.one_node_ms / r.plain.warm.editable)} of plain at ${fmt(r.tasks)}` : '')).join('')}`,
    '',
    ...results.map((r) => `${fmt(r.tasks)} tasks: drag p95 Plangate / plain ${drag(r.plangate.drag)} / ${drag(r.plain.drag)} ms; first layout ${ms(r.layout?.ms)}; save (PATCH / whole PUT) ${ms(r.save.median_ms)} / ${ms(r.save.whole_plan_median_ms)}`),
  ];
  if (results.some((r) => (r.plangate.drag && !r.plangate.drag.moved) || (r.plain.drag && !r.plain.drag.moved))) lines.push('* the dragged node did not move');
  lines.push(
    'error' in grouped
      ? `Grouped ${fmt(GROUPED_TASKS)} tasks: failed: ${grouped.error}`
      : `Grouped ${fmt(grouped.tasks)} tasks in ${grouped.subgraphs} subgraphs: editable ${ms(grouped.interactive_collapsed_ms)} collapsed (${grouped.nodes_drawn_collapsed} nodes drawn), expand all ${ms(grouped.expand_all_ms)}, collapse all ${ms(grouped.collapse_all_ms)}`,
    '',
    'Targets:',
    ...Object.values(verdicts).map((c) => `  ${c.holds === null ? 'not measured  ' : c.holds ? 'holds         ' : 'does not hold '} ${c.target}: ${c.figure}`),
    '',
  );
  return lines.join('\n');
}

let server: ServerProcess | undefined;
let dataDir = '';

/** Stops the server (if running) and starts it again on the same data. */
async function restartServer() {
  await server?.stop();
  // The e2e specs' own server process: the same start, health wait and stop.
  server = await startServer(PORT, { PLANGATE_DATA_DIR: dataDir, PLANGATE_DEMO: 'off', PLANGATE_DEMO_USERS: 'on' });
  BASE = server.url;
}

async function main() {
  ensureBuild();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'plangate-bench-'));
  await restartServer();
  const plain = await startPlainFlow(PLAIN_PORT);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const results: SizeResult[] = [];
    for (const n of SIZES) {
      results.push(await benchSize(browser, plain.url, plain.setGraph, n));
      process.stderr.write(`bench-editor: ${n} tasks done\n`);
    }
    // Its failure costs its own figures, not the side-by-side ones measured before it.
    const grouped = await benchGrouped(browser, await editorSession(browser, BASE)).catch((error: Error) => ({ error: error.message.split('\n')[0] }));
    const floor = await benchFloor(browser, plain.url, plain.setGraph);
    const verdicts = checks(results);
    process.stderr.write(table(results, grouped, floor, verdicts));
    console.log(
      JSON.stringify(
        {
          suite: 'editor',
          generated_at: new Date().toISOString(),
          environment: { chromium: browser.version(), cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, load_average: os.loadavg(), node: process.version, viewport: VIEWPORT, xyflow_react: JSON.parse(readFileSync(path.join(root, 'node_modules', '@xyflow', 'react', 'package.json'), 'utf8')).version },
          targets: TARGETS,
          meets_targets: Object.fromEntries(Object.entries(verdicts).map(([key, c]) => [key, c.holds])),
          checks: verdicts,
          results,
          grouped,
          floor,
        },
        null,
        2,
      ),
    );
  } finally {
    await browser.close();
    await plain.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
