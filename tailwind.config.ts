import type { Config } from 'tailwindcss';

// Tailwind 4 reads this through `@config` in app/globals.css. The palette names the
// product's meanings (execution types, plan states) so components say what they mean.
const config: Config = {
  content: ['./app/**/*.{ts,tsx}', './components/**/*.{ts,tsx}', './lib/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        brand: { 50: '#eef4ff', 100: '#dbe6fe', 500: '#3b6cf6', 600: '#2952e0', 700: '#2142b5', 900: '#172b6b' },
        exec: { agent: '#7c3aed', tool: '#0891b2', llm: '#db2777', dsl: '#ca8a04' },
      },
      fontFamily: {
        sans: ['ui-sans-serif', 'system-ui', 'Segoe UI', 'Roboto', 'Helvetica Neue', 'Arial', 'sans-serif'],
        mono: ['ui-monospace', 'SFMono-Regular', 'Menlo', 'Consolas', 'monospace'],
      },
    },
  },
};

export default config;
