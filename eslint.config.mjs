import { builtinModules } from 'node:module';
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import boundaries from 'eslint-plugin-boundaries';

// The layers of docs/architecture.md, kept by the build (`npm run lint`) rather than by
// habit. scripts/lint-rules.test.ts plants a wrong import in each layer and checks that the
// rule below names it.

/** The domain: pure algorithms and rules on plans, shared by the browser and the server. */
const DOMAIN = ['plan', 'graph', 'validate', 'simulate', 'optimize', 'replan', 'planning', 'approval', 'formats', 'registry', 'runs'];
/** lib/ folders that are not pure: the server, and the client-side editor state and canvas adapters. */
// lib/server's element types (the boundaries settings below): its platform, auth, and features.
const SERVER = ['server', 'server-platform', 'server-auth'];
const IMPURE_LIB = ['lib/server/**', 'lib/editor-store/**', 'lib/flow/**'];
/** Tests and their helpers run in Node under vitest; they may read fixtures from disk. */
const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', '**/test-support.ts', '**/*-test-support.ts'];
/**
 * The I/O adapters behind pure ports, each allowed exactly what it adapts to: the
 * OpenAI-compatible client, the scripted LLM server (the port's test double) and the
 * convertor sandbox's worker pool and the compute worker's entry (docs/architecture.md, "The rules that keep the layers"). Only the server reaches them at
 * run time; the domain names them for types or through the port.
 */
const ADAPTERS = {
  'lib/llm/chat-client.ts': ['openai'],
  'lib/llm/scripted-llm-server.ts': ['node'],
  'lib/simulate/sandbox/worker-pool.ts': ['node'],
  // The entry of a compute worker thread: it speaks to the server through node:worker_threads.
  'lib/compute/compute.worker.ts': ['node'],
};

const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));
const RESTRICTED = {
  ui: {
    group: ['react', 'react/*', 'react-dom', 'react-dom/*', 'next', 'next/*', '@xyflow/*', 'zustand', 'zustand/*'],
    message: 'Pure lib code runs the same in the browser and on the server: no React, Next or React Flow (docs/architecture.md).',
  },
  node: {
    group: ['node:*', ...nodeBuiltins, ...nodeBuiltins.map((name) => `${name}/*`)],
    message: 'Pure lib code also runs in the browser: no Node built-ins; put Node I/O in lib/server (or a declared adapter).',
  },
  database: {
    group: ['pg', 'pg/*', 'drizzle-orm', 'drizzle-orm/*', '@electric-sql/pglite', '@electric-sql/pglite/*', 'server-only'],
    message: 'Persistence is lib/server: pure lib code opens no database.',
  },
  openai: {
    group: ['openai', 'openai/*'],
    message: 'The OpenAI-compatible client is the LLM port\'s adapter (lib/llm/chat-client.ts); call it through lib/llm/structured-output.',
  },
};
const pureImports = (...kinds) => ['error', { patterns: kinds.map((kind) => RESTRICTED[kind]) }];
const NO_PROCESS_ENV = [
  'error',
  { object: 'process', property: 'env', message: 'Pure lib code reads no environment: take configuration as an argument; lib/server reads the environment.' },
];

/** Node's globals the browser lacks; pure lib code would run on the server only. */
const NO_NODE_GLOBALS = [
  'error',
  { name: 'Buffer', message: 'Pure lib code also runs in the browser, which has no Buffer: count UTF-8 bytes with utf8Bytes (lib/plan), encode with TextEncoder.' },
];

/** eslint-plugin-react-hooks' rules that run the React Compiler (all but rules-of-hooks and exhaustive-deps). */
const REACT_COMPILER_RULES = [
  'static-components', 'use-memo', 'preserve-manual-memoization', 'incompatible-library', 'immutability', 'globals', 'refs',
  'set-state-in-effect', 'error-boundaries', 'purity', 'set-state-in-render', 'unsupported-syntax', 'config', 'gating',
];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores(['.next/**', '.data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts', 'lib/server/platform/db/migrations/**']),
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The React Compiler's rules check components and hooks, and there are none in lib/ but the
    // editor's store and canvas adapters (pure lib may not even import React), in scripts, in
    // the browser tests or in unit tests: off there, which saves a few seconds of lint's CPU.
    // The rules of hooks still run everywhere.
    files: ['lib/**/*.ts', 'scripts/**/*.ts', 'e2e/**/*.ts', '**/*.test.ts'],
    ignores: ['lib/editor-store/**', 'lib/flow/**'],
    rules: Object.fromEntries(REACT_COMPILER_RULES.map((rule) => [`react-hooks/${rule}`, 'off'])),
  },
  {
    // Pure lib/: no UI framework, no Node, no database, no OpenAI client, no environment.
    files: ['lib/**/*.ts', 'lib/**/*.tsx'],
    ignores: [...IMPURE_LIB, ...TEST_FILES, ...Object.keys(ADAPTERS)],
    rules: {
      'no-restricted-imports': pureImports('ui', 'node', 'database', 'openai'),
      'no-restricted-properties': NO_PROCESS_ENV,
      'no-restricted-globals': NO_NODE_GLOBALS,
    },
  },
  {
    // Tests of pure code run in Node and may read fixtures, but still render nothing.
    files: TEST_FILES.map((pattern) => `lib/${pattern}`),
    ignores: IMPURE_LIB,
    rules: { 'no-restricted-imports': pureImports('ui') },
  },
  ...Object.entries(ADAPTERS).map(([file, allowed]) => ({
    files: [file],
    rules: {
      'no-restricted-imports': pureImports(...['ui', 'node', 'database', 'openai'].filter((kind) => !allowed.includes(kind))),
      'no-restricted-properties': NO_PROCESS_ENV,
    },
  })),
  {
    // `server-only` makes Next refuse a server module in a client bundle at build time; every
    // lib/server file carries it so no import chain can smuggle the database or secrets out.
    files: ['lib/server/**/*.ts'],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "Program:not(:has(ImportDeclaration[source.value='server-only']))",
          message: "Every lib/server module starts with `import 'server-only';` so a client bundle cannot include it.",
        },
      ],
    },
  },
  {
    // Links prefetch on hover and focus, not on sight: components/ui/link.tsx says why.
    files: ['components/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}'],
    ignores: ['components/ui/link.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'next/link', message: "Use '@/components/ui/link': it prefetches a page when its link is hovered or focused, not whenever it is in view." }] },
      ],
    },
  },
  // Import cycles, type-only imports included, are found by `npm run lint:cycles` (dpdm),
  // which reads the whole graph once instead of once per file as import/no-cycle did.
  {
    // Which layer may import which (type-only imports included).
    files: ['lib/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}', 'e2e/**/*.ts', 'scripts/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': [
        // The foundation of lib/server (database, keys, compute pool, HTTP and action edges),
        // apart from the features built on it.
        { type: 'server-platform', pattern: 'lib/server/platform/**', partialMatch: false },
        { type: 'server-auth', pattern: 'lib/server/auth/**', partialMatch: false },
        { type: 'server', pattern: 'lib/server/**', partialMatch: false },
        { type: 'client-lib', pattern: ['lib/editor-store/**', 'lib/flow/**'], partialMatch: false },
        { type: 'lib-api', pattern: 'lib/api/**', partialMatch: false },
        { type: 'domain', pattern: DOMAIN.map((folder) => `lib/${folder}/**`), partialMatch: false },
        { type: 'pure-lib', pattern: 'lib/**', partialMatch: false },
        { type: 'app', pattern: 'app/**', partialMatch: false },
        { type: 'components', pattern: 'components/**', partialMatch: false },
        { type: 'e2e', pattern: 'e2e/**', partialMatch: false },
        { type: 'scripts', pattern: 'scripts/**', partialMatch: false },
      ],
      // Server action modules are the RPC boundary components call (docs/architecture.md).
      'boundaries/files': [{ category: 'server-actions', pattern: 'app/**/*actions.ts' }],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { types: { anyOf: ['domain', 'pure-lib'] } } },
              disallow: { to: { element: { types: { anyOf: [...SERVER, 'client-lib', 'components', 'app'] } } } },
              message: 'Pure lib code imports only pure lib code (docs/architecture.md, "Layers").',
            },
            {
              from: { element: { type: 'domain' } },
              disallow: { to: { element: { type: 'lib-api' } } },
              message: 'The domain does not know the REST API: move the shared shape into the domain and let lib/api re-export it.',
            },
            {
              from: { element: { type: 'lib-api' } },
              disallow: { to: { element: { types: { anyOf: [...SERVER, 'client-lib', 'components', 'app'] } } } },
              message: 'lib/api describes the API from domain types; it imports no server, client or app code.',
            },
            {
              from: { element: { type: 'client-lib' } },
              disallow: { to: { element: { types: { anyOf: [...SERVER, 'components', 'app'] } } } },
              message: 'The editor store and canvas adapters run in the browser: no server, component or app imports.',
            },
            {
              from: { element: { types: { anyOf: SERVER } } },
              disallow: { to: { element: { types: { anyOf: ['client-lib', 'components', 'app'] } } } },
              message: 'lib/server sits below the app: it imports no client, component or app code.',
            },
            {
              from: { element: { type: 'server-platform' } },
              disallow: { to: { element: { type: 'server' } } },
              message:
                'lib/server/platform is what features stand on: it imports no feature folder, but for auth, which the HTTP and action edges ask who is calling (docs/architecture.md).',
            },
            {
              from: { element: { type: 'components' } },
              disallow: { to: { element: { types: { anyOf: [...SERVER, 'app'] } } } },
              message:
                'Components import no server module, not even for types: take shared types from lib/api or the domain, and call the server through app/**/actions.ts.',
            },
            {
              // Later policies win: a component may call the server actions, nothing else in app/.
              from: { element: { type: 'components' } },
              allow: { to: { file: { categories: 'server-actions' } } },
            },
          ],
        },
      ],
    },
  },
]);
