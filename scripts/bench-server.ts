/**
 * Benchmark of issue 13 point 9, "no single request can exhaust the server", and issue 29
 * item 3, "no request stalls the server": the production server (`next start`, PGlite in
 * a temporary folder) gets one heavy request at a time while this script polls
 * `GET /api/health` every 50 ms; the worst health latency during each request is the
 * figure (target under 200 ms: dry runs, Monte Carlo and validation run in compute
 * workers; a big plan's pages and reads are among the requests), the Monte Carlo at its budget (100 runs of 20,000 tasks) must finish in
 * under 5 s, and for the plan of 50 convertors that each return 8 MB, the server's peak
 * RSS must stay under 1 GB. Last, the server gets SIGTERM with requests under way and must
 * be gone within 10 s. Every row is printed with the targets it is held to.
 *
 * Run: `npm run bench` (after the other suites) or `npx tsx scripts/bench-server.ts`.
 * Prints a table to stderr and one JSON document to stdout. Needs a production build,
 * made by ensureBuild() when the sources changed.
 *
 * Options (environment): BENCH_SERVER_PORT (default: a free port), BENCH_SERVER_TASKS
 * (default 20,000: the plan limit).
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { DEMO_PASSWORDS, signIn } from '../e2e/auth-support';
import { MAX_MONTE_CARLO_TASK_RUNS } from '../lib/simulate/monte-carlo';
import { SCHEMA_LIMITS } from '../lib/registry/schema-budget';
import { ensureBuild, root } from './lib/setup.mjs';
import { syntheticPlan } from './synthetic-plan';

const TASKS = Number(process.env.BENCH_SERVER_TASKS ?? 20_000);
const ADMIN_TOKEN = `pgt_bench_${randomBytes(16).toString('hex')}`;
const HEALTH_TARGET_MS = 200;
const MONTE_CARLO_TARGET_MS = 5_000;
const RSS_TARGET_MB = 1_024;
const SIGTERM_TARGET_MS = 10_000;
const POLL_MS = 50;

let BASE = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

// ---- the server's processes and their memory -------------------------------------------

/** The processes of the server's process group (npx and the node process(es) it starts). */
function groupPids(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

function statusKb(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** The server process: the node process of the group using the most memory (not npx). */
function serverPid(pgid: number): number {
  const candidates = groupPids(pgid).filter((pid) => pid !== pgid);
  const pool = candidates.length ? candidates : [pgid];
  return pool.reduce((best, pid) => (statusKb(pid, 'VmRSS') > statusKb(best, 'VmRSS') ? pid : best), pool[0]);
}

// ---- HTTP -------------------------------------------------------------------------------

const headers = { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` };

async function call(method: string, url: string, body?: string): Promise<{ status: number; bytes: number; json: unknown }> {
  const response = await fetch(`${BASE}${url}`, { method, headers, body });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, bytes: Buffer.byteLength(text), json };
}

/** A page as a signed-in editor's browser asks for it: its HTML, with the session cookie. */
async function page(url: string, cookie: string): Promise<{ status: number; bytes: number; json: unknown }> {
  const response = await fetch(`${BASE}${url}`, { headers: { cookie, accept: 'text/html' } });
  return { status: response.status, bytes: Buffer.byteLength(await response.text()), json: null };
}

/** The demo editor's session cookie, signed in through the form. */
async function editorCookie(): Promise<string> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const context = await browser.newContext({ baseURL: BASE });
    await signIn(await context.newPage(), 'editor', DEMO_PASSWORDS.editor);
    return (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  } finally {
    await browser.close();
  }
}

async function waitForServer() {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('bench-server: the server did not start within 90 s');
}

interface Row {
  request: string;
  status: number;
  duration_ms: number;
  response_bytes: number;
  health_worst_ms: number;
  health_polls: number;
  peak_rss_mb?: number;
  note: string;
}

/**
 * Runs one request while polling /api/health every POLL_MS (one poll in flight at a
 * time, so a blocked server shows as one long poll) and the server's RSS.
 */
async function measure(name: string, pid: number, send: () => Promise<{ status: number; bytes: number; json: unknown }>, note: (json: unknown) => string, expect: number[]): Promise<Row> {
  let stop = false;
  let worst = 0;
  let polls = 0;
  let peakRssKb = statusKb(pid, 'VmRSS');
  const poller = (async () => {
    while (!stop) {
      const started = performance.now();
      try {
        await fetch(`${BASE}/api/health`);
      } catch {
        // counted as slow as it took
      }
      const took = performance.now() - started;
      worst = Math.max(worst, took);
      polls += 1;
      await new Promise((r) => setTimeout(r, Math.max(0, POLL_MS - took)));
    }
  })();
  const rss = setInterval(() => {
    peakRssKb = Math.max(peakRssKb, statusKb(pid, 'VmRSS'));
  }, POLL_MS);
  const started = performance.now();
  const result = await send();
  const duration = performance.now() - started;
  stop = true;
  await poller;
  clearInterval(rss);
  peakRssKb = Math.max(peakRssKb, statusKb(pid, 'VmRSS'));
  if (!expect.includes(result.status)) {
    throw new Error(`bench-server: ${name} answered ${result.status}, expected ${expect.join(' or ')}: ${JSON.stringify(result.json).slice(0, 500)}`);
  }
  const row: Row = {
    request: name,
    status: result.status,
    duration_ms: Math.round(duration),
    response_bytes: result.bytes,
    health_worst_ms: Math.round(worst),
    health_polls: polls,
    peak_rss_mb: Math.round(peakRssKb / 1024),
    note: note(result.json),
  };
  process.stderr.write(`bench-server: ${name}: ${row.status} in ${row.duration_ms} ms, worst health ${row.health_worst_ms} ms\n`);
  return row;
}

// ---- the requests -----------------------------------------------------------------------

function convertorPlan() {
  return {
    title: 'Bench: 50 convertors of 8 MB each',
    plan: {
      planned_tasks: Array.from({ length: 50 }, (_, i) => ({
        task_id: `convert-${i}`,
        execution_type: 'tool',
        description: 'Returns 8 MB',
        convertor_code: "return { blob: 'x'.repeat(8 * 1024 * 1024) };",
      })),
    },
  };
}

const enumOf = (n: number) => ({ type: 'string', enum: Array.from({ length: n }, (_, i) => `status-value-${i}`) });
const anyOfObjects = (n: number) => ({ anyOf: Array.from({ length: n }, (_, i) => ({ type: 'object', properties: { [`k${i}`]: { type: 'integer' } }, required: [`k${i}`] })) });
const toolWith = (id: string, properties: Record<string, unknown>) => ({ id, description: 'bench', input_schema: { type: 'object', properties } });

/** A TASKS-task plan whose every task calls the biggest allowed schema with arguments that fail both of its checks. */
function bigPlan() {
  return {
    title: `Bench: ${TASKS.toLocaleString('en')} tasks`,
    plan: {
      planned_tasks: syntheticPlan(TASKS, 7).map((t, i) => ({
        task_id: t.task_id,
        execution_type: 'tool',
        tool_id: 'bench_biggest_schema',
        description: `Step ${i}`,
        dependencies: t.dependencies,
        arguments: { choice: { nope: i }, status: `nope-${i}` },
        estimate_data: t.runtime_ms === null ? null : { latency_ms: t.runtime_ms },
      })),
    },
  };
}

/**
 * A plan file that becomes a plan of about 9.8 MB once normalised (every task gains its
 * default fields), just under the 10 MB plan limit, for import.
 */
function importContent(): string {
  const pad = 'x'.repeat(50);
  const tasks = syntheticPlan(TASKS, 11).map((t, i) => ({ task_id: t.task_id, execution_type: 'llm', description: `Import step ${i} ${pad}`, dependencies: t.dependencies }));
  return JSON.stringify({ planned_tasks: tasks });
}

/** How the row of the Monte Carlo at its budget starts (its target is MONTE_CARLO_TARGET_MS). */
const MONTE_CARLO_AT_BUDGET = 'Monte Carlo: ';

/** Every target a row is held to, with whether it meets it: health for every row, and the row's own. */
function rowTargets(r: Row, convertorRow: Row | undefined): Array<{ what: string; met: boolean }> {
  const targets = [{ what: `health < ${HEALTH_TARGET_MS} ms`, met: r.health_worst_ms < HEALTH_TARGET_MS }];
  if (r.request.startsWith(MONTE_CARLO_AT_BUDGET) && r.status === 201) targets.push({ what: `took < ${MONTE_CARLO_TARGET_MS.toLocaleString('en')} ms`, met: r.duration_ms < MONTE_CARLO_TARGET_MS });
  if (r === convertorRow) targets.push({ what: `RSS < ${RSS_TARGET_MB.toLocaleString('en')} MB`, met: (r.peak_rss_mb ?? Infinity) < RSS_TARGET_MB });
  return targets;
}

function printTable(rows: Row[], convertorRow: Row | undefined) {
  const columns: Array<[string, (r: Row) => string]> = [
    ['request', (r) => r.request],
    ['status', (r) => String(r.status)],
    ['response', (r) => (r.response_bytes >= 1024 * 1024 ? `${(r.response_bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(r.response_bytes / 1024)} kB`)],
    ['took ms', (r) => r.duration_ms.toLocaleString('en')],
    ['worst /api/health ms', (r) => r.health_worst_ms.toLocaleString('en')],
    ['peak RSS MB', (r) => String(r.peak_rss_mb ?? '')],
    ['targets', (r) => rowTargets(r, convertorRow).map((t) => `${t.what} ${t.met ? 'met' : 'MISSED'}`).join('; ')],
  ];
  const widths = columns.map(([title, get]) => Math.max(title.length, ...rows.map((r) => get(r).length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  process.stderr.write(`${line(columns.map(([title]) => title))}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const r of rows) process.stderr.write(`${line(columns.map(([, get]) => get(r)))}\n`);
  for (const r of rows) if (r.note) process.stderr.write(`  ${r.request}: ${r.note}\n`);
}

/** Whether a process is still there (a zombie counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

interface SigtermResult {
  exit_ms: number;
  requests_in_flight: number;
  statuses: Record<string, number>;
}

/**
 * SIGTERM under load: with `load` requests under way (heavy ones and health polls), the
 * server's process group gets SIGTERM, as a supervisor sends it; the figure is the time
 * until the server process is gone (target under SIGTERM_TARGET_MS), with what the
 * requests under way got (a status, or "closed" for a connection cut).
 */
async function sigtermUnderLoad(server: ReturnType<typeof spawn>, pid: number, load: Array<() => Promise<{ status: number }>>): Promise<SigtermResult> {
  const statuses: Record<string, number> = {};
  const inFlight = load.map((send) =>
    send().then(
      (r) => String(r.status),
      () => 'closed',
    ).then((key) => {
      statuses[key] = (statuses[key] ?? 0) + 1;
    }),
  );
  // Let the heavy requests reach the compute pool and the database first.
  await new Promise((r) => setTimeout(r, 1_000));
  const started = performance.now();
  process.kill(-server.pid!, 'SIGTERM');
  while (alive(pid) && performance.now() - started < 60_000) await new Promise((r) => setTimeout(r, 20));
  const exitMs = Math.round(performance.now() - started);
  await Promise.all(inFlight);
  return { exit_ms: exitMs, requests_in_flight: load.length, statuses };
}

async function main() {
  ensureBuild();
  const port = Number(process.env.BENCH_SERVER_PORT ?? (await freePort()));
  BASE = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'plangate-bench-server-'));
  // Its own process group, so stopping it also stops the node process npx starts.
  const server = spawn('npx', ['next', 'start', '-p', String(port)], {
    cwd: root,
    detached: true,
    env: { ...process.env, PLANGATE_DATA_DIR: dataDir, PLANGATE_DEMO: 'off', PLANGATE_DEMO_USERS: 'on', PLANGATE_ADMIN_TOKEN: ADMIN_TOKEN, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: 'ignore',
  });
  const rows: Row[] = [];
  try {
    await waitForServer();
    const pid = serverPid(server.pid!);
    const findings = (json: unknown) => {
      const result = (json as { result?: { findings?: Array<{ message: string }>; monte_carlo?: unknown; tasks?: unknown[] } })?.result;
      return result ? `${result.findings?.length ?? 0} findings${result.findings?.[0] ? `, e.g. "${result.findings[0].message.slice(0, 110)}"` : ''}` : '';
    };
    const errorMessage = (json: unknown) => ((json as { error?: { message?: string } })?.error?.message ?? '').slice(0, 200);

    // Warm the routes, the database and the sandbox so first-call costs are not measured.
    const warm = await call('POST', '/api/plans', JSON.stringify({ title: 'warm', plan: { planned_tasks: [{ task_id: 'a', execution_type: 'tool', convertor_code: 'return 1' }] } }));
    const warmId = (warm.json as { id: string }).id;
    await call('POST', `/api/plans/${warmId}/simulate`, JSON.stringify({ workers: 2 }));
    await call('POST', '/api/validate', JSON.stringify({ plan: { planned_tasks: [{ task_id: 'a' }] } }));
    const hwmBefore = statusKb(pid, 'VmHWM');

    // 1. Fifty convertors of 8 MB each.
    const convertors = await call('POST', '/api/plans', JSON.stringify(convertorPlan()));
    const convertorsId = (convertors.json as { id: string }).id;
    const row = await measure('dry run: 50 convertors returning 8 MB each', pid, () => call('POST', `/api/plans/${convertorsId}/simulate`, JSON.stringify({ workers: 4 })), findings, [201]);
    const hwm = statusKb(pid, 'VmHWM');
    row.note += `; VmHWM ${Math.round(hwmBefore / 1024)} MB before, ${Math.round(hwm / 1024)} MB after`;
    rows.push(row);

    // 2. Registry schemas over the budget are refused; the biggest allowed one is stored.
    rows.push(await measure(`registry PUT: enum of 5,000 values (limit ${SCHEMA_LIMITS.maxEnumValues})`, pid, () => call('PUT', '/api/registry/tools/bench_enum', JSON.stringify(toolWith('bench_enum', { status: enumOf(5_000) }))), errorMessage, [400]));
    rows.push(await measure(`registry PUT: anyOf of 2,000 branches (limit ${SCHEMA_LIMITS.maxBranches})`, pid, () => call('PUT', '/api/registry/tools/bench_anyof', JSON.stringify(toolWith('bench_anyof', { choice: anyOfObjects(2_000) }))), errorMessage, [400]));
    const biggest = toolWith('bench_biggest_schema', { choice: anyOfObjects(SCHEMA_LIMITS.maxBranches), status: enumOf(SCHEMA_LIMITS.maxEnumValues) });
    rows.push(await measure(`registry PUT: biggest allowed (anyOf ${SCHEMA_LIMITS.maxBranches} + enum ${SCHEMA_LIMITS.maxEnumValues})`, pid, () => call('PUT', '/api/registry/tools/bench_biggest_schema', JSON.stringify(biggest)), () => '', [200, 201]));

    // 3. A plan of TASKS tasks whose every task fails both checks of that schema.
    const bigBody = JSON.stringify(bigPlan());
    const created = await measure(`create a ${TASKS.toLocaleString('en')}-task plan (${(bigBody.length / 1024 / 1024).toFixed(1)} MB)`, pid, () => call('POST', '/api/plans', bigBody), () => '', [201]);
    rows.push(created);
    const listed = await call('GET', '/api/plans');
    const bigId = (listed.json as { plans: Array<{ id: string; title: string }> }).plans.find((p) => p.title.startsWith(`Bench: ${TASKS.toLocaleString('en')}`))!.id;
    const validateBody = JSON.stringify({ plan: (JSON.parse(bigBody) as { plan: unknown }).plan });
    const issues = (json: unknown) => {
      const r = json as { valid?: boolean; issues?: unknown[] };
      return r && Array.isArray(r.issues) ? `valid ${r.valid}, ${r.issues.length} issues` : errorMessage(json);
    };
    rows.push(await measure(`POST /api/validate: ${TASKS.toLocaleString('en')} tasks on the biggest allowed schema`, pid, () => call('POST', '/api/validate', validateBody), issues, [200]));
    rows.push(await measure(`dry run: ${TASKS.toLocaleString('en')} tasks, 16 workers`, pid, () => call('POST', `/api/plans/${bigId}/simulate`, JSON.stringify({ workers: 16 })), findings, [201]));
    const atBudget = Math.floor(MAX_MONTE_CARLO_TASK_RUNS / TASKS);
    rows.push(await measure(`${MONTE_CARLO_AT_BUDGET}${atBudget} runs × ${TASKS.toLocaleString('en')} tasks (the budget)`, pid, () => call('POST', `/api/plans/${bigId}/simulate`, JSON.stringify({ workers: 16, runs: atBudget, failure_probability: 0.01 })), (json) => `monte_carlo ${JSON.stringify((json as { result?: { monte_carlo?: unknown } })?.result?.monte_carlo ?? null).slice(0, 120)}`, [201]));
    rows.push(await measure(`Monte Carlo: 10,000 runs × ${TASKS.toLocaleString('en')} tasks (refused)`, pid, () => call('POST', `/api/plans/${bigId}/simulate`, JSON.stringify({ workers: 16, runs: 10_000, failure_probability: 0.01 })), errorMessage, [400]));
    // The pages and reads of that plan an editor and an approver open: a big plan's page carries
    // no tasks, and the API sends the stored text a few pages per query.
    const cookie = await editorCookie();
    // A first page render loads the page's modules: paid on a small plan, not measured.
    for (const url of [`/plans/${warmId}`, `/plans/${warmId}/review`, `/plans/${warmId}/dry-run`]) await page(url, cookie);
    const size = TASKS.toLocaleString('en');
    const middle = `task-${Math.floor(TASKS / 2)}`;
    for (const [name, url] of [
      [`editor page (overview): ${size} tasks`, `/plans/${bigId}`],
      [`editor page at a task: ${size} tasks`, `/plans/${bigId}?task=${middle}`],
      [`review page: ${size} tasks`, `/plans/${bigId}/review`],
      [`dry-run page: ${size} tasks`, `/plans/${bigId}/dry-run`],
    ]) {
      rows.push(await measure(name, pid, () => page(url, cookie), () => '', [200]));
    }
    rows.push(await measure(`GET revision: ${size} tasks`, pid, () => call('GET', `/api/plans/${bigId}/revisions/1`), () => '', [200]));
    rows.push(await measure(`GET latest dry run: ${size} tasks`, pid, () => call('GET', `/api/plans/${bigId}/simulate`), () => '', [200]));
    rows.push(await measure(`optimize (rule): ${TASKS.toLocaleString('en')} tasks`, pid, () => call('POST', `/api/plans/${bigId}/optimize`, JSON.stringify({ strategy: 'rule', workers: 16 })), (json) => `${(json as { subgraphs?: unknown[] })?.subgraphs?.length ?? 0} subgraphs`, [200]));
    rows.push(await measure(`export (wfformat): ${TASKS.toLocaleString('en')} tasks`, pid, () => call('GET', `/api/plans/${bigId}/export?format=wfformat`), () => '', [200]));
    const content = importContent();
    const importBody = JSON.stringify({ content, format: 'taskdata', title: 'Bench import' });
    rows.push(await measure(`import: ${TASKS.toLocaleString('en')}-task plan file (${(content.length / 1024 / 1024).toFixed(1)} MB)`, pid, () => call('POST', '/api/plans/import', importBody), errorMessage, [201]));

    const convertorRow = rows[0];
    printTable(rows, convertorRow);

    // Last: the server is stopped under load (and not started again).
    const heavy = () => call('POST', `/api/plans/${bigId}/simulate`, JSON.stringify({ workers: 16, runs: atBudget, failure_probability: 0.01 }));
    const health = () => call('GET', '/api/health');
    const sigterm = await sigtermUnderLoad(server, pid, [heavy, heavy, () => call('POST', `/api/plans/${bigId}/optimize`, JSON.stringify({ strategy: 'rule', workers: 16 })), () => call('POST', '/api/plans', bigBody), ...Array.from({ length: 20 }, () => health)]);
    process.stderr.write(
      `SIGTERM under load (${sigterm.requests_in_flight} requests under way: 2 Monte Carlo at the budget, an optimisation, a create, 20 health): ` +
        `exited in ${sigterm.exit_ms.toLocaleString('en')} ms (target < ${SIGTERM_TARGET_MS.toLocaleString('en')} ms ${sigterm.exit_ms < SIGTERM_TARGET_MS ? 'met' : 'MISSED'}); ` +
        `the requests got ${Object.entries(sigterm.statuses).map(([k, n]) => `${n}× ${k}`).join(', ')}\n`,
    );
    const monteCarloRow = rows.find((r) => r.request.startsWith(MONTE_CARLO_AT_BUDGET) && r.status === 201)!;
    process.stderr.write(
      `targets: worst /api/health under ${HEALTH_TARGET_MS} ms: ${rows.filter((r) => r.health_worst_ms >= HEALTH_TARGET_MS).length} of ${rows.length} rows over; ` +
        `Monte Carlo at its budget under ${(MONTE_CARLO_TARGET_MS / 1000).toFixed(0)} s: ${(monteCarloRow.duration_ms / 1000).toFixed(1)} s; ` +
        `convertor peak RSS under ${RSS_TARGET_MB} MB: ${convertorRow.peak_rss_mb} MB; ` +
        `SIGTERM under load exits under ${SIGTERM_TARGET_MS / 1000} s: ${(sigterm.exit_ms / 1000).toFixed(1)} s\n`,
    );
    console.log(
      JSON.stringify(
        {
          suite: 'server',
          generated_at: new Date().toISOString(),
          environment: { cpus: os.cpus().length, node: process.version, tasks: TASKS },
          targets: { health_worst_ms: HEALTH_TARGET_MS, monte_carlo_at_budget_ms: MONTE_CARLO_TARGET_MS, convertor_peak_rss_mb: RSS_TARGET_MB, sigterm_exit_ms: SIGTERM_TARGET_MS },
          meets_targets: {
            health: rows.every((r) => r.health_worst_ms < HEALTH_TARGET_MS),
            health_over_target: rows.filter((r) => r.health_worst_ms >= HEALTH_TARGET_MS).map((r) => r.request),
            monte_carlo_at_budget: monteCarloRow.duration_ms < MONTE_CARLO_TARGET_MS,
            convertor_rss: (convertorRow.peak_rss_mb ?? Infinity) < RSS_TARGET_MB,
            sigterm_exit: sigterm.exit_ms < SIGTERM_TARGET_MS,
          },
          results: rows,
          sigterm_under_load: sigterm,
        },
        null,
        2,
      ),
    );
  } finally {
    if (server.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
