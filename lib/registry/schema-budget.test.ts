import { describe, expect, it } from 'vitest';
import { AgentResource, DslResource, RESOURCE_SCHEMAS, Registry, STORED_RESOURCE_SCHEMAS, ToolResource } from './schema';
import { DEMO_REGISTRY } from './demo-registry';
import { SCHEMA_LIMITS, schemaComplexityProblem } from './schema-budget';
import { MAX_CHECK_MESSAGE_CHARS, schemaChecker } from './schema-checker';

const nested = (depth: number): Record<string, unknown> => {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
};
const enumOf = (n: number) => ({ type: 'string', enum: Array.from({ length: n }, (_, i) => `value-${i}`) });
const anyOf = (n: number) => ({ anyOf: Array.from({ length: n }, (_, i) => ({ type: 'object', properties: { [`k${i}`]: { const: i } }, required: [`k${i}`] })) });
const tool = (input_schema: Record<string, unknown>) => ({ id: 'big', description: '', input_schema: { type: 'object', properties: { p: input_schema } } });

describe('schemaComplexityProblem', () => {
  it('accepts ordinary schemas and ones exactly at each limit', () => {
    expect(schemaComplexityProblem({ type: 'object', properties: { a: { type: 'string' } } })).toBeNull();
    expect(schemaComplexityProblem(enumOf(SCHEMA_LIMITS.maxEnumValues))).toBeNull();
    expect(schemaComplexityProblem({ anyOf: Array.from({ length: SCHEMA_LIMITS.maxBranches }, () => ({ type: 'string' })) })).toBeNull();
    expect(schemaComplexityProblem(nested(15))).toBeNull(); // 31 levels of objects
  });

  it('refuses an enum over the limit, naming the limit and the path', () => {
    const problem = schemaComplexityProblem({ type: 'object', properties: { status: enumOf(5_000) } }, ['input_schema']);
    expect(problem).toMatchObject({ limit: 'maxEnumValues', path: ['input_schema', 'properties', 'status', 'enum'] });
    expect(problem!.message).toBe('An enum has 5,000 values; the limit is 1,000 (at input_schema.properties.status.enum)');
  });

  it('refuses more anyOf/oneOf/allOf branches than the limit, added up over the schema', () => {
    expect(schemaComplexityProblem(anyOf(2_000))).toMatchObject({ limit: 'maxBranches', path: ['anyOf'] });
    const split = { properties: { a: { oneOf: Array.from({ length: 200 }, () => ({})) }, b: { allOf: Array.from({ length: 57 }, () => ({})) } } };
    const problem = schemaComplexityProblem(split);
    expect(problem).toMatchObject({ limit: 'maxBranches', path: ['properties', 'b', 'allOf'] });
    expect(problem!.message).toMatch(/257 anyOf\/oneOf\/allOf branches .*the limit is 256 in all \(at properties\.b\.allOf\)/);
  });

  it('refuses a schema nested deeper than the limit, without recursion even at 100,000 levels', () => {
    const problem = schemaComplexityProblem(nested(1_000));
    expect(problem?.limit).toBe('maxDepth');
    expect(problem!.message).toMatch(/^The schema is nested more than 32 levels deep; the limit is 32 \(at properties\.a\.properties\.a/);
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(schemaComplexityProblem(deep)?.limit).toBe('maxDepth');
  });

  it('refuses more nodes than the limit, even in one big array', () => {
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 6_000 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    expect(schemaComplexityProblem(wide)).toMatchObject({ limit: 'maxNodes' });
    expect(schemaComplexityProblem({ examples: new Array(1_000_000).fill(1) })).toMatchObject({ limit: 'maxNodes', path: ['examples'] });
  });
});

describe('string and size limits', () => {
  const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
  // A schema whose JSON is exactly `total` bytes, with escapes, 2-, 3- and 4-byte characters and a lone surrogate.
  const schemaOfBytes = (total: number) => {
    const mixed = `é"\\\n\u0001€😀\ud800${'ab'.repeat(4_000)}`;
    const schema = { description: '', examples: Array.from({ length: 32 }, () => mixed) };
    schema.description = 'a'.repeat(total - jsonBytes(schema));
    return schema;
  };

  it('accepts strings of 10,000 characters and a schema of exactly 256 kB of JSON', () => {
    const s = 'x'.repeat(SCHEMA_LIMITS.maxStringChars);
    expect(schemaComplexityProblem({ const: s, default: s, enum: [s], examples: [s], description: s, properties: { [s]: { type: 'string' } } })).toBeNull();
    const exact = schemaOfBytes(SCHEMA_LIMITS.maxSchemaBytes);
    expect(jsonBytes(exact)).toBe(256 * 1024);
    expect(schemaComplexityProblem(exact)).toBeNull();
  });

  it('refuses a string over 10,000 characters, naming the limit and the path', () => {
    const problem = schemaComplexityProblem({ type: 'object', properties: { id: { const: 'x'.repeat(9_000_000) } } }, ['output_schema']);
    expect(problem).toMatchObject({ limit: 'maxStringChars', path: ['output_schema', 'properties', 'id', 'const'] });
    expect(problem!.message).toBe('A string has 9,000,000 characters; the limit is 10,000 (at output_schema.properties.id.const)');
    expect(schemaComplexityProblem({ enum: ['a', 'b', 'x'.repeat(10_001)] })).toMatchObject({ limit: 'maxStringChars', path: ['enum', 2] });
    expect(schemaComplexityProblem({ default: 'x'.repeat(10_001) })).toMatchObject({ limit: 'maxStringChars', path: ['default'] });
    expect(schemaComplexityProblem({ examples: [{ a: 'x'.repeat(10_001) }] })).toMatchObject({ limit: 'maxStringChars', path: ['examples', 0, 'a'] });
    expect(schemaComplexityProblem({ properties: { a: { description: 'x'.repeat(10_001) } } })!.message).toBe(
      'A string has 10,001 characters; the limit is 10,000 (at properties.a.description)',
    );
  });

  it('refuses a key over 10,000 characters at the object holding it, and shortens long keys in messages', () => {
    const key = 'k'.repeat(20_000);
    const problem = schemaComplexityProblem({ properties: { [key]: { type: 'string' } } });
    expect(problem).toMatchObject({ limit: 'maxStringChars', path: ['properties'] });
    expect(problem!.message).toBe('A key has 20,000 characters; the limit is 10,000 (at properties)');
    const long = 'k'.repeat(5_000);
    const deeper = schemaComplexityProblem({ properties: { [long]: { const: 'x'.repeat(10_001) } } });
    expect(deeper!.path).toEqual(['properties', long, 'const']);
    expect(deeper!.message).toBe(`A string has 10,001 characters; the limit is 10,000 (at properties.${'k'.repeat(100)}….const)`);
  });

  it('refuses a schema over 256 kB of JSON, at the value that passes the limit', () => {
    const over = schemaOfBytes(SCHEMA_LIMITS.maxSchemaBytes + 1);
    const problem = schemaComplexityProblem(over);
    expect(problem).toMatchObject({ limit: 'maxSchemaBytes' });
    expect(problem!.reason).toBe('The schema is over 256 kB of JSON once this is counted; the limit is 256 kB');
    // 40 descriptions of 8,000 characters: each within the string limit, 320 kB in all.
    const many = { type: 'object', properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, { type: 'string', description: 'd'.repeat(8_000) }])) };
    const problem2 = schemaComplexityProblem(many, ['input_schema']);
    expect(problem2).toMatchObject({ limit: 'maxSchemaBytes', path: ['input_schema', 'properties', 'p32', 'description'] });
    expect(problem2!.message).toBe('The schema is over 256 kB of JSON once this is counted; the limit is 256 kB (at input_schema.properties.p32.description)');
  });
});

describe('registry writes', () => {
  it('refuse a 9 MB const and a schema over 256 kB with the limit and the path', () => {
    const result = ToolResource.safeParse({ id: 't', output_schema: { type: 'object', properties: { x: { const: 'x'.repeat(9 * 1024 * 1024) } } } });
    expect(result.error!.issues[0]).toMatchObject({ path: ['output_schema', 'properties', 'x', 'const'], message: 'A string has 9,437,184 characters; the limit is 10,000' });
    const big = { type: 'object', properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, { type: 'string', description: 'd'.repeat(8_000) }])) };
    expect(ToolResource.safeParse(tool(big)).error!.issues[0]).toMatchObject({ path: ['input_schema', 'properties', 'p', 'properties', 'p32', 'description'] });
    expect(STORED_RESOURCE_SCHEMAS.tools.safeParse({ id: 't', output_schema: { const: 'x'.repeat(100_000) } }).success).toBe(true);
    expect(schemaChecker({ const: 'x'.repeat(100_000) })).toBeNull();
  });

  it('accept every schema of the demo registry', () => {
    for (const kind of ['agents', 'tools', 'functions', 'dsl'] as const) {
      for (const resource of (DEMO_REGISTRY as Record<string, Array<Record<string, unknown>>>)[kind] ?? []) {
        for (const field of ['input_schema', 'output_schema']) if (resource[field]) expect(schemaComplexityProblem(resource[field], [field])).toBeNull();
      }
    }
  });

  it('refuse an over-budget input or output schema with the limit and its path', () => {
    const result = ToolResource.safeParse(tool(enumOf(5_000)));
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]).toMatchObject({ path: ['input_schema', 'properties', 'p', 'enum'], message: 'An enum has 5,000 values; the limit is 1,000' });
    const output = RESOURCE_SCHEMAS.functions.safeParse({ id: 'f', output_schema: anyOf(300) });
    expect(output.error!.issues[0].path).toEqual(['output_schema', 'anyOf']);
    expect(AgentResource.safeParse({ id: 'a', input_schema: nested(40) }).success).toBe(false);
    expect(DslResource.safeParse({ id: 'd', input_schema: nested(40) }).success).toBe(false);
    const deep = ToolResource.safeParse({ id: 'deep', input_schema: nested(1_000) });
    expect(deep.error!.issues[0].message).toBe('The schema is nested more than 32 levels deep; the limit is 32');
    expect(deep.error!.issues[0].path.slice(0, 3)).toEqual(['input_schema', 'properties', 'a']);
    const whole = Registry.safeParse({ tools: [tool(enumOf(10))], functions: [tool(enumOf(2_000))] });
    expect(whole.error!.issues[0].path).toEqual(['functions', 0, 'input_schema', 'properties', 'p', 'enum']);
  });

  it('accept the biggest allowed schema, and stored rows over the budget still read', () => {
    expect(ToolResource.safeParse(tool(enumOf(1_000))).success).toBe(true);
    expect(STORED_RESOURCE_SCHEMAS.tools.safeParse(tool(enumOf(5_000))).success).toBe(true);
    expect(STORED_RESOURCE_SCHEMAS.agents.safeParse({ id: 'a', input_schema: nested(1_000) }).success).toBe(true);
  });
});

describe('schemaChecker', () => {
  it('skips a schema over the budget (as one zod cannot read) rather than run it', () => {
    expect(schemaChecker(enumOf(5_000))).toBeNull();
    expect(schemaChecker(anyOf(2_000))).toBeNull();
    expect(schemaChecker(nested(1_000))).toBeNull();
  });

  it('clips the message of a big enum', () => {
    const result = schemaChecker(enumOf(1_000))!.safeParse('nope');
    expect(result.success).toBe(false);
    expect(result.error!.issues[0].message.length).toBeLessThanOrEqual(MAX_CHECK_MESSAGE_CHARS + 1);
    expect(result.error!.issues[0].message).toMatch(/^Invalid option: expected one of "value-0"\|"value-1"\|.*"value-9"\|… \(1,000 values\)$/);
    expect(schemaChecker(enumOf(3))!.safeParse('nope').error!.issues[0].message).toBe('Invalid option: expected one of "value-0"|"value-1"|"value-2"');
    expect(schemaChecker(enumOf(3))!.safeParse('value-1').success).toBe(true);
  });
});
