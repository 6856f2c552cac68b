import { describe, expect, it } from 'vitest';
import { jsonBytesWithin, mockFromSchema, mockOutput } from './mock-output';

const LIMIT = 64 * 1024;
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

describe('mock outputs', () => {
  it('are shaped by the schema, using a const, enum or default that fits', () => {
    const schema = {
      type: 'object',
      properties: { id: { type: 'string' }, status: { enum: ['open', 'closed'] }, kind: { const: 'k' }, n: { type: 'integer', default: 7 }, rows: { type: 'array', items: { type: 'number' } } },
    };
    expect(mockFromSchema(schema, 'tool', LIMIT)).toEqual({
      value: { id: 'tool-id-1', status: 'open', kind: 'k', n: 7, rows: [1.5, 2.5, 3.5] },
      bytes: expect.any(Number),
      oversizedValues: 0,
      cut: false,
    });
  });

  it('make a const, enum value or default over the limit from the type instead, and count them', () => {
    const big = 'x'.repeat(9 * 1024 * 1024);
    const schema = { type: 'object', properties: { a: { type: 'string', const: big }, b: { type: 'string', enum: [big] }, c: { default: big }, d: { const: { text: 'y'.repeat(LIMIT) } } } };
    const mock = mockFromSchema(schema, 'tool', LIMIT);
    expect(mock.value).toEqual({ a: 'tool-a-1', b: 'tool-b-1', c: 'tool-c-1', d: 'tool-d-1' });
    expect(mock.oversizedValues).toBe(4);
    expect(mock.cut).toBe(false);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(mockFromSchema({ type: 'array', items: { type: 'string' }, const: deep }, 'tool', LIMIT)).toMatchObject({ value: ['tool-1', 'tool-2', 'tool-3'], oversizedValues: 1 });
  });

  it('stop at the limit when nested arrays multiply a schema, and say they were cut', () => {
    let schema: Record<string, unknown> = { type: 'object', properties: Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`field_${i}`, { type: 'string' }])) };
    for (let i = 0; i < 8; i++) schema = { type: 'array', items: schema }; // 3^8 objects of 1,000 strings unbounded
    const mock = mockFromSchema(schema, 'tool', LIMIT);
    expect(mock.cut).toBe(true);
    expect(jsonBytes(mock.value)).toBeLessThanOrEqual(LIMIT);
    expect(mock.bytes).toBeLessThanOrEqual(LIMIT);
  });

  it('keep names short and leave out a key longer than the limit', () => {
    const key = 'k'.repeat(1_000_000);
    const mock = mockFromSchema({ type: 'object', properties: { [key]: { type: 'string' }, ['n'.repeat(500)]: { type: 'string' } } }, 'tool', LIMIT);
    expect(mock.cut).toBe(true);
    expect(jsonBytes(mock.value)).toBeLessThan(1_000);
    const named = mockFromSchema({ type: 'object', properties: { ['n'.repeat(500)]: { type: 'string' } } }, 'tool', LIMIT).value as Record<string, string>;
    expect(named['n'.repeat(500)]).toBe(`tool-${'n'.repeat(115)}-1`);
    expect((mockOutput('task', 't'.repeat(10_000), undefined, LIMIT).value as { data: Array<{ id: string }> }).data[0].id).toBe(`${'t'.repeat(120)}-1`);
  });

  it('measure JSON without making it, and stop early', () => {
    for (const value of [{ a: [1, 'two', null, true, { b: 'é€😀', d: {} }], c: 2.5 }, [], {}, 'plain', 3, null, [[], [{}]]]) {
      expect(jsonBytesWithin(value, LIMIT)).toBe(jsonBytes(value));
    }
    expect(jsonBytesWithin('x'.repeat(9_000_000), LIMIT)).toBe(-1);
    expect(jsonBytesWithin(new Array(1_000_000).fill(0), LIMIT)).toBe(-1);
  });
});
