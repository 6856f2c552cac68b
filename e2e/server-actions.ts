import { readFileSync } from 'node:fs';
import path from 'node:path';

// The app's server actions as the production build's manifest lists them: an id to call one
// by (the Next-Action header) and a page that runs it.

export interface ActionEntry {
  id: string;
  name: string;
  page: string;
}

export function serverActions(planId: string): ActionEntry[] {
  const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '.next', 'server', 'server-reference-manifest.json'), 'utf8'));
  return Object.entries<{ exportedName: string; workers: Record<string, unknown> }>(manifest.node).map(([id, entry]) => {
    const worker = Object.keys(entry.workers).find((w) => !w.includes('_not-found')) ?? 'app/sign-in/page';
    const page = worker.replace(/^app/, '').replace(/\/\([^)]+\)/g, '').replace(/\/page$/, '').replace('[id]', planId).replace('[rev]', '1') || '/';
    return { id, name: entry.exportedName, page };
  });
}

/** Calls an action with `args` as a browser would (without the page's state tree). */
export function actionRequest(action: ActionEntry, args: unknown[], headers: Record<string, string> = {}) {
  return {
    headers: { 'Next-Action': action.id, 'Content-Type': 'text/plain;charset=UTF-8', Accept: 'text/x-component', ...headers },
    data: JSON.stringify(args),
  };
}
