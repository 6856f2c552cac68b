// `npm start`: install and build only when needed, then serve on PORT (default 3000).
// Migrations and the demo plans are applied when the server opens its database; the
// health check below makes that happen now rather than on the first visitor's request.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureBuild, ensureInstall, root } from './lib/setup.mjs';

// Secret keys (lib/server/platform/keys/key-file.ts) must not sit with the database they protect:
// refuse to start rather than fail on the first sign-in.
{
  const dataDir = path.resolve(root, process.env.PLANGATE_DATA_DIR || '.data');
  const keyDir = path.resolve(root, process.env.PLANGATE_KEY_DIR || '.keys');
  const relative = path.relative(dataDir, keyDir);
  const outside = relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  if (relative === '' || !outside) {
    console.error(`PLANGATE_KEY_DIR (${keyDir}) is inside PLANGATE_DATA_DIR (${dataDir}); keys must not be stored with the database.`);
    process.exit(1);
  }
}

ensureInstall();
ensureBuild();

const port = process.env.PORT || '3000';
// Loopback unless HOST says otherwise: the local demo is not a network service.
const host = process.env.HOST || '127.0.0.1';
const loopback = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i.test(host);
const localDemo = !process.env.DATABASE_URL && process.env.NODE_ENV !== 'production' && loopback;
// Idle connections are kept for 65 s, not Node's 5 s: a client (or a proxy) that reuses one
// just as the server closes it gets ECONNRESET, so the server should outlast their idle timeouts.
const server = spawn('npx', ['next', 'start', '-p', port, '-H', host, '--keepAliveTimeout', '65000'], {
  cwd: root,
  stdio: 'inherit',
  // The embedded database outside production, served on loopback, is the local demo: its
  // demo users (published passwords) are wanted there. With DATABASE_URL, NODE_ENV=production
  // or a HOST other than loopback they are not made (and never on a non-loopback HOST, even
  // with PLANGATE_DEMO_USERS=on: the server reads HOST too).
  env: { NEXT_TELEMETRY_DISABLED: '1', ...(localDemo ? { PLANGATE_DEMO_USERS: 'on' } : {}), ...process.env, HOST: host },
});

// Where this machine reaches the server: a wildcard address is reached on loopback.
const probeHost = host === '0.0.0.0' || host === '::' || host === '[::]' ? '127.0.0.1' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

const deadline = Date.now() + 60_000;
for (;;) {
  try {
    const response = await fetch(`http://${probeHost}:${port}/api/health`);
    const health = await response.json();
    if (response.ok) {
      console.log(`\n  Plangate is ready at http://${loopback ? 'localhost' : probeHost}:${port} (database: ${health.database})\n`);
      break;
    }
  } catch {
    // not listening yet
  }
  if (Date.now() > deadline) {
    console.error('Plangate did not become healthy within 60 s; see the log above.');
    server.kill('SIGTERM');
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}
