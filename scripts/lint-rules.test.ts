import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { findCycles } from './check-cycles';

// The layer rules of eslint.config.mjs (docs/architecture.md, "Layers"), checked
// the way `npm run lint` would meet them: a deliberately wrong file is planted in the layer,
// linted with the project's own configuration, and removed again. Each probe is valid
// TypeScript, so only the layer rule can object to it.

const root = fileURLToPath(new URL('..', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

interface Probe {
  /** Where the probe is planted, relative to the repository root, without the extension. */
  dir: string;
  source: string;
}

/** Lints probe files planted together (so they can import each other) and returns the problems per probe. */
async function lintProbes(probes: Probe[]): Promise<Array<Array<{ ruleId: string | null; message: string; line: number }>>> {
  const tag = `__lint_probe_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const files = probes.map((probe, i) => path.join(root, probe.dir, `${tag}_${i}.ts`));
  try {
    probes.forEach((probe, i) => writeFileSync(files[i], probe.source.replaceAll('$TAG', tag)));
    const results = await eslint.lintFiles(files);
    return files.map((file) => (results.find((result) => result.filePath === file)?.messages ?? []).map(({ ruleId, message, line }) => ({ ruleId, message, line })));
  } finally {
    for (const file of files) rmSync(file, { force: true });
  }
}

async function lintProbe(dir: string, source: string) {
  const [messages] = await lintProbes([{ dir, source }]);
  return messages;
}

describe('layer rules', () => {
  it.each([
    ['lib/plan', 'React', "import { useState } from 'react';\nexport const probe = useState;\n", 'no React'],
    ['lib/graph', 'node:fs', "import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n", 'no Node built-ins'],
    ['lib/simulate', 'a bare Node built-in', "import path from 'path';\nexport const probe = path.sep;\n", 'no Node built-ins'],
    ['lib/validate', 'drizzle-orm', "import { sql } from 'drizzle-orm';\nexport const probe = sql;\n", 'opens no database'],
    ['lib/optimize', 'pg, even for types', "import type { Pool } from 'pg';\nexport type Probe = Pool;\n", 'opens no database'],
    ['lib/planning', 'the OpenAI client', "import OpenAI from 'openai';\nexport const probe = OpenAI;\n", 'adapter'],
  ])('pure lib (%s) refuses an import of %s', async (dir, _what, source, says) => {
    const messages = await lintProbe(dir, source);
    expect(messages).toEqual([expect.objectContaining({ ruleId: 'no-restricted-imports', line: 1, message: expect.stringContaining(says) })]);
  });

  it("components and pages link through the app's Link, which prefetches on hover, not Next's", async () => {
    const messages = await lintProbe('components/plan', "import Link from 'next/link';\nexport const probe = Link;\n");
    expect(messages).toEqual([expect.objectContaining({ ruleId: 'no-restricted-imports', line: 1, message: expect.stringContaining('prefetches a page when its link is hovered') })]);
  });

  it('pure lib reads no environment', async () => {
    const messages = await lintProbe('lib/plan', 'export const probe = process.env.PLANGATE_PROBE;\n');
    expect(messages).toEqual([expect.objectContaining({ ruleId: 'no-restricted-properties', message: expect.stringContaining('reads no environment') })]);
  });

  it('pure lib uses no Node global the browser lacks', async () => {
    const messages = await lintProbe('lib/simulate', "export const probe = Buffer.byteLength('x', 'utf8');\n");
    expect(messages).toEqual([expect.objectContaining({ ruleId: 'no-restricted-globals', message: expect.stringContaining('the browser, which has no Buffer') })]);
  });

  it('the domain does not import lib/api, not even for types', async () => {
    const messages = await lintProbe('lib/validate', "import type { PlanResponse } from '@/lib/api/schemas';\nexport type Probe = PlanResponse;\n");
    expect(messages).toEqual([expect.objectContaining({ ruleId: 'boundaries/dependencies', message: expect.stringContaining('does not know the REST API') })]);
  });

  it('pure lib and the client libs import no server module', async () => {
    const source = "import type { Principal } from '@/lib/server/auth/principal';\nexport type Probe = Principal;\n";
    for (const dir of ['lib/async', 'lib/flow', 'lib/api']) {
      const messages = await lintProbe(dir, source);
      expect(messages, dir).toEqual([expect.objectContaining({ ruleId: 'boundaries/dependencies' })]);
    }
  });

  it('a lib/server module without server-only fails; with it, it passes', async () => {
    const [without, withMarker] = await lintProbes([
      { dir: 'lib/server', source: 'export const probe = 1;\n' },
      { dir: 'lib/server', source: "import 'server-only';\n\nexport const probe = 2;\n" },
    ]);
    expect(without).toEqual([expect.objectContaining({ ruleId: 'no-restricted-syntax', message: expect.stringContaining("import 'server-only'") })]);
    expect(withMarker).toEqual([]);
  });

  it('lib/server imports no component', async () => {
    const messages = await lintProbe('lib/server', "import 'server-only';\nimport type { ActionFailure } from '@/components/query/use-server-action';\nexport type Probe = ActionFailure;\n");
    expect(messages).toEqual([expect.objectContaining({ ruleId: 'boundaries/dependencies', line: 2 })]);
  });

  it('lib/server/platform imports no feature folder, not even for types, but may ask auth who is calling', async () => {
    const [feature, auth] = await lintProbes([
      { dir: 'lib/server/platform/db', source: "import 'server-only';\nimport type { getRun } from '../../runs/run-queries';\nexport type Probe = typeof getRun;\n" },
      { dir: 'lib/server/platform/http', source: "import 'server-only';\nimport type { Principal } from '../../auth/principal';\nexport type Probe = Principal;\n" },
    ]);
    expect(feature).toEqual([expect.objectContaining({ ruleId: 'boundaries/dependencies', line: 2, message: expect.stringContaining('imports no feature folder') })]);
    expect(auth).toEqual([]);
  });

  it('components import no server module, not even for types, but may call server actions', async () => {
    const messages = await lintProbe(
      'components',
      [
        "import type { Principal } from '@/lib/server/auth/principal';",
        "import type { ActionResult } from '@/lib/api/action-result';",
        "import { savePlanAction } from '@/app/plans/[id]/actions';",
        'export type Probe = Principal | ActionResult<1>;',
        'export const probe = savePlanAction;',
        '',
      ].join('\n'),
    );
    expect(messages).toEqual([expect.objectContaining({ ruleId: 'boundaries/dependencies', line: 1, message: expect.stringContaining('not even for types') })]);
  });

  it('an import cycle fails the cycle check, a type-only one too', async () => {
    const tag = `__cycle_probe_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const probes = {
      [`lib/replan/${tag}_a.ts`]: `import { b } from './${tag}_b';\nexport const a = () => b;\n`,
      [`lib/replan/${tag}_b.ts`]: `import { a } from './${tag}_a';\nexport const b = () => a;\n`,
      [`lib/server/${tag}_c.ts`]: `import type { D } from './${tag}_d';\nexport type C = { d?: D };\n`,
      [`lib/server/${tag}_d.ts`]: `import type { C } from './${tag}_c';\nexport type D = { c?: C };\n`,
    };
    const files = Object.keys(probes);
    try {
      for (const file of files) writeFileSync(path.join(root, file), probes[file]);
      const cycles = await findCycles(files);
      expect(cycles.map((cycle) => [...cycle].sort())).toEqual([files.slice(0, 2), files.slice(2)]);
    } finally {
      for (const file of files) rmSync(path.join(root, file), { force: true });
    }
  });
});
