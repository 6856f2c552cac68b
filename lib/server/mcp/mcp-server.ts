import 'server-only';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { hasRole } from '@/lib/auth/roles';
import type { Principal } from '../auth/principal';
import type { DatabaseHandle } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { logError } from '../platform/http/log-error';
import { clientOrigin } from './client-origin';
import { PLANGATE_TOOLS, type PlangateTool, type ToolContext } from './mcp-tools';

// Plangate as an MCP server over Streamable HTTP, stateless: every POST gets a server and
// transport of its own, so any instance answers any call and nothing is kept between them.
// The caller was authenticated before this (the route table's endpoint); each tool checks
// its own least role, since one endpoint serves tools for every role.

const INSTRUCTIONS =
  'Plangate puts a person between a planner and execution. submit_plan stores a plan and sends it for review; ' +
  'wait_for_decision waits for a person to approve, reject or request changes (call it again when it times out); ' +
  'get_approved_plan is the hand-off to run; start_run runs exactly that revision; run_status follows it.';

export interface McpCaller {
  handle: DatabaseHandle;
  principal: Principal;
}

function textOf(value: unknown): CallToolResult['content'] {
  return [{ type: 'text', text: JSON.stringify(value) }];
}

/** An MCP tool error: what a REST client would read in the error body, as the agent reads it. */
function toolError(error: unknown, tool: PlangateTool, signal: AbortSignal): CallToolResult {
  if (error instanceof AppError) {
    const details = error.details?.map((detail) => `\n- ${detail.path}: ${detail.message}`).join('') ?? '';
    return { isError: true, content: [{ type: 'text', text: `${error.message}${details}` }], structuredContent: error.toJSON() };
  }
  if (signal.aborted) return { isError: true, content: [{ type: 'text', text: `${tool.name} was cancelled` }] };
  logError(`MCP tool ${tool.name} failed`, error);
  return { isError: true, content: [{ type: 'text', text: 'Internal server error' }], structuredContent: { error: { code: 'internal', message: 'Internal server error' } } };
}

function refuseBelowRole(tool: PlangateTool, principal: Principal): void {
  if (!hasRole(principal.role, tool.role)) {
    throw new AppError('forbidden', 403, `${tool.name} needs the ${tool.role} role; ${principal.username} has the ${principal.role} role`);
  }
}

/** A server with every Plangate tool, acting for `caller`; `origin` makes the links absolute. */
export function plangateMcpServer(caller: McpCaller, origin: string): McpServer {
  const server = new McpServer({ name: 'plangate', title: 'Plangate', version: '0.1.0' }, { instructions: INSTRUCTIONS });
  for (const tool of PLANGATE_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: `${tool.description} Needs the ${tool.role} role.`,
        inputSchema: tool.input,
        annotations: { readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: false },
      },
      async (args: Record<string, unknown>, extra): Promise<CallToolResult> => {
        const token = extra._meta?.progressToken;
        const context: ToolContext = {
          ...caller,
          origin,
          signal: extra.signal,
          async progress(progress, total, message) {
            if (token === undefined) return;
            await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } });
          },
        };
        try {
          refuseBelowRole(tool, caller.principal);
          const result = await tool.run(args, context);
          return { content: textOf(result), structuredContent: result };
        } catch (error) {
          return toolError(error, tool, extra.signal);
        }
      },
    );
  }
  return server;
}

/**
 * Answers one MCP POST whose body was read already. A client that goes away ends its calls:
 * closing the server aborts every handler's signal, so a wait stops polling.
 */
export async function serveMcp(request: Request, body: unknown, caller: McpCaller): Promise<Response> {
  const server = plangateMcpServer(caller, clientOrigin(request));
  // The body was read under the REST API's cap (endpoint), so the transport reads none itself.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  const close = () => void server.close().catch(() => undefined);
  request.signal.addEventListener('abort', close, { once: true });
  if (request.signal.aborted) close();
  return transport.handleRequest(request, { parsedBody: body });
}

/**
 * How an MCP client learns to authenticate: RFC 6750's challenge on every 401, with
 * `invalid_token` when the client did send a token (unknown, expired or revoked).
 */
export function withBearerChallenge(response: Response, request: Request): Response {
  if (response.status !== 401) return response;
  const challenge = request.headers.has('authorization')
    ? 'Bearer realm="Plangate", error="invalid_token", error_description="The API token is unknown, expired or revoked"'
    : 'Bearer realm="Plangate"';
  response.headers.set('WWW-Authenticate', challenge);
  return response;
}
