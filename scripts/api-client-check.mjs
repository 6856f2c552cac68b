// The published contract, checked as a client developer meets it: generate TypeScript types
// from the OpenAPI document with openapi-typescript, then type-check a small client that
// calls every operation (scripts/api-client-check/client.mts) against them.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from './lib/setup.mjs';

const here = path.join(import.meta.dirname, 'api-client-check');
const dir = mkdtempSync(path.join(os.tmpdir(), 'plangate-api-client-'));
try {
  run('npx', ['tsx', path.join(here, 'write-openapi.ts'), path.join(dir, 'openapi.json')]);
  run('npx', ['openapi-typescript', path.join(dir, 'openapi.json'), '-o', path.join(dir, 'api.d.ts'), '--silent']);
  for (const file of ['client.mts', 'tsconfig.json']) copyFileSync(path.join(here, file), path.join(dir, file));
  run('npx', ['tsc', '-p', path.join(dir, 'tsconfig.json')]);
  console.log('The generated client types cover every operation.');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
