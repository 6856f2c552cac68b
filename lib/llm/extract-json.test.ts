import { describe, expect, it } from 'vitest';
import { extractJson } from './extract-json';

describe('extractJson', () => {
  it('accepts bare JSON, with surrounding whitespace', () => {
    expect(extractJson('  {"a": 1}\n')).toEqual({ a: 1 });
    expect(extractJson('[1, 2]')).toEqual([1, 2]);
  });

  it('accepts a ```json fenced block with prose around it', () => {
    expect(extractJson('Here is the plan:\n```json\n{"tasks": []}\n```\nLet me know.')).toEqual({ tasks: [] });
  });

  it('accepts a bare ``` fenced block', () => {
    expect(extractJson('```\n{"a": true}\n```')).toEqual({ a: true });
  });

  it('takes the first fenced block that parses', () => {
    const text = 'Schema:\n```\nnot json\n```\nAnswer:\n```json\n{"n": 2}\n```\n```json\n{"n": 3}\n```';
    expect(extractJson(text)).toEqual({ n: 2 });
  });

  it('accepts a fence that was never closed', () => {
    expect(extractJson('```json\n{"a": 1}\n')).toEqual({ a: 1 });
  });

  it('trims prose around a bare object', () => {
    expect(extractJson('Sure! {"tasks": [{"task_id": "t1"}]} Hope that helps.')).toEqual({ tasks: [{ task_id: 't1' }] });
  });

  it('drops a <think> block before the answer', () => {
    expect(extractJson('<think>maybe {"x": 1}?</think>\n{"x": 2}')).toEqual({ x: 2 });
  });

  it('says clearly when the answer is not JSON', () => {
    expect(() => extractJson('I cannot help with that.')).toThrow(
      /^The answer is not JSON: it contains no JSON object or array\. The answer begins: "I cannot help with that\."/,
    );
    expect(() => extractJson('   ')).toThrow('The answer is not JSON: it is empty.');
    expect(() => extractJson('Plan: {"tasks": [,]}')).toThrow(/^The answer is not JSON: .*JSON/);
    expect(() => extractJson('```json\n{"tasks": [\n```')).toThrow(/^The answer is not JSON: its fenced code block does not parse/);
  });
});
