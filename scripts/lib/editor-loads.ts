/**
 * How the editor benchmarks open a page and time it: the synthetic plan they open, a signed-in
 * editor's session, and one load in a fresh browser context timed from its navigation start.
 * Shared by `scripts/bench-editor.ts` (Plangate beside plain React Flow) and
 * `scripts/compare-editor-builds.ts` (two builds of Plangate, loads interleaved).
 */
import type { Browser, Page } from '@playwright/test';
import { DEMO_PASSWORDS, signIn } from '../../e2e/auth-support';
import { buildGraphIndex, waveLevels } from '../../lib/graph';
import { syntheticPlan } from '../synthetic-plan';

export const VIEWPORT = { width: 1440, height: 900 };
// Big plans take long to render and lay out; a load waits this long for a page's mark.
const READY_TIMEOUT_MS = Number(process.env.BENCH_READY_TIMEOUT_MS ?? 60_000);
const TYPES = ['agent', 'tool', 'llm', 'dsl'];

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The bench's plan of `n` tasks (the same for a given n), with saved wave-column positions or none. */
export function benchPlan(n: number, withPositions: boolean) {
  const tasks = syntheticPlan(n, 7).map((t, i) => ({
    task_id: t.task_id,
    description: `Step ${i}: ${['fetch', 'transform', 'summarise', 'review'][i % 4]} the batch`,
    execution_type: TYPES[i % 4],
    dependencies: t.dependencies,
    estimate_data: t.runtime_ms === null ? null : { latency_ms: t.runtime_ms },
  }));
  const positions: Record<string, { x: number; y: number }> = {};
  if (withPositions) {
    // Wave columns: cheap, deterministic and enough for measuring rendering and dragging.
    const levels = waveLevels(buildGraphIndex(tasks))!;
    const rows = new Map<number, number>();
    tasks.forEach((t, i) => {
      const row = rows.get(levels[i]) ?? 0;
      rows.set(levels[i], row + 1);
      positions[t.task_id] = { x: levels[i] * 320, y: row * 120 };
    });
  }
  return { title: `Bench ${n}${withPositions ? '' : ' (no layout)'}`, plan: { planned_tasks: tasks }, view: { positions } };
}

/** The session cookie of a signed-in editor at `base`, for pages opened in contexts of their own. */
export async function editorSession(browser: Browser, base: string) {
  const context = await browser.newContext({ baseURL: base, viewport: VIEWPORT });
  await signIn(await context.newPage(), 'editor', DEMO_PASSWORDS.editor);
  const state = await context.storageState();
  await context.close();
  return state;
}

export type Session = Awaited<ReturnType<typeof editorSession>>;

const markAt = (page: Page, name: string) =>
  page.evaluate((n) => {
    const entry = performance.getEntriesByName(n)[0];
    return entry ? Math.round(entry.startTime) : null;
  }, name);

/**
 * When the browser first painted an element named `identifier` (its `elementtiming`
 * attribute) inside the window, by Element Timing; null when it did not. A page drawn on the
 * server shows it before any script has run, so no mark of the page's own can time it.
 */
const paintedOnScreen = (page: Page, identifier: string) =>
  page.evaluate(
    (name) =>
      new Promise<number | null>((resolve) => {
        type ElementEntry = PerformanceEntry & { identifier: string; renderTime: number; loadTime: number; intersectionRect: DOMRectReadOnly };
        const observer = new PerformanceObserver((list) => {
          observer.disconnect();
          const entry = (list.getEntries() as ElementEntry[]).find((e) => e.identifier === name && e.intersectionRect.width > 0 && e.intersectionRect.height > 0);
          resolve(entry ? Math.round(entry.renderTime || entry.loadTime) : null);
        });
        observer.observe({ type: 'element', buffered: true });
        // No entry at all: the observer is never called.
        setTimeout(() => resolve(null), 1_000);
      }),
    identifier,
  );

/**
 * One load of `url` (against `base`) in a fresh browser context (an empty cache, only the
 * session cookie if any), timed from its navigation start: the first picture (the element
 * `marks.painted` names first painted on screen, else the `marks.first` mark, the first time
 * the canvas can be read) and the canvas every task can be edited on (`marks.editable`); null
 * when a mark never came. The page is left open.
 */
export async function freshLoad(browser: Browser, base: string, url: string, marks: { first: string; editable: string; painted?: string }, session?: Session) {
  const context = await browser.newContext({ baseURL: base, viewport: VIEWPORT, storageState: session });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'commit', timeout: READY_TIMEOUT_MS });
  const marked = await page
    .waitForFunction((name) => performance.getEntriesByName(name).length > 0, marks.editable, { timeout: READY_TIMEOUT_MS })
    .then(() => true, () => false);
  if (!marked) process.stderr.write(`no ${marks.editable} mark within ${READY_TIMEOUT_MS / 1000} s at ${url} (now at ${page.url()})\n`);
  const canvasReady = await markAt(page, marks.first);
  const timing = {
    first_picture: (marks.painted ? await paintedOnScreen(page, marks.painted) : null) ?? canvasReady,
    // The page's own mark once its script has fitted the view: the first picture before the
    // server drew it (kept to compare).
    canvas_ready: canvasReady,
    editable: await markAt(page, marks.editable),
    // The server's share: until the document's first byte.
    first_byte: await page.evaluate(() => Math.round((performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseStart)),
  };
  return { page, timing };
}

export type Load = Awaited<ReturnType<typeof freshLoad>>['timing'];

// The linked task's label carries this Element Timing name (tasks-near-canvas.tsx) on a big plan's preview.
export const PLANGATE_MARKS = { first: 'plangate:canvas-ready', editable: 'plangate:editable', painted: 'plangate:linked-task' };
