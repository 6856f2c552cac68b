import { test as setup, expect } from '@playwright/test';
import { DEMO_PASSWORDS, EDITOR_STATE, signIn, stateOf } from './auth-support';

setup('a wrong password is refused, the right one signs the editor in', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in\?next=%2F$/);
  await page.getByRole('textbox', { name: 'Username' }).fill('editor');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Wrong username or password.' })).toBeVisible();
  await signIn(page, 'editor');
  await expect(page.getByRole('heading', { name: 'Plans', level: 1 })).toBeVisible();
  await page.context().storageState({ path: EDITOR_STATE });
});

setup('the other demo users sign in through the form', async ({ browser, baseURL }) => {
  await Promise.all(
    Object.keys(DEMO_PASSWORDS)
      .filter((username) => username !== 'editor')
      .map(async (username) => {
        const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
        await signIn(await context.newPage(), username);
        await context.storageState({ path: stateOf(username) });
        await context.close();
      }),
  );
});
