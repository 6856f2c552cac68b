import { test as setup, expect } from '@playwright/test';
import { EDITOR_STATE, signIn } from './auth-support';

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
