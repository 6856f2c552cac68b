import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { E2E_ADMIN_TOKEN } from './auth-support';

// A production server this test owns, in its own process group, so the test can kill it
// the hard way (SIGKILL to the whole group) and start it again on the same data.

const root = path.resolve(__dirname, '..');

export interface ServerProcess {
  url: string;
  /** kill -9 of the process group: no shutdown code runs. */
  crash(): Promise<void>;
  stop(): Promise<void>;
}

async function healthy(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server at ${url} exited with ${child.exitCode}:\n${log()}`);
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server at ${url} did not start within 90 s:\n${log()}`);
}

/**
 * How the servers under test are started, as `npm start` starts one (scripts/start.mjs):
 * idle connections are kept for 65 s, not Node's 5 s, so a client reusing one just as the
 * server closes it (an API call a few seconds after the last) does not get ECONNRESET.
 */
export function serveArgs(port: number): string[] {
  return ['next', 'start', '-p', String(port), '--keepAliveTimeout', '65000'];
}

export async function startServer(port: number, env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn('npx', serveArgs(port), {
    cwd: root,
    detached: true,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', PLANGATE_ADMIN_TOKEN: E2E_ADMIN_TOKEN, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Gone already.
    }
    await exited;
  };
  // A server that did not come up is not left behind holding the port.
  await healthy(url, child, () => output).catch(async (error: unknown) => {
    await signal('SIGKILL');
    throw error;
  });
  return { url, crash: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}

/** A fresh PostgreSQL database beside TEST_DATABASE_URL's, and how to drop it. */
export function scratchDatabase(adminUrl: string): { url: string; drop(): void } {
  const url = execFileSync('node', ['scripts/scratch-database.mjs', 'create', adminUrl], { cwd: root, encoding: 'utf8' });
  return { url, drop: () => execFileSync('node', ['scripts/scratch-database.mjs', 'drop', adminUrl, url], { cwd: root }) };
}
