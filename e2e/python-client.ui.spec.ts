import { spawn } from 'node:child_process';
import path from 'node:path';
import { E2E_ADMIN_TOKEN } from './auth-support';
import { expect, test } from './fixtures';

// The Python client (clients/python, standard library only) against this server, under
// `python3 -m unittest`: its offline checks, and the live journey with real tokens — the
// editor's (this browser's session) and the approver's, each minted by its own person.

const clientDir = path.join(__dirname, '..', 'clients', 'python');

function unittest(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('python3', ['-m', 'unittest', '-v', 'test_plangate', 'test_plangate_live'], { cwd: clientDir, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function mintToken(request: { post: (url: string, options: { data: unknown }) => Promise<{ status(): number; json(): Promise<{ token: string }> }> }, label: string) {
  const minted = await request.post('/api/tokens', { data: { label, expires_in_days: 1 } });
  expect(minted.status()).toBe(201);
  return (await minted.json()).token;
}

test('the Python client submits, waits for a person, verifies the hand-off and runs it through its webhook executor', async ({ page, signedIn, baseURL }) => {
  test.setTimeout(120_000);
  const approver = await signedIn('approver');
  const result = await unittest({
    PLANGATE_URL: baseURL!,
    PLANGATE_EDITOR_TOKEN: await mintToken(page.request, 'python client (editor)'),
    PLANGATE_APPROVER_TOKEN: await mintToken(approver.request, 'python client (approver)'),
    PLANGATE_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
    PLANGATE_EXECUTOR_SECRET_ENV: 'E2E_EXECUTOR_SECRET',
    PLANGATE_EXECUTOR_SECRET: process.env.E2E_EXECUTOR_SECRET!,
  });
  expect(result.code, result.output).toBe(0);
  expect(result.output).toMatch(/Ran 1[0-9] tests/);
});
