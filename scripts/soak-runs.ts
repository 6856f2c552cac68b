/**
 * The run engine's model-based test, long: many more random plans and steps than the unit
 * suite's few (lib/server/runs/run-engine.model.test.ts), on PGlite. Prints how many plans and
 * steps it ran; fails as the test fails, with the shrunk counterexample.
 *
 *   npm run soak:runs                       (200 plans of up to 24 steps)
 *   PLANGATE_MODEL_RUNS=500 npm run soak:runs
 */
import { spawnSync } from 'node:child_process';

const runs = process.env.PLANGATE_MODEL_RUNS || '200';
const commands = process.env.PLANGATE_MODEL_COMMANDS || '24';
const started = Date.now();
const result = spawnSync('npx', ['vitest', 'run', '--config', 'scripts/vitest.config.ts', 'lib/server/runs/run-engine.model.test.ts'], {
  env: { ...process.env, PLANGATE_MODEL_RUNS: runs, PLANGATE_MODEL_COMMANDS: commands },
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
const output = `${result.stdout}${result.stderr}`;
const counted = /\[model\] (\d+) plans, (\d+) steps/.exec(output);
console.log(JSON.stringify({ plans: Number(counted?.[1] ?? 0), steps: Number(counted?.[2] ?? 0), wall_s: Math.round((Date.now() - started) / 1000), ok: result.status === 0 }, null, 2));
if (result.status !== 0) {
  console.error(output.slice(-20_000));
  process.exitCode = 1;
}
