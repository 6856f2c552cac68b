import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unstorableJson, utf8Bytes } from './limits';

describe('utf8Bytes', () => {
  it('is the length TextEncoder writes, for any text, lone surrogates included', () => {
    const encoded = (text: string) => new TextEncoder().encode(text).length;
    for (const text of ['', 'ascii', 'é', '€', '😀', 'a\ud800', '\ud800', '\udc00x', '\ud800\ud800\udc00', '\uffff\u0800\u07ff\u0080\u007f']) expect(utf8Bytes(text)).toBe(encoded(text));
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => utf8Bytes(text) === encoded(text)), { numRuns: 2_000 });
  });
});

describe('unstorableJson', () => {
  it('finds a NUL or an unpaired surrogate in any key or string, however deep, and a nesting past the limit', () => {
    expect(unstorableJson({ a: ['fine', { 'ok 😀': 1 }] }, 10)).toBeNull();
    expect(unstorableJson({ a: ['x\u0000y'] }, 10)).toBe('text');
    expect(unstorableJson({ ['k\ud800']: 1 }, 10)).toBe('text');
    expect(unstorableJson({ a: 'lone low \udc00' }, 10)).toBe('text');
    expect(unstorableJson({ a: 'a literal backslash-u: \\u0000' }, 10)).toBeNull();
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = { job_goal: deep };
    expect(unstorableJson(deep, 80)).toBe('depth');
    expect(unstorableJson({ a: { b: { c: 1 } } }, 3)).toBeNull();
    expect(unstorableJson({ a: { b: { c: { d: 1 } } } }, 3)).toBe('depth');
  });
});
