/**
 * Test support: a real MCP server (the SDK's McpServer over Streamable HTTP, stateless) on
 * 127.0.0.1 with the tools the run tests call, counting every call per tool and idempotency
 * key. Used by the dispatch tests, and by the end-to-end tests and the bench.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface McpToolCall {
  tool: string;
  /** From the call's `_meta` (`plangate/idempotency_key`), else its Idempotency-Key header. */
  idempotencyKey: string | undefined;
  arguments: Record<string, unknown>;
}

export interface McpTestServer {
  /** The Streamable HTTP endpoint, e.g. http://127.0.0.1:41234/mcp. */
  url: string;
  /** Every tools/call received, in order. */
  calls: McpToolCall[];
  /** How many calls `tool` (every tool when omitted) received with `idempotencyKey` (any key when omitted). */
  callCount(tool?: string, idempotencyKey?: string): number;
  /** How many MCP sessions clients opened (initialize handshakes completed). */
  sessionsOpened(): number;
  /** How many requests came without the token the server was started with (refused with 401). */
  unauthorized(): number;
  close(): Promise<void>;
}

export interface McpTestServerOptions {
  /** When set, every request must carry `Authorization: Bearer <token>` (else 401). */
  token?: string;
  /** Listen on this port (to stand in for a server that restarted); a free one when absent. */
  port?: number;
}

const MCP_PATH = '/mcp';

/**
 * Tools: `echo` (answers its arguments as JSON text), `add` ({a, b} → structured {sum}),
 * `slow` ({ms} → sleeps, then answers text), `fail` (an isError result), `big` ({bytes} →
 * a text answer that long).
 */
function toolServer(record: (tool: string, args: Record<string, unknown>, meta: Record<string, unknown> | undefined, headers: IncomingMessage['headers']) => void, headers: IncomingMessage['headers']): McpServer {
  const server = new McpServer({ name: 'plangate-test-tools', version: '1.0.0' });
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

  server.registerTool('echo', { description: 'Answers its arguments', inputSchema: z.looseObject({}) }, async (args, extra) => {
    record('echo', args, extra._meta, headers);
    return text(JSON.stringify(args));
  });
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    async (args, extra) => {
      record('add', args, extra._meta, headers);
      const sum = args.a + args.b;
      return { ...text(String(sum)), structuredContent: { sum } };
    },
  );
  server.registerTool('slow', { description: 'Sleeps, then answers', inputSchema: { ms: z.number().nonnegative() } }, async (args, extra) => {
    record('slow', args, extra._meta, headers);
    await sleep(args.ms, undefined, { signal: extra.signal }).catch(() => undefined);
    return text(`done after ${args.ms} ms`);
  });
  server.registerTool('fail', { description: 'Always fails', inputSchema: z.looseObject({}) }, async (args, extra) => {
    record('fail', args, extra._meta, headers);
    return { ...text('the tool failed on purpose'), isError: true };
  });
  server.registerTool('big', { description: 'Answers a long text', inputSchema: { bytes: z.number().int().nonnegative() } }, async (args, extra) => {
    record('big', args, extra._meta, headers);
    return text('x'.repeat(args.bytes));
  });
  return server;
}

export async function startMcpTestServer(options: McpTestServerOptions = {}): Promise<McpTestServer> {
  const calls: McpToolCall[] = [];
  let initialized = 0;
  let refused = 0;
  const record = (tool: string, args: Record<string, unknown>, meta: Record<string, unknown> | undefined, headers: IncomingMessage['headers']) => {
    const fromMeta = meta?.['plangate/idempotency_key'];
    const fromHeader = headers['idempotency-key'];
    calls.push({ tool, arguments: args, idempotencyKey: typeof fromMeta === 'string' ? fromMeta : typeof fromHeader === 'string' ? fromHeader : undefined });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if ((req.url ?? '').split('?')[0] !== MCP_PATH) {
      res.writeHead(404).end();
      return;
    }
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      refused += 1;
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    if (req.method !== 'POST') {
      // Stateless: no standalone SSE stream and no sessions to delete.
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const server = toolServer(record, req.headers);
    server.server.oninitialized = () => {
      initialized += 1;
    };
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };

  const httpServer = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    calls,
    callCount: (tool, key) => calls.filter((call) => (tool === undefined || call.tool === tool) && (key === undefined || call.idempotencyKey === key)).length,
    sessionsOpened: () => initialized,
    unauthorized: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}
