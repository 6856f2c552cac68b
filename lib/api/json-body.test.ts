import { describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH, parseJsonBody } from './json-body';

// The fuzz inputs of issue 29 as request bodies' text: each is a 400 naming the problem
// (the route layer and the compute workers both parse bodies with parseJsonBody), never a
// value that reaches the database and fails there as a 500.

const text = { code: 'bad_request', message: 'The request body contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored' };

describe('parseJsonBody', () => {
  it('refuses a NUL or a lone surrogate, escaped or raw, in a registry entry or replan instructions, in keys and values', () => {
    const bodies = [
      '{"id":"t","description":"a\\u0000b"}',
      '{"id":"t","input_schema":{"properties":{"k\\u0000":{}}}}',
      '{"id":"t","description":"a\\ud800"}',
      '{"id":"t","description":"\\udc00b"}',
      '{"task_ids":["a"],"instructions":"x\\udbff"}',
      `{"task_ids":["a"],"instructions":"raw ${'\ud800'}"}`,
    ];
    for (const body of bodies) expect(parseJsonBody(body, 'request body')).toEqual({ ok: false, problem: text });
    // A raw NUL is not JSON at all.
    expect(parseJsonBody(`{"instructions":"raw ${'\u0000'}"}`, 'request body')).toMatchObject({ ok: false, problem: { code: 'invalid_json' } });
    // A surrogate pair is a character like any other.
    expect(parseJsonBody('{"description":"\\ud83d\\ude00"}', 'request body')).toEqual({ ok: true, value: { description: '😀' } });
  });

  it('refuses a 100,000-deep job_goal as nested too deep, without overflowing the stack', () => {
    const deep = `{"title":"deep","plan":{"planned_tasks":[]},"job":{"job_goal":${'{"x":'.repeat(100_000)}1${'}'.repeat(100_000)}}}`;
    expect(parseJsonBody(deep, 'request body')).toEqual({ ok: false, problem: { code: 'bad_request', message: `The request body nests deeper than ${MAX_BODY_DEPTH} levels` } });
  });
});
