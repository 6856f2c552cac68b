import { existsSync } from 'node:fs';
import path from 'node:path';

// Two real WfCommons traces (LGPL-3.0, see scripts/data/wfcommons/README.md) kept in the
// repository as large, real plans for benchmarks and import tests; PLANGATE_WFCOMMONS_DIR
// may point at other copies.
// Resolved from the working directory: Vitest, Playwright and the bench all run from the
// project root, and not all of them allow import.meta in a shared module.
const root = process.cwd();

export const WFCOMMONS_TRACES = {
  montage: 'montage-chameleon-dss-15d-001.json',
  epigenomics: 'epigenomics-chameleon-ilmn-6seq-50k-001.json',
} as const;

export function wfcommonsDir(): string {
  const candidates = [
    process.env.PLANGATE_WFCOMMONS_DIR,
    path.resolve(root, 'scripts/data/wfcommons'),
  ].filter((c): c is string => !!c);
  const found = candidates.find((dir) => existsSync(path.join(dir, WFCOMMONS_TRACES.montage)));
  if (!found) {
    throw new Error(`wfcommonsDir: WfCommons traces not found; looked in ${candidates.join(', ')}. Set PLANGATE_WFCOMMONS_DIR.`);
  }
  return found;
}
