import type { Page, Route } from '@playwright/test';
import { DEMO_PASSWORDS } from './auth-support';
import { expect, test, type PlansApi } from './fixtures';

// A link to a task (`?task=`) opens what it names: that task selected, in view, and still
// named by the address once the first layout has landed. For a plan made over the API, as
// planners make them (sent without positions, laid out by the server as it was stored), for
// one sent with positions for only some tasks (the editor lays it out in a worker first), and
// for one with positions; for someone signed in, and for someone who signs in on the way.

const plan = {
  planned_tasks: [
    { task_id: 'a', description: 'Ask', execution_type: 'llm' },
    { task_id: 'b', description: 'Browse', execution_type: 'llm', dependencies: ['a'] },
    { task_id: 'c', description: 'Check', execution_type: 'llm', dependencies: ['b'] },
    { task_id: 'd', description: 'Draft', execution_type: 'llm', dependencies: ['c'] },
    { task_id: 'e', description: 'Edit', execution_type: 'llm', dependencies: ['d'] },
  ],
};

// `c` far from the rest: the whole plan fitted (at the canvas's smallest zoom) leaves it out
// of view, so it is in view only if the editor opened at it.
const positions = { a: { x: 0, y: 0 }, b: { x: 0, y: 200 }, c: { x: 60_000, y: 40_000 }, d: { x: 0, y: 400 }, e: { x: 0, y: 600 } };

/** Sent with one task placed: the server keeps what was sent, and the editor lays every task out on opening. */
const createPartlyPlaced = (api: PlansApi) => api.create('Task link plan', plan, { view: { positions: { a: positions.a }, collapsed: [] } });

const KINDS = [
  { kind: 'sent without positions (made over the API)', create: (api: PlansApi) => api.create('Task link plan', plan) },
  { kind: 'with positions for only some tasks', create: createPartlyPlaced },
  { kind: 'with saved positions', create: (api: PlansApi) => api.create('Task link plan', plan, { view: { positions, collapsed: [] } }) },
] as const;

/** Signs in on the sign-in page the link led to, as `username`. */
async function signInHere(page: Page, username: string) {
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByLabel('Password').fill(DEMO_PASSWORDS[username]!);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The task is the one selected: the inspector shows it, the outline marks it, and the address names it. */
async function expectSelected(page: Page, taskId: string, description: string) {
  await expect(page.getByRole('complementary', { name: 'Inspector' }).getByRole('textbox', { name: 'Description' })).toHaveValue(description);
  await expect(page.getByRole('navigation', { name: 'Outline' }).getByRole('button', { name: new RegExp(`^${description}`) })).toHaveAttribute('aria-current', 'true');
  await expect(page).toHaveURL((url) => url.searchParams.get('task') === taskId);
}

/** Opened at the task once the first layout has landed: selected, drawn in view, and the address (its viewport rewritten by then) still naming it. */
async function expectOpenedAt(page: Page, taskId: string, description: string) {
  // Enabled once the first layout has landed (a plan with positions has none to wait for).
  await expect(page.getByRole('button', { name: 'Tidy up' })).toBeEnabled();
  await expectSelected(page, taskId, description);
  await expect(page.getByRole('group', { name: `Task ${description}` })).toBeInViewport();
  // The viewport the editor settled on is written into the address beside the task.
  await expect(page).toHaveURL((url) => url.searchParams.get('task') === taskId && url.searchParams.has('view'));
}

for (const { kind, create } of KINDS) {
  test.describe(`a plan ${kind}`, () => {
    test('a link to a task opens it selected and in view', async ({ page, adminApi }) => {
      const { id } = await create(adminApi);
      await page.goto(`/plans/${id}?task=c`);
      await expectOpenedAt(page, 'c', 'Check');
    });

    test.describe('signed out', () => {
      test.use({ storageState: { cookies: [], origins: [] } });

      test('a link to a task opens it selected and in view after signing in', async ({ page, adminApi }) => {
        const { id } = await create(adminApi);
        await page.goto(`/plans/${id}?task=c`);
        await expect(page).toHaveURL((url) => url.pathname === '/sign-in' && url.searchParams.get('next') === `/plans/${id}?task=c`);
        await signInHere(page, 'approver');
        await expect(page.getByRole('banner').getByText('Signed in as approver')).toBeVisible();
        expect(new URL(page.url()).pathname).toBe(`/plans/${id}`);
        await expectOpenedAt(page, 'c', 'Check');
      });
    });
  });
}

test('the linked task is selected before the first layout lands, and still after', async ({ page, adminApi }) => {
  const { id } = await createPartlyPlaced(adminApi);
  // The layout worker's script is held back until the page has been checked without it.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const hold = async (route: Route) => {
    await held;
    await route.continue();
  };
  await page.route('**/_next/static/**/*worker*', hold);
  await page.goto(`/plans/${id}?task=c`);
  const laying = page.getByRole('button', { name: 'Laying out…' });
  await expect(laying).toBeDisabled();
  await expectSelected(page, 'c', 'Check');
  await expect(page.getByRole('group', { name: 'Task Check' })).toBeInViewport();
  await expect(laying).toBeDisabled();
  release();
  await expectOpenedAt(page, 'c', 'Check');
});

test('a link to a task the plan does not have says so', async ({ page, adminApi }) => {
  const { id } = await adminApi.create('Task link plan', plan);
  await page.goto(`/plans/${id}?task=gone`);
  await expect(page.getByRole('alert').filter({ hasText: 'gone' })).toHaveText(/The link names task "gone", which revision 1 of this plan does not have/);
  await expect(page.getByRole('button', { name: 'Tidy up' })).toBeEnabled();
  await expect(page.getByRole('complementary', { name: 'Inspector' }).getByRole('textbox', { name: 'Description' })).toHaveCount(0);
});

test('a link to a task of a revision opens it selected and in view', async ({ page, adminApi }) => {
  const { id } = await adminApi.create('Task link plan', plan);
  await page.goto(`/plans/${id}/r/1?task=c`);
  await expect(page.getByText('Revision 1 · read-only')).toBeVisible();
  await expectSelected(page, 'c', 'Check');
  await expect(page.getByRole('group', { name: 'Task Check' })).toBeInViewport();
});

test('a link to a task of the review page opens it selected and in view', async ({ page, adminApi }) => {
  const { id } = await adminApi.create('Task link plan', plan);
  await page.goto(`/plans/${id}/review?task=c`);
  const canvas = page.getByRole('region', { name: 'Plan (read-only)' });
  await expect(canvas.getByRole('complementary', { name: 'Inspector' }).getByRole('textbox', { name: 'Description' })).toHaveValue('Check');
  await expect(canvas.getByRole('group', { name: /^Task Check/ })).toBeInViewport();
  await expect(page).toHaveURL((url) => url.searchParams.get('task') === 'c');
});

test.describe('the dry-run page', () => {
  test('a link to a task opens it selected and in view', async ({ page, api }) => {
    const { id } = await api.create('Task link plan', plan);
    expect((await api.request.post(`/api/plans/${id}/simulate`, { data: { workers: 1 } })).status()).toBe(201);
    await page.goto(`/plans/${id}/dry-run?task=c`);
    await expect(page.getByRole('complementary', { name: 'Dry-run inspector' }).getByRole('heading', { name: 'Check' })).toBeVisible();
    const canvas = page.getByRole('region', { name: 'Plan as the dry run sees it' });
    await canvas.scrollIntoViewIfNeeded();
    await expect(canvas.getByRole('group', { name: /^Check/ })).toBeInViewport();
    await expect(page).toHaveURL((url) => url.searchParams.get('task') === 'c');
  });

  test('a link to a task the plan does not have says so', async ({ page, api }) => {
    const { id } = await api.create('Task link plan', plan);
    expect((await api.request.post(`/api/plans/${id}/simulate`, { data: { workers: 1 } })).status()).toBe(201);
    await page.goto(`/plans/${id}/dry-run?task=gone`);
    await expect(page.getByRole('complementary', { name: 'Dry-run inspector' }).getByRole('alert')).toHaveText(/The link names task "gone", which revision 1 of this plan does not have/);
  });
});
