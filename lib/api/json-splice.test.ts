import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyAround } from './json-splice';

describe('stringifyAround', () => {
  it('writes the document JSON.stringify would write with the raw part in place of the mark', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue()), (part, rest) => {
        const raw = JSON.stringify(part);
        const text = stringifyAround((mark) => ({ ...rest, nested: { part: mark } }), raw);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify({ ...rest, nested: { part } })));
      }),
    );
  });

  it('refuses a document that does not hold the mark', () => {
    expect(() => stringifyAround(() => ({ a: 1 }), '[]')).toThrow('does not hold the mark');
  });
});
