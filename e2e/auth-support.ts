import path from 'node:path';
import { expect, type Page } from '@playwright/test';

/** The servers under test start with this PLANGATE_ADMIN_TOKEN; API tests act as that admin. */
export const E2E_ADMIN_TOKEN = 'pgt_e2e-admin-token-for-tests-only';
export const adminHeaders = { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

/**
 * A demo user's signed-in browser state, written by auth.setup.ts (signed in through the form)
 * for the browser tests: a test that needs someone signed in starts from it rather than signing
 * in again, which cost a page load, a password hash and a second page load each time.
 */
export const stateOf = (username: string) => path.join(__dirname, '.auth', `${username}.json`);
/** The editor's: every browser test starts as the editor. */
export const EDITOR_STATE = stateOf('editor');

export const DEMO_PASSWORDS: Record<string, string> = {
  editor: 'editor-demo-pass',
  approver: 'approver-demo-pass',
  approver2: 'approver2-demo-pass',
  admin: 'admin-demo-pass',
};

export async function signIn(page: Page, username: string, password = DEMO_PASSWORDS[username]) {
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('banner').getByText(`Signed in as ${username}`)).toBeVisible();
}
