import { describe, expect, it } from 'vitest';
import { LlmResource, Registry, ToolResource } from '@/lib/registry';
import { testDatabases, useTestDatabase } from '../db/test-databases';
import { parseBody } from '../http/read-json';
import { refusal } from '../test-support';
import { deleteResource, getRegistry, putResource, replaceRegistry, seedDemoRegistry } from './registry-service';


describe.each(testDatabases())('registry service on $name', (database) => {
  const db = useTestDatabase(database);

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
});
