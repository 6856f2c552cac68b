import { expect, test } from '@playwright/test';
import { PORTS } from './ports';

// Two production instances share one PostgreSQL database. Forty saves of the same base
// revision, alternating between them, race; exactly one may win.

const A = `http://127.0.0.1:${PORTS.postgresA}`;
const B = `http://127.0.0.1:${PORTS.postgresB}`;
const plan = { planned_tasks: [{ task_id: 'only', execution_type: 'tool' }] };

test('40 concurrent saves of one base over two instances: one success, 39 conflicts, no gaps', async ({ request }) => {
  const created = await (await request.post(`${A}/api/plans`, { data: { title: 'Race', plan } })).json();
  expect((await (await request.get(`${B}/api/plans/${created.id}`)).json()).revision).toBe(1);

  const statuses = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const response = await request.put(`${i % 2 ? B : A}/api/plans/${created.id}`, {
        data: { base_revision: 1, plan: { ...plan, status: `attempt-${i}` }, message: `attempt ${i}` },
      });
      return response.status();
    }),
  );
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s === 409)).toHaveLength(39);

  for (const base of [A, B]) {
    const { revisions } = await (await request.get(`${base}/api/plans/${created.id}/revisions`)).json();
    expect(revisions.map((r: { revision: number }) => r.revision)).toEqual([1, 2]);
  }
});

test('sign-in limits hold across instances: twelve wrong passwords alternating between them, the 11th and 12th refused', async ({ browser, request }) => {
  // A throwaway user (PostgreSQL servers have no demo users), made with the admin token.
  const username = `guess2-${Date.now().toString(36)}`;
  expect((await request.post(`${A}/api/users`, { data: { username, password: 'the-right-password', role: 'viewer' } })).status()).toBe(201);
  // No admin token on the browser's requests: this is an anonymous visitor.
  const context = await browser.newContext({ extraHTTPHeaders: {}, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const failures: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 500) failures.push(`${response.status()} ${response.url()}`);
  });
  for (let i = 1; i <= 12; i++) {
    await page.goto(`${i % 2 ? A : B}/sign-in`);
    await page.getByRole('textbox', { name: 'Username' }).fill(username);
    await page.getByLabel('Password').fill(`wrong-password-${i}`);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/sign-in'),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ]);
    expect(answer.status(), `attempt ${i}`).toBeLessThan(500);
    const alert = page.locator('#sign-in-error');
    if (i <= 10) await expect(alert, `attempt ${i}`).toHaveText('Wrong username or password.');
    else await expect(alert, `attempt ${i}`).toHaveText(/^Too many failed sign-ins\. Try again in \d+ (seconds?|minutes)\.$/);
  }
  expect(failures).toEqual([]);
  await context.close();
});
