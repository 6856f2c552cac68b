import { signIn } from './auth-support';
import { expect, test } from './fixtures';

// An admin manages people in the browser; the people then act with what they were given.

test.use({ storageState: { cookies: [], origins: [] } });

test('an admin creates a person and a service account; tokens only for the service account, the person makes their own', async ({
  page,
  signedIn,
  playwright,
  baseURL,
}) => {
  await signIn(page, 'admin');
  await page.getByRole('link', { name: 'Users' }).click();
  const name = `ops-${Date.now().toString(36)}`;

  const createUser = page.getByRole('form', { name: 'Create user' });
  await createUser.getByRole('textbox', { name: 'Username' }).fill(name);
  await createUser.getByLabel('Password', { exact: true }).fill('ops-password-1');
  await createUser.getByRole('combobox', { name: 'Role' }).selectOption('viewer');
  await createUser.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByRole('combobox', { name: `Role of ${name}` })).toHaveValue('viewer');

  await createUser.getByRole('textbox', { name: 'Username' }).fill(name);
  await createUser.getByLabel('Password', { exact: true }).fill('ops-password-1');
  await createUser.getByRole('button', { name: 'Create user' }).click();
  await expect(createUser.getByRole('alert')).toHaveText(`A user named "${name}" already exists`);

  await page.getByRole('combobox', { name: `Role of ${name}` }).selectOption('approver');
  // The change is saved by a server action; reload once it has landed.
  const roleOf = async () => ((await (await page.request.get('/api/users')).json()).users as Array<{ username: string; role: string }>).find((u) => u.username === name)?.role;
  await expect.poll(roleOf).toBe('approver');
  await page.reload();
  await expect(page.getByRole('combobox', { name: `Role of ${name}` })).toHaveValue('approver');

  // A token acts in its owner's name: the admin cannot make one for a person.
  const createToken = page.getByRole('form', { name: 'Create API token' });
  await createToken.getByRole('textbox', { name: /Username/ }).fill(name);
  await createToken.getByRole('button', { name: 'Create token' }).click();
  await expect(createToken.getByRole('alert')).toContainText(`${name} is a person, not a service account`);
  await expect(page.getByRole('textbox', { name: 'New API token' })).toHaveCount(0);

  // A service account: no password; the admin mints its tokens.
  const bot = `bot-${Date.now().toString(36)}`;
  await createUser.getByRole('textbox', { name: 'Username' }).fill(bot);
  await createUser.getByRole('checkbox', { name: /Service account/ }).check();
  await expect(createUser.getByLabel('Password', { exact: true })).toHaveCount(0);
  await createUser.getByRole('combobox', { name: 'Role' }).selectOption('editor');
  await createUser.getByRole('button', { name: 'Create user' }).click();
  await expect(createUser.getByRole('status')).toHaveText(`Created service account ${bot}.`);
  await expect(page.getByRole('rowheader', { name: new RegExp(`^${bot}`) })).toContainText('service');
  await createToken.getByRole('textbox', { name: /Username/ }).fill(bot);
  await createToken.getByRole('button', { name: 'Create token' }).click();
  const botToken = await page.getByRole('textbox', { name: 'New API token' }).inputValue();
  const botApi = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${botToken}` } });
  expect(await (await botApi.get('/api/me')).json()).toMatchObject({ username: bot, role: 'editor', via: 'token', service: true });
  await botApi.dispose();

  // The person signs in and makes their own token with their session.
  const personPage = await signedIn(name, 'ops-password-1');
  const minted = await personPage.request.post('/api/tokens', { data: { label: 'my scripts' } });
  expect(minted.status()).toBe(201);
  const { token } = await minted.json();
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
  expect(await (await api.get('/api/me')).json()).toMatchObject({ username: name, role: 'approver', via: 'token', service: false });
  // A token cannot mint another for its owner (it would outlive its own expiry).
  expect((await api.post('/api/tokens', { data: {} })).status()).toBe(403);
  await api.dispose();
});

test('the users page is closed to anyone but an admin', async ({ page }) => {
  await signIn(page, 'approver');
  await expect(page.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'You need the admin role' })).toBeVisible();
});
