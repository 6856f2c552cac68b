import { z } from 'zod';

// Where a run reaches a resource, and through which protocol. Credentials are named, never
// stored: a field ending in `_env` holds the NAME of an environment variable the server reads
// at call time, so exporting the registry, approving a snapshot or logging it leaks no secret.

const EnvVarName = z
  .string()
  .max(200, 'Environment variable names are at most 200 characters')
  .regex(/^[A-Z_][A-Z0-9_]*$/, 'The name of an environment variable (A-Z, 0-9 and _, not starting with a digit), never the secret itself');

const HttpUrl = z
  .string()
  .max(2000, 'URLs are at most 2000 characters')
  .refine((text) => {
    try {
      const { protocol } = new URL(text);
      return protocol === 'http:' || protocol === 'https:';
    } catch {
      return false;
    }
  }, 'An http(s) URL');

export const McpEndpoint = z.strictObject({
  protocol: z.literal('mcp'),
  /** The server's Streamable HTTP endpoint, e.g. http://127.0.0.1:3001/mcp. */
  url: HttpUrl,
  /** The MCP tool to call; the resource's id when absent. */
  tool: z.string().min(1).max(200).optional(),
  /** Sent as `Authorization: Bearer <value>`. */
  token_env: EnvVarName.optional(),
});

export const A2aEndpoint = z.strictObject({
  protocol: z.literal('a2a'),
  /** The agent's base URL; its card is at /.well-known/agent-card.json under it. */
  url: HttpUrl,
  token_env: EnvVarName.optional(),
});

export const WebhookEndpoint = z.strictObject({
  protocol: z.literal('webhook'),
  url: HttpUrl,
  /** The HMAC-SHA256 key every request is signed with (see X-Plangate-Signature). */
  secret_env: EnvVarName,
});

export const OpenAiEndpoint = z.strictObject({
  protocol: z.literal('openai'),
  /** An OpenAI-compatible base URL (…/v1); the configured LLM_BASE_URL when absent. */
  url: HttpUrl.optional(),
  api_key_env: EnvVarName.optional(),
  model: z.string().min(1).max(200).optional(),
});

export const ResourceEndpoint = z.discriminatedUnion('protocol', [McpEndpoint, A2aEndpoint, WebhookEndpoint, OpenAiEndpoint]);
export type ResourceEndpoint = z.infer<typeof ResourceEndpoint>;
export type EndpointProtocol = ResourceEndpoint['protocol'];

/** Which protocols reach which kind of resource (keys are the registry's resource kinds). */
export const ENDPOINT_PROTOCOLS = {
  agents: ['a2a', 'webhook'],
  tools: ['mcp', 'webhook'],
  functions: ['mcp', 'webhook'],
  llms: ['openai'],
  dsl_workflows: ['webhook', 'mcp'],
} as const satisfies Record<string, readonly EndpointProtocol[]>;

/** The endpoint schema for one kind of resource: a protocol the kind does not speak is refused by name. */
export function endpointFor(kind: keyof typeof ENDPOINT_PROTOCOLS) {
  const allowed: readonly EndpointProtocol[] = ENDPOINT_PROTOCOLS[kind];
  return ResourceEndpoint.superRefine((endpoint, ctx) => {
    if (!allowed.includes(endpoint.protocol)) {
      ctx.addIssue({
        code: 'custom',
        path: ['protocol'],
        message: `${kind} are reached through ${allowed.join(' or ')}, not ${endpoint.protocol}`,
        input: endpoint.protocol,
      });
    }
  });
}
