import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findVariableReferences,
  isStatePathPrefix,
  parseOutputPath,
  parseStatePath,
  splitOutputPath,
  statePathsOverlap,
  stripStatePrefix,
} from './state-paths';

const name = fc.stringMatching(/^[\w$-]{1,8}$/);
const segment = fc.oneof(
  name.map((n) => ({ text: `.${n}`, value: n })),
  fc.nat(999).map((n) => ({ text: `[${n}]`, value: String(n) })),
);
const statePath = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => ({
  text: `†state${parts.map((p) => p.text).join('')}`,
  segments: parts.map((p) => p.value),
}));

describe('Variable References', () => {
  it('finds the seed 002 references in arguments, embedded or whole', () => {
    const found = findVariableReferences('Pay †input.amount to †state.customers[2].id, then †state');
    expect(found.map(({ root, path, segments, index }) => ({ root, path, segments, index }))).toEqual([
      { root: 'input', path: '.amount', segments: ['amount'], index: 4 },
      { root: 'state', path: '.customers[2].id', segments: ['customers', '2', 'id'], index: 21 },
      { root: 'state', path: '', segments: [], index: 50 },
    ]);
  });

  it('reads the names plans write for step templates too: hyphens, digits and $', () => {
    expect(findVariableReferences('†state.step-1.$ref and †state.0').map((r) => r.segments)).toEqual([['step-1', '$ref'], ['0']]);
  });

  it('ends a reference at the first character that is not part of a segment, or at a step template', () => {
    expect(findVariableReferences('"†state.receipt." or (†state.a.b)').map((r) => r.text)).toEqual(['†state.receipt', '†state.a.b']);
    expect(findVariableReferences('†state.a${step[0].x}').map((r) => r.text)).toEqual(['†state.a']);
  });

  it('finds nothing in text without a dagger', () => {
    expect(findVariableReferences('state.x and ${step[0].x}')).toEqual([]);
  });

  it('parses a whole-string state path, trimmed, and nothing else', () => {
    expect(parseStatePath('  †state.profile.name ')).toMatchObject({ root: 'state', path: '.profile.name', segments: ['profile', 'name'] });
    for (const text of ['†state', '†input.x', 'see †state.x', '†state.x!', 'state.x']) expect(parseStatePath(text)).toBeNull();
  });

  it('splits an _outputPath into the paths it may write', () => {
    expect(splitOutputPath('†state.receipt || †state.error')).toEqual(['†state.receipt', '†state.error']);
    expect(parseOutputPath('†state.receipt || †state.error')?.map((p) => p.path)).toEqual(['.receipt', '.error']);
    expect(parseOutputPath('†state.receipt || error')).toBeNull();
  });

  it('strips the †state. prefix and leaves other text as it is', () => {
    expect(stripStatePrefix(' †state.a.b ')).toBe('a.b');
    expect(stripStatePrefix('result')).toBe('result');
  });

  it('relates a path to its ancestors and descendants, not to siblings sharing a prefix of letters', () => {
    expect(isStatePathPrefix(['a'], ['a', 'b'])).toBe(true);
    expect(isStatePathPrefix(['a', 'b'], ['a'])).toBe(false);
    expect(statePathsOverlap(['a', 'b'], ['a'])).toBe(true);
    expect(statePathsOverlap(['a'], ['a', 'b'])).toBe(true);
    expect(statePathsOverlap(['receipt'], ['receipt2'])).toBe(false);
    expect(statePathsOverlap(['a', 'b'], ['a', 'c'])).toBe(false);
  });

  it('finds exactly the path it parses, wherever the path is embedded', () => {
    fc.assert(
      fc.property(statePath, fc.constantFrom('', 'x ', '"', '('), fc.constantFrom('', ' y', '"', ')', '.'), (path, before, after) => {
        const parsed = parseStatePath(path.text);
        expect(parsed?.segments).toEqual(path.segments);
        const found = findVariableReferences(`${before}${path.text}${after}`);
        expect(found).toHaveLength(1);
        expect(found[0]).toMatchObject({ text: path.text, index: before.length, path: parsed?.path, segments: path.segments });
      }),
    );
  });

  it('treats every prefix of a path as overlapping it, and a path as overlapping itself', () => {
    fc.assert(
      fc.property(statePath, fc.nat(5), (path, cut) => {
        const prefix = path.segments.slice(0, Math.min(cut, path.segments.length));
        expect(isStatePathPrefix(prefix, path.segments)).toBe(true);
        expect(statePathsOverlap(path.segments, prefix)).toBe(true);
        expect(statePathsOverlap(path.segments, path.segments)).toBe(true);
      }),
    );
  });

  it('parses an _outputPath of any generated paths joined by || into those paths', () => {
    fc.assert(
      fc.property(fc.array(statePath, { minLength: 1, maxLength: 4 }), (paths) => {
        const parsed = parseOutputPath(paths.map((p) => p.text).join(' || '));
        expect(parsed?.map((p) => p.segments)).toEqual(paths.map((p) => p.segments));
      }),
    );
  });
});
