import { describe, expect, it } from 'vitest';
import { Registry, RESOURCE_SCHEMAS, ResourceEndpoint, STORED_RESOURCE_SCHEMAS } from './index';

function problems(result: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) {
  return result.success ? [] : result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('resource endpoints', () => {
  it('accepts one endpoint of each protocol with its own fields', () => {
    const registry = Registry.parse({
      tools: [{ id: 'search', endpoint: { protocol: 'mcp', url: 'http://127.0.0.1:3001/mcp', tool: 'web_search', token_env: 'SEARCH_TOKEN' } }],
      functions: [{ id: 'notify', endpoint: { protocol: 'webhook', url: 'https://hooks.example.com/notify', secret_env: 'NOTIFY_SECRET' } }],
      agents: [{ id: 'writer', endpoint: { protocol: 'a2a', url: 'https://agents.example.com/writer' } }],
      llms: [{ name: 'gpt-4o', endpoint: { protocol: 'openai', model: 'gpt-4o-mini', api_key_env: 'OPENAI_API_KEY' } }],
      dsl_workflows: [{ id: 'etl', endpoint: { protocol: 'mcp', url: 'http://127.0.0.1:3002/mcp' } }],
    });
    expect(registry.tools[0].endpoint).toEqual({ protocol: 'mcp', url: 'http://127.0.0.1:3001/mcp', tool: 'web_search', token_env: 'SEARCH_TOKEN' });
    expect(registry.llms[0].endpoint?.protocol).toBe('openai');
    expect(registry.agents[0].endpoint).toEqual({ protocol: 'a2a', url: 'https://agents.example.com/writer' });
  });

  it('keeps a resource without an endpoint valid', () => {
    expect(RESOURCE_SCHEMAS.tools.parse({ id: 'plain' }).endpoint).toBeUndefined();
  });

  it('refuses a protocol the kind of resource does not speak, naming the ones it does', () => {
    const agentOverMcp = RESOURCE_SCHEMAS.agents.safeParse({ id: 'a', endpoint: { protocol: 'mcp', url: 'http://127.0.0.1/mcp' } });
    expect(problems(agentOverMcp)).toEqual(['endpoint.protocol: agents are reached through a2a or webhook, not mcp']);
    const llmOverWebhook = RESOURCE_SCHEMAS.llms.safeParse({ name: 'm', endpoint: { protocol: 'webhook', url: 'http://x/', secret_env: 'S' } });
    expect(problems(llmOverWebhook)).toEqual(['endpoint.protocol: llms are reached through openai, not webhook']);
    const toolOverA2a = STORED_RESOURCE_SCHEMAS.functions.safeParse({ id: 'f', endpoint: { protocol: 'a2a', url: 'http://x/' } });
    expect(problems(toolOverA2a)).toEqual(['endpoint.protocol: tools are reached through mcp or webhook, not a2a']);
  });

  it('takes credentials only as environment variable names, never as values', () => {
    const secretValue = ResourceEndpoint.safeParse({ protocol: 'webhook', url: 'http://x/', secret_env: 'sk-live-1234abcd' });
    expect(problems(secretValue)[0]).toMatch(/^secret_env: The name of an environment variable/);
    expect(ResourceEndpoint.safeParse({ protocol: 'mcp', url: 'http://x/', token_env: '1TOKEN' }).success).toBe(false);
    expect(ResourceEndpoint.safeParse({ protocol: 'mcp', url: 'http://x/', token: 'abc' }).success).toBe(false);
    expect(ResourceEndpoint.safeParse({ protocol: 'webhook', url: 'http://x/' }).success).toBe(false);
  });

  it('accepts only http(s) URLs', () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'ftp://host/x', 'not a url', '']) {
      expect(problems(ResourceEndpoint.safeParse({ protocol: 'a2a', url }))).toEqual(['url: An http(s) URL']);
    }
  });

  it('refuses an unknown protocol', () => {
    expect(ResourceEndpoint.safeParse({ protocol: 'grpc', url: 'http://x/' }).success).toBe(false);
  });
});
