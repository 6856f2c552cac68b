import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { adminHeaders, stateOf } from './auth-support';
import { axeViolations, expect, PlanEditor, PlansApi, test } from './fixtures';

// WCAG 2.2 AA, checked by axe-core on every page, signed in as each role (and signed out
// on the sign-in page). A page a role may not use shows its "role required" notice, and
// that notice is checked too. Every violation is reported, page by page, before the test fails.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch shipments', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
    { task_id: 'review', description: 'Review the summary', execution_type: 'agent', agent_id: 'reviewer', dependencies: ['summarise'] },
  ],
};

interface Plans {
  /** A draft at revision 2 with a dry run: every plan page has something to show. */
  draft: string;
  /** Submitted for review, asking the approver by name: the approver's decision buttons are live. */
  inReview: string;
  /** Approved and run once: its runs list and the run's own page. */
  ran: { plan: string; run: string };
}

/**
 * An approved plan run once, settled before any page is checked: its one task runs on a tool
 * with no endpoint, so it fails at once with a clear error and the run waits for a replan.
 */
async function createRun(admin: APIRequestContext, browser: Browser, baseURL: string | undefined): Promise<Plans['ran']> {
  const api = new PlansApi(admin);
  const { id } = await api.create('Accessible run', { planned_tasks: [plan.planned_tasks[0]] });
  const { revision, content_hash } = await api.submitted(id);
  const submitted = { revision, content_hash };
  // A decision needs a person: the approver, signed in (the admin token wrote and submitted it).
  const context = await browser.newContext({ baseURL, storageState: stateOf('approver') });
  try {
    expect((await context.request.post(`/api/plans/${id}/approve`, { data: submitted })).status()).toBe(200);
  } finally {
    await context.close();
  }
  const started = await admin.post(`/api/plans/${id}/runs`, { data: submitted });
  expect(started.status()).toBe(201);
  const { run_id: run } = await started.json();
  await expect.poll(async () => (await (await admin.get(`/api/runs/${run}`)).json()).state, { timeout: 30_000 }).not.toBe('running');
  return { plan: id, run };
}

async function createPlans(admin: APIRequestContext, browser: Browser, baseURL: string | undefined): Promise<Plans> {
  const api = new PlansApi(admin);
  const { id: draft } = await api.create('Accessible shipments', plan);
  expect((await api.saveTasks(draft, (t) => (t.task_id === 'summarise' ? { ...t, description: 'Summarise by facility' } : t), 'by facility')).status()).toBe(200);
  expect((await admin.post(`/api/plans/${draft}/simulate`, { data: { workers: 2 } })).status()).toBe(201);

  const { id: inReview } = await api.create('Accessible review', plan);
  // Asked of the approver by name: their review queue and inbox have something to show.
  await api.submitted(inReview, { reviewers: ['approver'] });
  return { draft, inReview, ran: await createRun(admin, browser, baseURL) };
}

/** A page to check; `select` names a task to click first, so the inspector shows its fields. */
interface Visit {
  path: string;
  select?: string;
}

function pagesFor({ draft, inReview, ran }: Plans): Visit[] {
  const paths = [
    '/',
    '/reviews',
    '/registry',
    '/import',
    '/plans/new',
    '/admin/users',
    '/admin/webhooks',
    '/inbox',
    '/account',
    `/plans/${draft}`,
    `/plans/${draft}/r/1`,
    `/plans/${draft}/review`,
    `/plans/${draft}/revisions`,
    `/plans/${draft}/history`,
    `/plans/${draft}/dry-run`,
    `/plans/${draft}/runs`,
    `/plans/${inReview}`,
    `/plans/${inReview}/review`,
    `/plans/${ran.plan}/runs`,
    `/runs/${ran.run}`,
  ];
  return [...paths.map((path) => ({ path })), { path: `/plans/${draft}`, select: 'Summarise by facility' }];
}

const describe = ({ path, select }: Visit) => (select ? `${path} with task "${select}" selected` : path);

/** Waits until the page has settled (a plan canvas has drawn its nodes), then runs axe. */
async function violationsOn(page: Page, { path, select }: Visit): Promise<string[]> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(400);
  await page.waitForLoadState('networkidle');
  if ((await page.locator('.react-flow').count()) > 0) await expect(page.locator('.react-flow__node').first()).toBeVisible();
  if (select) {
    await page.getByRole('group', { name: `Task ${select}` }).click();
    await expect(page.getByRole('complementary', { name: 'Inspector' }).getByRole('heading', { name: 'Task' })).toBeVisible();
  }
  return axeViolations(page);
}

let plans: Promise<Plans> | undefined;
let viewer: Promise<{ username: string; password: string }> | undefined;

test.beforeAll(async ({ playwright, browser, baseURL }) => {
  const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders: adminHeaders });
  plans = createPlans(admin, browser, baseURL);
  const username = `a11y-viewer-${Date.now().toString(36)}-${test.info().workerIndex}`;
  const password = 'viewer-a11y-password';
  viewer = admin.post('/api/users', { data: { username, password, role: 'viewer' } }).then((response) => {
    expect(response.status()).toBe(201);
    return { username, password };
  });
  await Promise.all([plans, viewer]);
});

test('the sign-in page has no WCAG 2.2 AA violations, before and after a failed attempt', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  expect(await violationsOn(page, { path: '/sign-in' }), '/sign-in').toEqual([]);
  await expect(page.getByRole('region', { name: 'Demo accounts' })).toContainText('approver');
  await page.getByRole('textbox', { name: 'Username' }).fill('editor');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Wrong username or password.' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Username' })).toHaveValue('editor');
  expect(await axeViolations(page), '/sign-in after a wrong password').toEqual([]);
  await context.close();
});

// Each role's sweep in three parts (the app's pages, the draft plan's pages, then a plan in
// review and a run), so the sweeps spread over the workers instead of four long tests holding two of them.
const onPlan = (visit: Visit, id: string) => visit.path.startsWith(`/plans/${id}`);
const onReviewOrRun = (visit: Visit, { inReview, ran }: Plans) => onPlan(visit, inReview) || onPlan(visit, ran.plan) || visit.path.startsWith('/runs/');
const parts = [
  { name: 'the app pages', of: (visit: Visit, plans: Plans) => !onPlan(visit, plans.draft) && !onReviewOrRun(visit, plans) },
  { name: "a draft plan's pages", of: (visit: Visit, plans: Plans) => onPlan(visit, plans.draft) },
  { name: 'the pages of a plan in review and of a run', of: onReviewOrRun },
];
for (const role of ['viewer', 'editor', 'approver', 'admin'] as const) {
  for (const part of parts) {
    test(`${part.name} have no WCAG 2.2 AA violations for the ${role}`, async ({ signedIn }) => {
      test.setTimeout(180_000);
      const page = role === 'viewer' ? await signedIn((await viewer!).username, (await viewer!).password) : await signedIn(role);
      const all = await plans!;
      for (const visit of pagesFor(all).filter((visit) => part.of(visit, all))) expect.soft(await violationsOn(page, visit), `${role} on ${describe(visit)}`).toEqual([]);
    });
  }
}

test('task nodes, edges and the canvas controls show where the keyboard focus is', async ({ signedIn }) => {
  const { draft } = await plans!;
  const page = await signedIn('editor');
  await new PlanEditor(page).open(draft);
  await page.keyboard.press('Tab');

  const node = page.getByRole('group', { name: 'Task Summarise by facility' });
  await node.focus();
  expect(await node.evaluate((el) => el.matches(':focus-visible'))).toBe(true);
  const outline = await node.evaluate((el) => getComputedStyle(el));
  expect(outline.outlineStyle).toBe('solid');
  expect(parseFloat(outline.outlineWidth)).toBeGreaterThanOrEqual(2);

  const edge = page.locator('.react-flow__edge').first();
  const path = edge.locator('.react-flow__edge-path');
  const before = await path.evaluate((el) => getComputedStyle(el).strokeWidth);
  await edge.focus();
  expect(await edge.evaluate((el) => el.matches(':focus-visible'))).toBe(true);
  const focused = await path.evaluate((el) => getComputedStyle(el).strokeWidth);
  expect(parseFloat(focused)).toBeGreaterThan(parseFloat(before));

  const zoomIn = page.getByRole('button', { name: /zoom in/i });
  await zoomIn.focus();
  expect(await zoomIn.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
});
