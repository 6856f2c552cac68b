import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores(['.next/**', '.data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts', 'lib/server/db/migrations/**']),
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The domain layers run in browser and server alike; keeping React, Next and React
    // Flow out of them is what makes that true (ARCHITECTURE.md, rule 1).
    files: ['lib/**/*.ts'],
    ignores: ['lib/server/**', 'lib/editor-store/**', 'lib/flow/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['react', 'react-dom', 'next', 'next/*', '@xyflow/*'], message: 'Pure lib code must not import UI frameworks.' }] },
      ],
    },
  },
]);
