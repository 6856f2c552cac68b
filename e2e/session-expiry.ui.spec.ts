import type { Page } from '@playwright/test';
import { DEMO_PASSWORDS } from './auth-support';
import { expect, test, type PlanEditor, type PlansApi } from './fixtures';
import { actionRequest, serverActions } from './server-actions';

// A session that ends mid-edit costs nothing: Save asks to sign in again, on the page,
// and then saves the edits that were waiting, under the same user's name only.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'papers_search' },
    { task_id: 'review', description: 'Review', execution_type: 'agent', agent_id: 'reviewer', dependencies: ['fetch'] },
  ],
};

/**
 * Opens a new plan, edits one task's description once the first layout has landed (a layout
 * landing after the save would rightly leave the editor dirty again), then ends the session
 * (this browser loses its cookies).
 */
async function editThenLoseSession(api: PlansApi, editor: PlanEditor, task: string, description: string): Promise<string> {
  const { id } = await api.create('Session expiry plan', plan);
  await editor.open(id);
  await editor.describe(task, description);
  await editor.page.context().clearCookies();
  return id;
}

/** Signs in again in the dialog, as the user the page was opened by: the only one it takes. */
async function signInInline(page: Page, password: string) {
  const dialog = page.getByRole('dialog', { name: 'Sign in again' });
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  return dialog;
}

async function savedDescription(api: PlansApi, id: string, task: string) {
  const saved = await api.head(id);
  return { revision: saved.revision, description: saved.plan.planned_tasks.find((t) => t.task_id === task)!.description };
}

test('an expired session keeps the edits: Save signs in inline and then saves them', async ({ page, api, editor }) => {
  // The page's clock is the test's, so "it stopped asking" is checked over six seconds of its
  // timers without waiting six real ones.
  await page.clock.install();
  const beats: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/presence') && request.method() === 'POST') beats.push(request.url());
  });
  const id = await editThenLoseSession(api, editor, 'Review', 'Review after the session ended');
  // The editor notices by itself, and stops asking while nobody is signed in.
  await expect(page.getByRole('status').filter({ hasText: 'Your session ended' })).toBeVisible({ timeout: 5_000 });
  const beatsWhenEnded = beats.length;
  await page.clock.runFor(6_000);
  expect(beats.length).toBe(beatsWhenEnded);
  await editor.saveButton.click();
  await expect(page.getByRole('dialog', { name: 'Sign in again' })).toContainText('Your session ended; sign in again to save your changes — they are kept.');

  // A wrong password is refused in the dialog; the edits stay.
  const dialog = await signInInline(page, 'not-the-password');
  await expect(dialog.getByRole('alert')).toContainText('Wrong username or password');
  await expect(page.getByRole('group', { name: 'Task Review after the session ended' })).toBeVisible();

  const resumed = page.waitForRequest((request) => request.url().endsWith('/presence') && request.method() === 'POST');
  await signInInline(page, DEMO_PASSWORDS.editor);
  await expect(dialog).toBeHidden();
  // The live state beats again.
  await resumed;
  await expect(page.getByText('Revision 2')).toBeVisible();
  await expect(editor.saved).toBeVisible();
  expect(await savedDescription(api, id, 'review')).toEqual({ revision: 2, description: 'Review after the session ended' });
});

test('only the user whose session ended may sign in again here; another account goes through the sign-in page', async ({ page, api, editor }) => {
  const id = await editThenLoseSession(api, editor, 'Fetch', 'Fetch, kept');
  await editor.saveButton.click();
  const dialog = page.getByRole('dialog', { name: 'Sign in again' });
  // The edits are saved as their author: the name is theirs and cannot be changed here.
  const username = dialog.getByRole('textbox', { name: 'Username' });
  await expect(username).toHaveValue('editor');
  await expect(username).not.toBeEditable();
  await expect(dialog.getByRole('link', { name: 'Open the sign-in page to switch account' })).toHaveAttribute('href', `/sign-in?next=${encodeURIComponent(`/plans/${id}`)}`);
  await expect(page.getByRole('group', { name: 'Task Fetch, kept' })).toBeVisible();

  await signInInline(page, DEMO_PASSWORDS.editor);
  await expect(dialog).toBeHidden();
  await expect(editor.saved).toBeVisible();
  expect(await savedDescription(api, id, 'fetch')).toEqual({ revision: 2, description: 'Fetch, kept' });
  expect((await api.revisions(id)).at(-1)!.author).toBe('editor');
});

test('the inline sign-in refuses another account before signing it in, even with its right password', async ({ api, playwright, baseURL }) => {
  const { id } = await api.create('Inline sign-in plan', plan);
  const anonymous = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  try {
    const action = serverActions(id).find((a) => a.name === 'signInInlineAction')!;
    const other = await anonymous.post(
      action.page,
      actionRequest(action, [{ username: 'approver', password: DEMO_PASSWORDS.approver, expected_username: 'editor' }], { Origin: baseURL! }),
    );
    expect(await other.text()).toContain('To keep your edits as yours, sign in as editor; or open the sign-in page to switch account.');
    // Nobody was signed in: the approver's session would let the editor's edits be saved as theirs.
    expect((await anonymous.storageState()).cookies.map((c) => c.name).filter((name) => name.includes('session'))).toEqual([]);
    expect((await anonymous.get('/api/plans')).status()).toBe(401);
  } finally {
    await anonymous.dispose();
  }
});

test('a server action refuses input no database row can hold, naming the problem, before anything acts on it', async ({ api, page, baseURL }) => {
  const { id } = await api.create('Unstorable action input', plan);
  const action = serverActions(id).find((a) => a.name === 'markInboxReadAction')!;
  const refused = await page.request.post(action.page, actionRequest(action, [{ ids: [1], note: 'a\u0000b' }], { Origin: baseURL! }));
  expect(await refused.text()).toContain('The input contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored');
});
