import { describe, expect, it } from 'vitest';
import { unstorableJson } from './limits';

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
