/**
 * Test support: a web-standard handler ((Request) => Response, as a Next route handler is)
 * served over real HTTP on 127.0.0.1, so an MCP client talks to it through its own
 * transport. As in Next, the request's URL names localhost whatever host the client used,
 * and a client that hangs up aborts the request's signal.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export interface HttpTestServer {
  url: string;
  close(): Promise<void>;
}

async function toRequest(message: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  const body = chunks.length ? Buffer.concat(chunks) : undefined;
  // As Next does: the URL names the server's own host; the client's is in the Host header.
  const port = message.socket.localPort;
  return new Request(`http://localhost:${port}${message.url}`, { method: message.method, headers, body, signal });
}

export async function serveOverHttp(handler: (request: Request) => Promise<Response>): Promise<HttpTestServer> {
  const server = createServer(async (message, reply) => {
    const hangUp = new AbortController();
    reply.on('close', () => {
      if (!reply.writableFinished) hangUp.abort();
    });
    try {
      const response = await handler(await toRequest(message, hangUp.signal));
      reply.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(reply);
      else reply.end();
    } catch (error) {
      reply.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
