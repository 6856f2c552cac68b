import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { guardedFetch } from './address-guard';

// Opening an MCP session costs three HTTP round trips (initialize, initialized, the probe for
// a server stream) before the one tools/call a task makes, and a run calls the same server
// many times; so connected clients are kept per server and credential, shared by concurrent
// calls. Each call keeps its own limits (deadline, abort, answer cap, idempotency header):
// the shared transport fetches through the fetch of the call that is running.

const MAX_SESSIONS = 32;

interface Session {
  client: Promise<Client>;
  /** Calls using it now: a retired session is closed when the last one ends. */
  active: number;
  retired: boolean;
}

const sessions = new Map<string, Session>();
const runningCall = new AsyncLocalStorage<typeof fetch>();
// Outside any call (closing a session sends a DELETE) the request still goes through the
// address guard: the server's URL is the registry's, and its name may resolve elsewhere now.
const sessionFetch: typeof fetch = (input, init) => (runningCall.getStore() ?? guardedFetch)(input, init);

function closeWhenIdle(session: Session): void {
  if (session.retired && session.active === 0) void session.client.then((client) => client.close()).catch(() => undefined);
}

function retire(key: string, session: Session): void {
  if (sessions.get(key) === session) sessions.delete(key);
  session.retired = true;
  closeWhenIdle(session);
}

function open(key: string, url: string, authorization: string | undefined, options: { signal: AbortSignal; timeout: number }): Session {
  const client = new Client({ name: 'plangate', version: '1' });
  // The credential is the transport's own, so what it sends outside any call (a request's
  // cancellation after its timeout, the session's DELETE at close) carries it too.
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: sessionFetch,
    ...(authorization ? { requestInit: { headers: { Authorization: authorization } } } : {}),
  });
  const session: Session = { client: Promise.resolve(client), active: 0, retired: false };
  session.client = client.connect(transport, options).then(
    () => client,
    (error: unknown) => {
      retire(key, session);
      throw error;
    },
  );
  sessions.set(key, session);
  for (const [oldKey, old] of sessions) {
    if (sessions.size <= MAX_SESSIONS) break;
    retire(oldKey, old);
  }
  return session;
}

/** A reused session the server no longer knows (it restarted or expired it): the call never ran. */
function isStale(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code === 404;
}

/**
 * Runs `callWith` with a connected client for `url` (as `authorization`), opening one if none is
 * kept; every HTTP request goes through `callFetch`. A session that fails other than by a
 * JSON-RPC error or the call's own abort is dropped; a kept one the server has forgotten is
 * replaced once.
 */
export async function withMcpSession<T>(
  url: string,
  authorization: string | undefined,
  callFetch: typeof fetch,
  options: { signal: AbortSignal; timeout: number },
  callWith: (client: Client) => Promise<T>,
): Promise<T> {
  const key = `${url}\n${authorization ?? ''}`;
  return runningCall.run(callFetch, async () => {
    for (let attempt = 0; ; attempt += 1) {
      const kept = sessions.get(key);
      const session = kept ?? open(key, url, authorization, options);
      session.active += 1;
      try {
        return await callWith(await session.client);
      } catch (error) {
        if (!(error instanceof McpError) && !options.signal.aborted) retire(key, session);
        if (!(kept && attempt === 0 && isStale(error))) throw error;
      } finally {
        session.active -= 1;
        closeWhenIdle(session);
      }
    }
  });
}

/** Closes every kept session (at shutdown, and between tests). */
export async function closeMcpSessions(): Promise<void> {
  const all = [...sessions.entries()];
  for (const [key, session] of all) retire(key, session);
  await Promise.all(all.map(([, session]) => session.client.then((client) => client.close(), () => undefined)));
}
