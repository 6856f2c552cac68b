/**
 * Bundles ./page.tsx with esbuild (production React, minified) into a temp dir and serves
 * it on its own port beside React Flow's stylesheet, with the graphs the bench registers:
 * `${url}/?graph=<name>` draws the graph set with `setGraph(name, …)`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { root } from '../lib/setup.mjs';
import type { PlainGraph } from './page';

export type { PlainGraph };

export interface PlainFlowServer {
  url: string;
  setGraph(name: string, graph: PlainGraph): void;
  close(): Promise<void>;
}

const SHELL = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Plain React Flow</title>
<link rel="stylesheet" href="/style.css">
<style>html, body, #root { margin: 0; width: 100%; height: 100%; }</style></head>
<body><div id="root"></div><script type="module" src="/page.js"></script></body>
</html>`;

export async function startPlainFlow(port: number): Promise<PlainFlowServer> {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'plangate-plain-flow-'));
  await build({
    entryPoints: [path.join(root, 'scripts', 'plain-flow', 'page.tsx')],
    outfile: path.join(outdir, 'page.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  // Static files are cached as Next's hashed chunks are, so warm navigations compare like with like.
  const files: Record<string, { type: string; body: Buffer | string; cache: string }> = {
    '/': { type: 'text/html; charset=utf-8', body: SHELL, cache: 'no-store' },
    '/page.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(path.join(outdir, 'page.js')), cache: 'public, max-age=31536000, immutable' },
    '/style.css': {
      type: 'text/css; charset=utf-8',
      body: readFileSync(path.join(root, 'node_modules', '@xyflow', 'react', 'dist', 'style.css')),
      cache: 'public, max-age=31536000, immutable',
    },
  };
  const graphs = new Map<string, string>();
  const server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    const graph = /^\/graph\/(.+)\.json$/.exec(pathname);
    const json = graph ? graphs.get(decodeURIComponent(graph[1])) : undefined;
    const file = json === undefined ? files[pathname] : { type: 'application/json', body: json, cache: 'no-store' };
    if (!file) {
      // The browser's favicon request among them: answered without a console error.
      response.writeHead(pathname === '/favicon.ico' ? 204 : 404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file.type, 'cache-control': file.cache }).end(file.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    setGraph: (name, g) => void graphs.set(name, JSON.stringify(g)),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(outdir, { recursive: true, force: true });
    },
  };
}
