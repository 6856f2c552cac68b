import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { adminHeaders, signIn } from './auth-support';
import { expect, test } from './fixtures';

// Passkey-signed decisions end to end: an approver registers passkeys on /account with
// Chromium's virtual authenticator, approves plans signed on their review pages, and both
// outside verifiers (scripts/verify-approvals.mjs with node:crypto, clients/python with
// `cryptography`) accept the hand-off against GET /api/keys and refuse tampered copies.
// WebAuthn refuses IP addresses as relying party ids, so this browser uses localhost.

const root = path.resolve(__dirname, '..');

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch shipments', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

interface Verdict {
  status: number | null;
  output: string;
}

/** Runs both verifiers on a hand-off and the keys, as an executor would, from files. */
function verifyBoth(dir: string, name: string, handOff: unknown, keys: unknown): { node: Verdict; python: Verdict } {
  const handOffFile = path.join(dir, `${name}-handoff.json`);
  const keysFile = path.join(dir, `${name}-keys.json`);
  writeFileSync(handOffFile, JSON.stringify(handOff));
  writeFileSync(keysFile, JSON.stringify(keys));
  const run = (command: string, args: string[]): Verdict => {
    const result = spawnSync(command, args, { cwd: root, encoding: 'utf8' });
    return { status: result.status, output: `${result.stdout}${result.stderr}${result.error?.message ?? ''}` };
  };
  return {
    node: run(process.execPath, ['scripts/verify-approvals.mjs', handOffFile, keysFile]),
    python: run('python3', ['clients/python/verify_approvals.py', handOffFile, keysFile]),
  };
}

/** A device with a platform authenticator that verifies its user; `swap()` trades it for another device. */
async function withVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const add = async () =>
    (
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      })
    ).authenticatorId;
  let current = await add();
  return {
    async swap() {
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: current });
      current = await add();
    },
  };
}

async function addPasskey(page: Page, name: string) {
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Added the passkey “${name}”. It is published at /api/keys.` })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Your passkeys' }).getByRole('row', { name: new RegExp(name) })).toContainText('Active');
}

test('the Python verifier passes its own tests (it needs the cryptography package)', () => {
  const available = spawnSync('python3', ['-c', 'import cryptography'], { encoding: 'utf8' });
  expect(available.status, `python3 with the "cryptography" package is needed to verify signed approvals (pip install cryptography): ${available.stderr}${available.error?.message ?? ''}`).toBe(0);
  const tests = spawnSync('python3', ['-m', 'unittest', 'discover', '-s', 'clients/python', '-p', 'test_verify_approvals.py'], { cwd: root, encoding: 'utf8' });
  expect(tests.status, tests.stderr).toBe(0);
  expect(tests.stderr).toMatch(/Ran \d+ tests[\s\S]*OK/);
});

test('an approver registers passkeys, approves signed, and both verifiers accept the hand-off but refuse tampered ones', async ({ api, browser, baseURL, request }, testInfo) => {
  const first = await api.create('Signed approval', plan);
  const second = await api.create('Another signed approval', plan);
  await api.submitted(first.id);
  await api.submitted(second.id);

  const context = await browser.newContext({ baseURL: baseURL!.replace('127.0.0.1', 'localhost'), storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const device = await withVirtualAuthenticator(page);
  await signIn(page, 'approver2');

  // Two passkeys on two devices: a person may hold several, to rotate them. (One device
  // holds one passkey per account: registering it again is refused, and said so.)
  await page.getByRole('link', { name: 'Account', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await addPasskey(page, 'Laptop');
  await page.getByRole('textbox', { name: 'Name' }).fill('Laptop again');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The browser could not create a passkey' })).toBeVisible();
  await device.swap();
  await addPasskey(page, 'Phone');

  // Approving signs: the box is offered, ticked, and the decision goes through with the signature.
  for (const created of [first, second]) {
    await page.goto(`/plans/${created.id}/review`);
    await expect(page.getByRole('checkbox', { name: 'Sign with passkey' })).toBeChecked();
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'You approved revision 1' })).toBeVisible();
  }

  const handOff = async (id: string) => (await request.get(`/api/plans/${id}/approved`, { headers: adminHeaders })).json();
  const keysNow = async () => (await request.get('/api/keys', { headers: adminHeaders })).json();
  const [approved, other, keys] = [await handOff(first.id), await handOff(second.id), await keysNow()];
  expect(approved.approvals).toHaveLength(1);
  expect(approved.approvals[0]).toMatchObject({ reviewer: 'approver2', signature: { signed: { plan_id: first.id, decision: 'approved', content_hash: approved.content_hash } } });
  const mine = keys.keys.filter((key: { username: string; rp_id: string }) => key.username === 'approver2' && key.rp_id === 'localhost');
  expect(mine.length).toBeGreaterThanOrEqual(2);

  const dir = testInfo.outputPath('verifier-input');
  mkdirSync(dir, { recursive: true });
  const genuine = verifyBoth(dir, 'genuine', approved, keys);
  for (const verdict of Object.values(genuine)) {
    expect(verdict.output).toContain('All 1 decisions verify.');
    expect(verdict.status).toBe(0);
  }

  // Tampered: another content hash; the signer's key swapped for another one of theirs; a signature replayed from the other plan.
  const signer = approved.approvals[0].signature.kid;
  const forged = `sha256:${'0'.repeat(64)}`;
  const otherKey = mine.find((key: { kid: string }) => key.kid !== signer);
  const tampered = {
    'changed content hash': [{ ...approved, content_hash: forged, approvals: [{ ...approved.approvals[0], content_hash: forged }] }, keys, /signature is over content_hash/],
    'swapped key': [approved, { keys: keys.keys.map((key: { kid: string }) => (key.kid === signer ? { ...key, jwk: otherKey.jwk, cose: otherKey.cose } : key)) }, /does not verify/],
    'replayed from another plan': [{ ...approved, approvals: [{ ...approved.approvals[0], signature: other.approvals[0].signature }] }, keys, /plan_id/],
  } as const;
  for (const [name, [document, keyset, reason]] of Object.entries(tampered)) {
    const verdicts = verifyBoth(dir, name.replaceAll(' ', '-'), document, keyset);
    for (const [verifier, verdict] of Object.entries(verdicts)) {
      expect(verdict.status, `${verifier} on a ${name}: ${verdict.output}`).toBe(1);
      expect(verdict.output, `${verifier} on a ${name}`).toMatch(reason);
    }
  }

  // Revoking the key that signed: it stays published with its revocation time, and what it signed before still verifies.
  await page.goto('/account');
  const laptop = mine.find((key: { kid: string }) => key.kid === signer).label;
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: `Revoke passkey ${laptop}` }).click();
  await expect(page.getByRole('row', { name: new RegExp(laptop) })).toContainText('Revoked');
  const afterRevoking = await keysNow();
  expect(afterRevoking.keys.find((key: { kid: string }) => key.kid === signer).revoked_at).not.toBeNull();
  for (const verdict of Object.values(verifyBoth(dir, 'after-revoking', approved, afterRevoking))) expect(verdict.status, verdict.output).toBe(0);
  await context.close();
});

test('a person signs in with their passkey instead of the password; another account, or a revoked passkey, signs nobody in', async ({ browser, baseURL, request }) => {
  const username = `pk${Date.now().toString(36)}`;
  const created = await request.post('/api/users', { headers: adminHeaders, data: { username, password: 'passkey-person-pass', role: 'viewer' } });
  expect(created.status()).toBe(201);
  const context = await browser.newContext({ baseURL: baseURL!.replace('127.0.0.1', 'localhost'), storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await withVirtualAuthenticator(page);
  await signIn(page, username, 'passkey-person-pass');
  await page.goto('/account');
  await addPasskey(page, 'Desk key');
  await page.getByRole('button', { name: 'Sign out' }).click();

  await page.goto('/sign-in?next=%2Finbox');
  // Another account's name: this device's passkey does not sign it in.
  await page.getByRole('textbox', { name: 'Username' }).fill('approver');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /No passkey answered|did not sign you in/ })).toBeVisible();

  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(page.getByRole('banner').getByText(`Signed in as ${username}`)).toBeVisible();

  // Revoked, it signs nobody in.
  await page.goto('/account');
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Revoke passkey Desk key' }).click();
  await expect(page.getByRole('row', { name: /Desk key/ })).toContainText('Revoked');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /No passkey answered|did not sign you in/ })).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in/);
  await context.close();
});
