import 'server-only';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpEndpoint } from '@/lib/registry/endpoint';
import { resourceKey } from '@/lib/registry';
import type { z } from 'zod';
import { guardCall, jsonOrText, statusFailure } from './call-guard';
import { dispatchSecret } from './dispatch-secrets';
import { DispatchError, type DispatchOutcome, type DispatchRequest } from './dispatch-types';
import { withMcpSession } from './mcp-sessions';

// A tool (or a DSL workflow) behind an MCP server: one `tools/call` over Streamable HTTP with
// the task's input as the arguments, on a session kept per server (mcp-sessions.ts). MCP has no idempotency key of its own, so the key rides
// in the request's `_meta` and as an Idempotency-Key header for servers that can use it.

/** Where a tools/call carries the idempotency key in `_meta`. */
export const MCP_IDEMPOTENCY_META_KEY = 'plangate/idempotency_key';

/** JSON-RPC errors that say the call itself is wrong: asking again cannot help. */
const NOT_RETRYABLE_CODES = new Set<number>([ErrorCode.InvalidParams, ErrorCode.MethodNotFound, ErrorCode.InvalidRequest]);

function resultText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is { type: 'text'; text: string } => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

export async function dispatchMcp(request: DispatchRequest, endpoint: z.infer<typeof McpEndpoint>): Promise<DispatchOutcome> {
  const resourceName = request.resource ? resourceKey(request.resource) : request.taskId;
  const tool = endpoint.tool ?? resourceName;
  const headers: Record<string, string> = { 'Idempotency-Key': request.idempotencyKey };
  if (endpoint.token_env) headers.Authorization = `Bearer ${dispatchSecret(endpoint.token_env, 'token_env', resourceName)}`;
  const call = guardCall(request, { url: endpoint.url, protocol: 'MCP', headers });

  const input = request.input ?? {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new DispatchError(`MCP tool ${tool} at ${call.endpoint} takes a JSON object as its arguments; the task's input is ${Array.isArray(input) ? 'an array' : typeof input}`, false);
  }

  const options = { signal: call.signal, timeout: call.timeoutMs };
  let result;
  try {
    result = await withMcpSession(endpoint.url, headers.Authorization, call.fetch, options, (client) =>
      client.callTool({ name: tool, arguments: input as Record<string, unknown>, _meta: { [MCP_IDEMPOTENCY_META_KEY]: request.idempotencyKey } }, undefined, options),
    );
  } catch (error) {
    if (error instanceof McpError && !call.signal.aborted) {
      throw new DispatchError(`MCP tool ${tool} at ${call.endpoint} refused the call: ${error.message}`, !NOT_RETRYABLE_CODES.has(error.code));
    }
    if (error instanceof StreamableHTTPError && typeof error.code === 'number' && error.code >= 400) {
      throw statusFailure(`MCP server ${call.endpoint}`, error.code);
    }
    throw call.failure(error);
  }
  const text = resultText(result.content);
  if (result.isError) throw new DispatchError(`MCP tool ${tool} at ${call.endpoint} reported an error: ${text || '(no message)'}`, false);
  return { state: 'succeeded', output: result.structuredContent ?? jsonOrText(text) };
}
