// `npm run lint:cycles`: no import cycles in the app's own code, type-only imports included.
// A cycle hides which layer depends on which, and a type import is still a dependency of the
// design even when the compiler erases it. dpdm reads the whole graph once (with TypeScript's
// parser and tsconfig's paths), which eslint's import/no-cycle did file by file.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCircular, parseDependencyTree, prettyCircular } from 'dpdm';

const root = fileURLToPath(new URL('..', import.meta.url));
export const SOURCE_GLOBS = ['lib/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}'];

/** The import cycles among the files `globs` match (relative to the repository root), each as its chain of files. */
export async function findCycles(globs: string[] = SOURCE_GLOBS): Promise<string[][]> {
  const tree = await parseDependencyTree(globs, {
    context: root,
    tsconfig: path.join(root, 'tsconfig.json'),
    transform: false,
    skipDynamicImports: false,
    exclude: /node_modules/,
  });
  return parseCircular(tree);
}

async function main() {
  const cycles = await findCycles();
  if (cycles.length) {
    console.error(`Import cycles (type-only imports count too):\n${prettyCircular(cycles, '  ')}`);
    process.exit(1);
  }
  console.log('No import cycles.');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) void main();
