import { afterEach, describe, expect, it, vi } from 'vitest';
import { DslResource, LlmResource, Registry, ToolResource } from '@/lib/registry';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { parseBody } from '../platform/http/read-json';
import { refusal } from '../platform/test-support';
import { deleteResource, getRegistry, putResource, replaceRegistry, seedDemoRegistry } from './registry-service';


describe.each(testDatabases())('registry service on $name', (database) => {
  const db = useTestDatabase(database);
  afterEach(() => vi.unstubAllEnvs());

  it('seeds the demo registry once, with seed 001 shipment tools', async () => {
    expect(await seedDemoRegistry(db())).toBe(true);
    expect(await seedDemoRegistry(db())).toBe(false);
    const registry = await getRegistry(db());
    expect(registry.tools.map((t) => t.id)).toEqual(expect.arrayContaining(['shipments_list', 'facilities_list', 'contaminants_list', 'inspections_list']));
    expect(registry.llms.map((l) => l.name)).toContain('gpt-4o-mini');
  });

  it('puts, replaces and deletes resources, refusing a key that is not the resource own', async () => {
    await putResource(db(), 'tools', 'http_get', ToolResource.parse({ id: 'http_get', description: 'GET a URL' }), 'tester');
    await putResource(db(), 'tools', 'http_get', ToolResource.parse({ id: 'http_get', description: 'GET any URL', default_latency_ms: 300 }), 'tester');
    expect((await getRegistry(db())).tools.find((t) => t.id === 'http_get')).toMatchObject({ description: 'GET any URL', default_latency_ms: 300 });
    const mismatch = await refusal(putResource(db(), 'tools', 'other', ToolResource.parse({ id: 'http_get' }), 'tester'));
    expect([mismatch.status, mismatch.message]).toEqual([400, 'The resource is "http_get" but the path names "other"']);
    // What the endpoint layer and the server action answer for a resource its kind's schema refuses.
    expect(() => parseBody(LlmResource, { name: 'x', context_size: -1 }, 'resource')).toThrow(/^Invalid resource: context_size/);
    await deleteResource(db(), 'tools', 'http_get', 'tester');
    expect((await refusal(deleteResource(db(), 'tools', 'http_get', 'tester'))).status).toBe(404);
  });

  it('imports a whole registry in one step, and refuses one that names a resource twice without changing anything', async () => {
    await replaceRegistry(db(), Registry.parse({ agents: [{ id: 'a' }], tools: [{ id: 't' }] }), 'tester');
    const duplicate = await refusal(replaceRegistry(db(), Registry.parse({ tools: [{ id: 'x' }, { id: 'x' }] }), 'tester'));
    expect(duplicate.message).toBe('The registry names a resource twice: tools: x');
    const registry = await getRegistry(db());
    expect([registry.agents.map((a) => a.id), registry.tools.map((t) => t.id)]).toEqual([['a'], ['t']]);
  });

  it('refuses to store an endpoint naming a variable the operator did not list, or one of its own secrets, naming the field and the rule', async () => {
    vi.stubEnv('PLANGATE_DISPATCH_SECRETS', 'SEARCH_TOKEN,PLANGATE_AUDIT_KEY');
    const hooked = (secret_env: string) => DslResource.parse({ id: 'publish', endpoint: { protocol: 'webhook', url: 'https://hooks.example/run', secret_env } });

    const own = await refusal(putResource(db(), 'dsl_workflows', 'publish', hooked('PLANGATE_AUDIT_KEY'), 'mallory'));
    expect([own.status, own.message]).toEqual([
      400,
      `endpoint.secret_env of dsl_workflows "publish": PLANGATE_AUDIT_KEY is one of Plangate's own secrets (PLANGATE_*, BETTER_AUTH_*, DATABASE_URL, LLM_API_KEY, BEHAVIOR_CONTROLLER_*), which no endpoint may use`,
    ]);
    const unlisted = await refusal(putResource(db(), 'dsl_workflows', 'publish', hooked('PORT'), 'mallory'));
    expect(unlisted.message).toBe(`endpoint.secret_env of dsl_workflows "publish": PORT is not in PLANGATE_DISPATCH_SECRETS, the operator's list of variables endpoints may use`);
    expect(unlisted.details).toEqual([{ path: 'dsl_workflows.endpoint.secret_env', message: expect.stringContaining('PORT is not in PLANGATE_DISPATCH_SECRETS') }]);
    expect((await getRegistry(db())).dsl_workflows.find((w) => w.id === 'publish')).toBeUndefined();

    const search = ToolResource.parse({ id: 'search', endpoint: { protocol: 'mcp', url: 'https://mcp.example/mcp', token_env: 'SEARCH_TOKEN' } });
    await putResource(db(), 'tools', 'search', search, 'tester');
    expect((await getRegistry(db())).tools.find((t) => t.id === 'search')?.endpoint).toMatchObject({ token_env: 'SEARCH_TOKEN' });
    await deleteResource(db(), 'tools', 'search', 'tester');
  });

  it('refuses an import naming an unlisted or reserved variable, changing nothing', async () => {
    vi.stubEnv('PLANGATE_DISPATCH_SECRETS', 'SEARCH_TOKEN');
    await replaceRegistry(db(), Registry.parse({ tools: [{ id: 'kept' }] }), 'tester');
    const imported = Registry.parse({
      tools: [{ id: 'search', endpoint: { protocol: 'mcp', url: 'https://mcp.example/mcp', token_env: 'SEARCH_TOKEN' } }],
      llms: [{ name: 'exfil', endpoint: { protocol: 'openai', url: 'https://llm.example/v1', api_key_env: 'BETTER_AUTH_SECRET' } }],
      agents: [{ id: 'spy', endpoint: { protocol: 'a2a', url: 'https://agent.example/', token_env: 'HOME' } }],
    });
    const refused = await refusal(replaceRegistry(db(), imported, 'mallory'));
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(/^endpoint\.token_env of agents "spy": HOME is not in PLANGATE_DISPATCH_SECRETS.* \(and 1 more\)$/);
    expect(refused.details).toEqual([
      { path: 'agents[0].endpoint.token_env', message: expect.stringContaining('HOME is not in PLANGATE_DISPATCH_SECRETS') },
      { path: 'llms[0].endpoint.api_key_env', message: expect.stringContaining("BETTER_AUTH_SECRET is one of Plangate's own secrets") },
    ]);
    expect((await getRegistry(db())).tools.map((t) => t.id)).toEqual(['kept']);
  });
});
