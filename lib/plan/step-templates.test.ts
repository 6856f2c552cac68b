import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findStepTemplates, parseStepTemplate, renumberStepTemplates, rewriteStepNumbers, stepTemplateNumbers } from './step-templates';

describe('step templates', () => {
  it('finds the seed 001 templates with their step and path', () => {
    expect(findStepTemplates('ids ${step[0].data.*.id} near ${ step[12].data[0].facility.name}')).toEqual([
      { text: '${step[0].data.*.id}', index: 4, step: 0, path: '.data.*.id' },
      { text: '${ step[12].data[0].facility.name}', index: 30, step: 12, path: '.data[0].facility.name' },
    ]);
  });

  it('parses a string that is one template and nothing else', () => {
    expect(parseStepTemplate('${step[3]}')).toEqual({ text: '${step[3]}', index: 0, step: 3, path: '' });
    expect(parseStepTemplate('a ${step[3]}')).toBeNull();
    expect(parseStepTemplate('${step[x]}')).toBeNull();
  });

  it('gives the importer every opening, with no number for a malformed one', () => {
    expect(stepTemplateNumbers('${step[1].a} ${step[x]} ${step[2]')).toEqual([1, undefined, 2]);
    expect(stepTemplateNumbers('no templates')).toEqual([]);
  });

  it('rewrites template numbers and keeps the rest as written', () => {
    const renumber = (n: number) => (n === 0 ? 4 : undefined);
    expect(rewriteStepNumbers('${ step[0].a} ${step[1]} ${step[x]} ${step[0]', renumber)).toBe('${ step[4].a} ${step[1]} ${step[x]} ${step[4]');
  });

  it('returns untouched parts of a value as the same objects', () => {
    const value = { a: { b: '${step[1].x}' }, c: ['${step[0].y}'] };
    const renumbered = renumberStepTemplates(value, (n) => (n === 0 ? 2 : undefined));
    expect(renumbered).toEqual({ a: { b: '${step[1].x}' }, c: ['${step[2].y}'] });
    expect(renumbered.a).toBe(value.a);
  });

  it('agrees between finding and parsing, and renumbers what it finds', () => {
    const path = fc.stringMatching(/^(\.[\w$-]{1,5}|\[\d{1,2}\]|\.\*){0,4}$/);
    fc.assert(
      fc.property(fc.nat(99), path, fc.constantFrom('', 'x ', '"'), fc.nat(99), (step, tail, before, next) => {
        const text = `\${step[${step}]${tail}}`;
        expect(parseStepTemplate(text)).toEqual({ text, index: 0, step, path: tail });
        expect(findStepTemplates(`${before}${text} and more`)).toEqual([{ text, index: before.length, step, path: tail }]);
        expect(stepTemplateNumbers(`${before}${text}`)).toEqual([step]);
        expect(findStepTemplates(rewriteStepNumbers(text, () => next))[0]).toMatchObject({ step: next, path: tail });
      }),
    );
  });
});
