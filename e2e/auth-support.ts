import path from 'node:path';
import { expect, type Page } from '@playwright/test';

/** The servers under test start with this PLANGATE_ADMIN_TOKEN; API tests act as that admin. */
export const E2E_ADMIN_TOKEN = 'pgt_e2e-admin-token-for-tests-only';
export const adminHeaders = { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

/** The editor's signed-in browser state, written by auth.setup.ts for the browser tests. */
export const EDITOR_STATE = path.join(__dirname, '.auth', 'editor.json');

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
