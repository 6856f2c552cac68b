// `npm run bench`: every benchmark in turn. A part that misses a target (or fails) does not
// keep the later ones from running; the exit status says whether all of them held.
import { spawnSync } from 'node:child_process';

const parts = [
  ['scripts/bench.ts'],
  ['scripts/bench-editor.ts'],
  ['scripts/bench-server.ts'],
  ['--conditions=react-server', 'scripts/bench-runs.ts'],
  ['scripts/bench-run-view.ts'],
];

const missed = [];
for (const args of parts) {
  const { status, signal } = spawnSync('npx', ['tsx', ...args], { stdio: 'inherit' });
  if (status !== 0) missed.push(`${args.at(-1)} (${signal ?? `exit code ${status}`})`);
}
if (missed.length) {
  console.error(`\nbench: missed a target or failed: ${missed.join(', ')}`);
  process.exitCode = 1;
}
