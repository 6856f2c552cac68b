import { expect, request, test, type APIResponse, type Page, type Response } from '@playwright/test';
import { adminHeaders, signIn } from './auth-support';

// Browser-facing defences on the embedded-database server: security headers on every page
// and route, no framing, sign-in limits that answer in words (never a 5xx), and tokens
// that act only in their owner's name.

test.use({ storageState: { cookies: [], origins: [] } });

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch the shipments', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise them', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

function expectSecurityHeaders(headers: Record<string, string>, where: string) {
  const csp = headers['content-security-policy'];
  expect(csp, `${where}: Content-Security-Policy`).toBeTruthy();
  for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'", "default-src 'self'"]) {
    expect(csp, `${where}: ${directive}`).toContain(directive);
  }
  expect(csp, `${where}: no eval in production`).not.toContain('unsafe-eval');
  // Scripts run with the request's nonce, never inline without it.
  const scripts = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
  expect(scripts, `${where}: script-src`).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}'/);
  expect(scripts, `${where}: no inline scripts`).not.toContain('unsafe-inline');
  expect(headers['x-frame-options'], `${where}: X-Frame-Options`).toBe('DENY');
  expect(headers['x-content-type-options'], `${where}: X-Content-Type-Options`).toBe('nosniff');
  expect(headers['referrer-policy'], `${where}: Referrer-Policy`).toBe('strict-origin-when-cross-origin');
}

async function adminApi(playwright: { request: { newContext: typeof request.newContext } }, baseURL: string | undefined) {
  return playwright.request.newContext({ baseURL, extraHTTPHeaders: adminHeaders });
}

test('every page and API response carries the security headers, and the app still works under them', async ({ page, playwright, baseURL }) => {
  const admin = await adminApi(playwright, baseURL);
  const { id } = await (await admin.post('/api/plans', { data: { title: 'Headers target', plan } })).json();

  // Signed out: the sign-in page, and the redirect to it.
  const signInPage = (await page.goto('/sign-in'))!;
  expectSecurityHeaders(signInPage.headers(), '/sign-in');
  const redirected = await page.request.get('/reviews', { maxRedirects: 0 });
  expectSecurityHeaders(redirected.headers(), '/reviews (signed out)');

  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));

  await signIn(page, 'admin');
  // Every page under app/ (app/**/page.tsx).
  const pages = [
    '/',
    '/plans/new',
    `/plans/${id}`,
    `/plans/${id}/review`,
    `/plans/${id}/history`,
    `/plans/${id}/revisions`,
    `/plans/${id}/r/1`,
    `/plans/${id}/dry-run`,
    '/reviews',
    '/registry',
    '/import',
    '/admin/users',
  ];
  for (const path of pages) {
    const response = (await page.goto(path)) as Response;
    expect(response.status(), path).toBeLessThan(400);
    expectSecurityHeaders(response.headers(), path);
  }
  // A static asset and a page that does not exist.
  const missing = await page.request.get('/no-such-page');
  expect(missing.status()).toBe(404);
  expectSecurityHeaders(missing.headers(), '404');
  // A plan or a revision that does not exist is a 404 too, not a 200 carrying a not-found page.
  for (const path of ['/plans/no-such-plan', `/plans/${id}/r/99`, `/plans/${id}/r/0`, `/plans/${id}/r/x`]) {
    const response = (await page.goto(path)) as Response;
    expect(response.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }

  // API responses, with and without credentials.
  const responses: Array<[string, APIResponse]> = [
    ['GET /api/health', await page.request.get('/api/health')],
    ['GET /api/plans', await admin.get('/api/plans')],
    ['GET /api/openapi.json', await page.request.get('/api/openapi.json')],
    ['POST /api/plans (unauthenticated)', await playwright.request.newContext({ baseURL }).then((c) => c.post('/api/plans', { data: {} }))],
  ];
  for (const [where, response] of responses) expectSecurityHeaders(response.headers(), where);

  // The editor's canvas lays out in the Web Worker and renders under the policy.
  await page.goto(`/plans/${id}`);
  await expect(page.locator('.react-flow__node').filter({ hasText: 'fetch' }).first()).toBeVisible();
  await expect(page.locator('.react-flow__edge').first()).toBeAttached();
  await page.goto(`/plans/${id}/review`);
  await expect(page.locator('.react-flow__node').first()).toBeVisible();
  expect(errors).toEqual([]);
  await admin.dispose();
});

test('a page framed by another site does not render', async ({ page, playwright, baseURL }) => {
  const admin = await adminApi(playwright, baseURL);
  const { id } = await (await admin.post('/api/plans', { data: { title: 'Framing target', plan } })).json();
  await signIn(page, 'admin');
  const target = `${baseURL}/plans/${id}/review`;
  // Signed in, the page itself renders.
  await page.goto(target);
  await expect(page.getByText('Framing target').first()).toBeVisible();

  // A page that frames it: served by the test on the app's own origin, so cookies ride
  // along and nothing but the headers can stop it ('none' refuses every ancestor, this
  // site's included). A control frame without the headers shows framing itself works.
  await page.route(`${baseURL}/__framing-test`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<h1>Framing page</h1><iframe id="control" src="/__frameable"></iframe><iframe id="victim" src="${target}" width="900" height="600"></iframe>`,
    }),
  );
  await page.route(`${baseURL}/__frameable`, (route) => route.fulfill({ contentType: 'text/html', body: '<p>Frameable control</p>' }));
  const answered = page.waitForResponse((response) => response.url() === target);
  await page.goto(`${baseURL}/__framing-test`);
  await expect(page.frameLocator('#control').getByText('Frameable control')).toBeVisible();
  const response = await answered;
  expect(response.status()).toBe(200);
  expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  // Give a frame that were allowed ample time to render, then make sure nothing of ours did.
  await page.waitForTimeout(1500);
  await expect(page.frameLocator('#victim').getByText(/Framing target|Plangate|Sign in/)).toHaveCount(0);
  const victim = page.frames().find((f) => f.name() === 'victim' || f.url() === target || f.url().startsWith('chrome-error:'));
  expect(victim?.url() ?? '', 'the framed page never loaded').not.toBe(target);
  await admin.dispose();
});

/** One sign-in through the real form; the HTTP status of the server action's answer. */
async function attemptSignIn(page: Page, username: string, password: string): Promise<number> {
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByLabel('Password').fill(password);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/sign-in'),
    page.getByRole('button', { name: 'Sign in', exact: true }).click(),
  ]);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
  return response.status();
}

test('twelve wrong passwords from one client: refused from the 11th on, in words, never a 5xx', async ({ page, playwright, baseURL }) => {
  const admin = await adminApi(playwright, baseURL);
  // A throwaway user: locking out a demo user would lock out the other tests.
  const username = `guess-${Date.now().toString(36)}`;
  expect((await admin.post('/api/users', { data: { username, password: 'the-right-password', role: 'viewer' } })).status()).toBe(201);
  const failures: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 500) failures.push(`${response.status()} ${response.url()}`);
  });

  await page.goto('/sign-in');
  for (let i = 1; i <= 12; i++) {
    const status = await attemptSignIn(page, username, `wrong-password-${i}`);
    expect(status, `attempt ${i}`).toBeLessThan(500);
    const alert = page.locator('#sign-in-error');
    if (i <= 10) await expect(alert, `attempt ${i}`).toHaveText('Wrong username or password.');
    else await expect(alert, `attempt ${i}`).toHaveText(/^Too many failed sign-ins\. Try again in \d+ (seconds?|minutes)\.$/);
    // A refused attempt keeps what was typed in the username field.
    await expect(page.getByRole('textbox', { name: 'Username' })).toHaveValue(username);
  }
  // Now even the right password waits: the limit is checked before the password.
  expect(await attemptSignIn(page, username, 'the-right-password')).toBeLessThan(500);
  await expect(page.locator('#sign-in-error')).toHaveText(/^Too many failed sign-ins/);
  await expect(page).toHaveURL(/\/sign-in/);
  expect(failures).toEqual([]);
  await admin.dispose();
});

test('a browser the user has signed in from is not locked out by a stranger guessing the password', async ({ browser, playwright, baseURL }) => {
  const admin = await adminApi(playwright, baseURL);
  const username = `known-${Date.now().toString(36)}`;
  expect((await admin.post('/api/users', { data: { username, password: 'the-right-password', role: 'viewer' } })).status()).toBe(201);
  const fresh = { baseURL, storageState: { cookies: [], origins: [] } };

  // The user signs in once: the browser becomes a known device (a signed, long-lived cookie).
  const own = await browser.newContext(fresh);
  const ownPage = await own.newPage();
  await signIn(ownPage, username, 'the-right-password');
  const device = (await own.cookies()).find((cookie) => cookie.name === `plangate_device_${username}`);
  expect(device).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
  expect(device!.expires - Date.now() / 1000).toBeGreaterThan(179 * 24 * 60 * 60);
  await own.clearCookies({ name: /session_token/ });

  // A stranger (no trusted proxy here, so every client shares one address) guesses until refused.
  const stranger = await browser.newContext(fresh);
  const strangerPage = await stranger.newPage();
  await strangerPage.goto('/sign-in');
  for (let i = 1; i <= 12; i++) {
    expect(await attemptSignIn(strangerPage, username, `wrong-password-${i}`), `attempt ${i}`).toBeLessThan(500);
    if (i > 10) await expect(strangerPage.locator('#sign-in-error')).toHaveText(/^Too many failed sign-ins/);
  }
  // The stranger's right password waits; the known device signs in at once.
  await signIn(ownPage, username, 'the-right-password');
  // The stranger's own device cookie (signed for their own account) is worth nothing under the user's name.
  const other = `${username}-m`;
  expect((await admin.post('/api/users', { data: { username: other, password: 'the-other-password', role: 'viewer' } })).status()).toBe(201);
  await signIn(strangerPage, other, 'the-other-password');
  const theirs = (await stranger.cookies()).find((cookie) => cookie.name === `plangate_device_${other}`);
  expect(theirs).toBeTruthy();
  await stranger.clearCookies({ name: /session_token/ });
  await stranger.addCookies([{ ...theirs!, name: `plangate_device_${username}` }]);
  await strangerPage.goto('/sign-in');
  expect(await attemptSignIn(strangerPage, username, 'the-right-password')).toBeLessThan(500);
  await expect(strangerPage.locator('#sign-in-error')).toHaveText(/^Too many failed sign-ins/);
  await own.close();
  await stranger.close();
  await admin.dispose();
});

test('an admin cannot mint a token for an approver, so cannot approve in their name', async ({ browser, playwright, baseURL }) => {
  const admin = await adminApi(playwright, baseURL);
  const approver = `appr-${Date.now().toString(36)}`;
  expect((await admin.post('/api/users', { data: { username: approver, password: 'approver-pass-1', role: 'approver' } })).status()).toBe(201);
  const { id } = await (await admin.post('/api/plans', { data: { title: 'Token target', plan } })).json();
  const submitted = await (await admin.post(`/api/plans/${id}/submit`)).json();

  const refused = await admin.post('/api/tokens', { data: { username: approver } });
  expect(refused.status()).toBe(403);
  const { error } = await refused.json();
  expect(error.code).toBe('forbidden');
  expect(error.message).toContain(`${approver} is a person, not a service account`);
  // Nor does the admin's own (service) token decide.
  const decided = await admin.post(`/api/plans/${id}/approve`, { data: { revision: submitted.revision, content_hash: submitted.content_hash } });
  expect(decided.status()).toBe(403);
  expect((await (await admin.get(`/api/plans/${id}`)).json()).status).toBe('in_review');

  // The approver, signed in, mints their own token; it acts as them.
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, approver, 'approver-pass-1');
  const own = await page.request.post('/api/tokens', { data: { label: 'mine' } });
  expect(own.status()).toBe(201);
  const mine = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${(await own.json()).token}` } });
  expect(await (await mine.get('/api/me')).json()).toMatchObject({ username: approver, role: 'approver', via: 'token', service: false });
  await Promise.all([mine.dispose(), context.close(), admin.dispose()]);
});

test('sign-in never sends anyone off the site, signed in or not', async ({ page, baseURL }) => {
  for (const next of ['/..//evil.example', '//evil.example', '/\\evil.example']) {
    await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    await expect(page.locator('input[name="next"]')).toHaveValue('/');
  }
  await signIn(page, 'approver');
  // Already signed in: the page sends you on at once, and stays on the site.
  await page.goto(`/sign-in?next=${encodeURIComponent('/..//evil.example')}`);
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
  expect(new URL(page.url()).pathname).toBe('/');
});
