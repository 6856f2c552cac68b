import { afterAll } from 'vitest';

// Test files share their worker's process (isolate: false in vitest.config.ts: a fresh process
// per file cost more CPU than the tests themselves), so the environment a file sets for its
// servers and keys is put back when it ends, before the next file in that process starts.
const before = { ...process.env };

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in before)) delete process.env[key];
  Object.assign(process.env, before);
});
