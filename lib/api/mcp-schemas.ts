import { z } from 'zod';
import { ErrorResponse } from './schemas';

// The MCP endpoint (POST /api/mcp) as the route table describes it: JSON-RPC 2.0 messages in,
// answers as Server-Sent Events out. What the tools take and answer is MCP's own contract
// (tools/list), not this document's.

const JsonRpcId = z.union([z.string().max(200), z.number().int()]);

export const JsonRpcMessage = z
  .looseObject({
    jsonrpc: z.literal('2.0', { error: 'A JSON-RPC message has "jsonrpc": "2.0"' }),
    id: JsonRpcId.optional(),
    method: z.string().min(1).max(200).optional(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .describe('A JSON-RPC 2.0 request (with `id`), notification (without) or response');

export const McpRequest = z
  .union([JsonRpcMessage, z.array(JsonRpcMessage).min(1, 'A batch holds at least one message')])
  .describe('An MCP message over Streamable HTTP: `initialize`, `tools/list`, `tools/call`, … Send `Accept: application/json, text/event-stream`');

/** What the MCP transport answers when it refuses a message (the JSON-RPC error object). */
export const JsonRpcErrorResponse = z.object({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId.nullable(),
  error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
});

/** A refusal before MCP reads the message is Plangate's error; one from the MCP transport is JSON-RPC's. */
export const McpErrorResponse = z.union([ErrorResponse, JsonRpcErrorResponse]);
