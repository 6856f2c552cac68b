/**
 * Two builds of Plangate side by side: the same plan opened at its middle task on two running
 * servers, loads interleaved (A B, B A, A B, …) so that whatever else the machine does falls on
 * both alike, each in a fresh browser context from navigation start, as `scripts/bench-editor.ts`
 * times them. Between runs on one machine the editor's load times move by about 10 %, more than
 * most single changes; interleaving is how a change is measured against the commit before it.
 *
 * Each server is a production build (`next start`) with demo users and the same admin token as
 * the e2e servers (PLANGATE_ADMIN_TOKEN, e2e/auth-support.ts), for example a second checkout of
 * the commit before on another port. Run:
 *   COMPARE_A=http://127.0.0.1:4300 COMPARE_B=http://127.0.0.1:4301 npx tsx scripts/compare-editor-builds.ts
 * Options: COMPARE_TASKS (10000), COMPARE_LOADS (12 per build, after one warm-up each).
 * Prints the medians of first byte, first picture and editable per build, and every load.
 */
import { chromium } from '@playwright/test';
import { adminHeaders } from '../e2e/auth-support';
import { PLANGATE_MARKS, benchPlan, editorSession, freshLoad, median, type Load, type Session } from './lib/editor-loads';

const TASKS = Number(process.env.COMPARE_TASKS ?? 10_000);
const LOADS = Number(process.env.COMPARE_LOADS ?? 12);

async function createPlan(base: string, body: unknown): Promise<string> {
  const response = await fetch(`${base}/api/plans`, { method: 'POST', headers: { ...adminHeaders, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`compare-editor-builds: POST ${base}/api/plans answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  return ((await response.json()) as { id: string }).id;
}

async function main() {
  const bases = { A: process.env.COMPARE_A, B: process.env.COMPARE_B };
  if (!bases.A || !bases.B) throw new Error('compare-editor-builds: set COMPARE_A and COMPARE_B to the two servers');
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const body = benchPlan(TASKS, true);
    const task = `task-${Math.floor(TASKS / 2)}`;
    const builds = {} as Record<'A' | 'B', { base: string; url: string; session: Session; loads: Load[] }>;
    for (const name of ['A', 'B'] as const) {
      const base = bases[name]!;
      builds[name] = { base, url: `/plans/${await createPlan(base, body)}?task=${task}`, session: await editorSession(browser, base), loads: [] };
    }
    for (let round = 0; round <= LOADS; round++) {
      for (const name of round % 2 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
        const build = builds[name];
        const { page, timing } = await freshLoad(browser, build.base, build.url, PLANGATE_MARKS, build.session);
        await page.context().close();
        // Round 0 warms each server for this plan.
        if (round > 0) build.loads.push(timing);
      }
    }
    const mid = (loads: Load[], key: keyof Load) => {
      const values = loads.map((l) => l[key]).filter((v): v is number => v !== null);
      return values.length ? median(values) : null;
    };
    for (const name of ['A', 'B'] as const) {
      const { base, loads } = builds[name];
      console.log(
        `${name} ${base}: ${TASKS.toLocaleString('en')} tasks, medians of ${loads.length} loads: first byte ${mid(loads, 'first_byte')} ms, first picture ${mid(loads, 'first_picture')} ms, editable ${mid(loads, 'editable')} ms; editable each load: ${loads.map((l) => l.editable ?? '—').join(' ')}`,
      );
    }
  } finally {
    await browser.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
