import { PLAN_LIMITS, unstorableJson } from '@/lib/plan';

// How a JSON request body's text becomes a value, or the 400 that says why it cannot: one
// definition for the route layer (lib/server/platform/http/read-json.ts) and for the compute workers
// that parse a whole plan's body off the server's event loop (lib/compute/jobs.ts).

/** Free-form JSON inside a plan nests at most maxJsonDepth levels; the request around it adds a few. */
export const MAX_BODY_DEPTH = PLAN_LIMITS.maxJsonDepth + 16;

export interface BodyProblem {
  code: 'invalid_json' | 'bad_request';
  message: string;
}

/** What no database row can hold (NUL, an unpaired surrogate) or nesting deeper than any plan needs; null when fine. */
export function unstorableBodyProblem(value: unknown, what: string): BodyProblem | null {
  const problem = unstorableJson(value, MAX_BODY_DEPTH);
  if (problem === 'depth') return { code: 'bad_request', message: `The ${what} nests deeper than ${MAX_BODY_DEPTH} levels` };
  if (problem === 'text') return { code: 'bad_request', message: `The ${what} contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored` };
  return null;
}

/** The body's text as JSON, checked as unstorableBodyProblem says, or the problem. */
export function parseJsonBody(text: string, what: string): { ok: true; value: unknown } | { ok: false; problem: BodyProblem } {
  if (!text.trim()) return { ok: false, problem: { code: 'invalid_json', message: `The ${what} is empty; expected a JSON object` } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: { code: 'invalid_json', message: `Malformed JSON in the ${what}: ${(error as Error).message}` } };
  }
  const problem = unstorableBodyProblem(value, what);
  return problem ? { ok: false, problem } : { ok: true, value };
}
