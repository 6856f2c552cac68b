// `npm start`: install and build only when needed, then serve on PORT (default 3000).
// Migrations and the demo plans are applied when the server opens its database; the
// health check below makes that happen now rather than on the first visitor's request.
import { spawn } from 'node:child_process';
import { ensureBuild, ensureInstall, root } from './lib/setup.mjs';

ensureInstall();
ensureBuild();

const port = process.env.PORT || '3000';
const localDemo = !process.env.DATABASE_URL && process.env.NODE_ENV !== 'production';
const server = spawn('npx', ['next', 'start', '-p', port], {
  cwd: root,
  stdio: 'inherit',
  // The embedded database outside production is the local demo: its demo users (published
  // passwords) are wanted there. With DATABASE_URL or NODE_ENV=production they are not
  // made unless PLANGATE_DEMO_USERS=on says so.
  env: { NEXT_TELEMETRY_DISABLED: '1', ...(localDemo ? { PLANGATE_DEMO_USERS: 'on' } : {}), ...process.env },
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

const deadline = Date.now() + 60_000;
for (;;) {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`);
    const health = await response.json();
    if (response.ok) {
      console.log(`\n  Plangate is ready at http://localhost:${port} (database: ${health.database})\n`);
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
