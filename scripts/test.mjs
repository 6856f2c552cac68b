// `npm test`: everything CI checks, from a fresh clone: install, browser, lint, import
// cycles, typecheck, the generated API client's types, unit tests, build, browser and API
// tests. Stages that do not depend on each other run side by side in two lanes, since most
// of the tests' time is spent waiting on databases, servers and pages rather than computing.
// A table of each stage's time closes the run.
import { spawn } from 'node:child_process';
import { buildStatus, ensureInstall, fileExists, isRoot, root, run, writeBuildStamp } from './lib/setup.mjs';

// The browser tests run Debian's headless build of Chromium (e2e/playwright.config.ts).
const CHROMIUM = '/usr/bin/chromium-headless-shell';

function ensureChromium() {
  if (fileExists(CHROMIUM)) return;
  if (!isRoot()) {
    throw new Error(`Playwright needs Debian's headless Chromium at ${CHROMIUM}: run "apt-get install -y chromium-headless-shell" as root.`);
  }
  console.log("› Installing Debian's headless Chromium…");
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', 'chromium-headless-shell'], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
}

const timings = [];
const seconds = (ms) => (ms / 1000).toFixed(1);

/**
 * Runs one stage. In a lane beside others its output is held and printed whole when it ends,
 * so the log reads stage by stage; alone (`stream`) it is shown as it comes.
 */
function stage(name, command, args, { stream = false, env = {} } = {}) {
  const started = Date.now();
  if (stream) console.log(`\n› ${name}`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const ms = Date.now() - started;
      timings.push({ name, ms, ok: code === 0 });
      if (!stream) process.stdout.write(`\n› ${name} (${seconds(ms)} s)\n${Buffer.concat(output).toString()}`);
      if (code === 0) resolve();
      else reject(new Error(`${name} failed (${command} ${args.join(' ')}: ${signal ?? `exit code ${code}`})`));
    });
  });
}

const timed = async (name, fn) => {
  const started = Date.now();
  console.log(`\n› ${name}`);
  await fn();
  timings.push({ name, ms: Date.now() - started, ok: true });
};

/** Lanes run side by side; the stages of one lane run in order. Every lane runs to its end, so one failure does not hide another. */
async function lanes(...list) {
  const results = await Promise.allSettled(list.map(async (steps) => {
    for (const step of steps) await step();
  }));
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length) throw new Error(failed.map((r) => r.reason.message).join('\n  '));
}

async function build() {
  const status = buildStatus();
  if (status.built) return;
  await stage('Build', 'npx', ['next', 'build'], { env: { NEXT_TELEMETRY_DISABLED: '1' } });
  writeBuildStamp(status.want);
}

function table() {
  const width = Math.max(...timings.map((t) => t.name.length));
  console.log('\nStage'.padEnd(width + 3) + 'seconds');
  for (const t of timings) console.log(`${t.ok ? ' ' : '✗'} ${t.name.padEnd(width)}  ${seconds(t.ms).padStart(6)}`);
}

const began = Date.now();
try {
  await timed('Dependencies', ensureInstall);
  await timed('Chromium', ensureChromium);
  // Two lanes from the start, about even in time: the two short checks, the build and then the
  // browser tests, beside lint, the unit tests and the type check. The type check comes last
  // in its lane: it writes Next's generated route types, which the build writes too, and by
  // then the build is done.
  await lanes(
    [
      () => stage('Import cycles', 'npm', ['run', '--silent', 'lint:cycles']),
      () => stage('API client types from the OpenAPI document', 'node', ['scripts/api-client-check.mjs']),
      build,
      () => stage('Browser and API tests', 'npx', ['playwright', 'test', '-c', 'e2e']),
    ],
    [
      () => stage('Lint', 'npm', ['run', '--silent', 'lint']),
      () => stage('Unit tests', 'npm', ['run', '--silent', 'test:unit']),
      () => stage('Typecheck', 'npm', ['run', '--silent', 'typecheck']),
    ],
  );
  table();
  console.log(`\n✓ All checks passed in ${seconds(Date.now() - began)} s`);
} catch (error) {
  table();
  console.error(`\n✗ ${error.message} (after ${seconds(Date.now() - began)} s)`);
  process.exit(1);
}
