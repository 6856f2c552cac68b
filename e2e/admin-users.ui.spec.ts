import { expect, test } from '@playwright/test';
import { signIn } from './auth-support';

// An admin manages people in the browser; the people then act with what they were given.

test.use({ storageState: { cookies: [], origins: [] } });

test('an admin creates a user, changes their role and issues them a token that works', async ({ page, playwright, baseURL }) => {
  await signIn(page, 'admin');
  await page.getByRole('link', { name: 'Users' }).click();
  const name = `ops-${Date.now().toString(36)}`;

  const createUser = page.getByRole('form', { name: 'Create user' });
  await createUser.getByRole('textbox', { name: 'Username' }).fill(name);
  await createUser.getByLabel('Password').fill('ops-password-1');
  await createUser.getByRole('combobox', { name: 'Role' }).selectOption('viewer');
  await createUser.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByRole('combobox', { name: `Role of ${name}` })).toHaveValue('viewer');

  await createUser.getByRole('textbox', { name: 'Username' }).fill(name);
  await createUser.getByLabel('Password').fill('ops-password-1');
  await createUser.getByRole('button', { name: 'Create user' }).click();
  await expect(createUser.getByRole('alert')).toHaveText(`A user named "${name}" already exists`);

  await page.getByRole('combobox', { name: `Role of ${name}` }).selectOption('approver');
  // The change is saved by a server action; reload once it has landed.
  const roleOf = async () => ((await (await page.request.get('/api/users')).json()).users as Array<{ username: string; role: string }>).find((u) => u.username === name)?.role;
  await expect.poll(roleOf).toBe('approver');
  await page.reload();
  await expect(page.getByRole('combobox', { name: `Role of ${name}` })).toHaveValue('approver');

  const createToken = page.getByRole('form', { name: 'Create API token' });
  await createToken.getByRole('textbox', { name: /Username/ }).fill(name);
  await createToken.getByRole('button', { name: 'Create token' }).click();
  const token = await page.getByRole('textbox', { name: 'New API token' }).inputValue();
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
  expect(await (await api.get('/api/me')).json()).toMatchObject({ username: name, role: 'approver', via: 'token' });
  await api.dispose();
});

test('the users page is closed to anyone but an admin', async ({ page }) => {
  await signIn(page, 'approver');
  await expect(page.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'You need the admin role' })).toBeVisible();
});
