import { z } from 'zod';
import { schemaComplexityProblem } from './schema-budget';

// Registry schemas are written by editors and run against plan arguments on every
// validation, in the browser and on the server. A `pattern` would become a live RegExp,
// and one with nested quantifiers can take exponential time on a short string, so
// patterns are dropped (they are documentation here) before zod reads the schema.

// A schema over the complexity budget (schema-budget.ts; only rows stored before it existed
// can be) is skipped like one zod cannot read: checking it could take seconds per plan.
// Messages are clipped: a 1,000-value enum's "expected one of …" would otherwise be
// kilobytes, repeated on every task that fails it.

const checkers = new WeakMap<object, Checkers | null>();
/** Characters of a checker's message; the rest is cut with an ellipsis. */
export const MAX_CHECK_MESSAGE_CHARS = 300;
/** Issues a checker reports at most (the callers show the first, or the first ten). */
const MAX_CHECK_ISSUES = 10;

/** Values of an enum named in a message; zod's own lists all of them, on every failure. */
const LISTED_VALUES = 10;

function shortMessage(issue: { code?: string; values?: unknown[] }): string | undefined {
  if (issue.code !== 'invalid_value' || !Array.isArray(issue.values) || issue.values.length <= LISTED_VALUES) return undefined;
  const shown = issue.values.slice(0, LISTED_VALUES).map((v) => (typeof v === 'string' ? JSON.stringify(v).slice(0, 40) : String(v))).join('|');
  return `Invalid option: expected one of ${shown}|… (${issue.values.length.toLocaleString('en')} values)`;
}

function clipped(checker: z.ZodType): z.ZodType {
  return z.unknown().superRefine((value, ctx) => {
    const result = checker.safeParse(value, { error: shortMessage });
    if (result.success) return;
    for (const issue of result.error.issues.slice(0, MAX_CHECK_ISSUES)) {
      const message = issue.message.length > MAX_CHECK_MESSAGE_CHARS ? `${issue.message.slice(0, MAX_CHECK_MESSAGE_CHARS)}…` : issue.message;
      ctx.addIssue({ code: 'custom', message, path: issue.path, input: value });
    }
  });
}

function withoutPatterns(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPatterns);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'pattern' && key !== 'patternProperties')
      .map(([key, item]) => [key, withoutPatterns(item)]),
  );
}

interface Checkers {
  /** Reports the schema's first issues, clipped. */
  checker: z.ZodType;
  /** Only says whether a value passes: zod's compiled validator, or its runtime where it cannot compile. */
  accepts: ((value: unknown) => boolean) | null;
  inner: z.ZodType;
}

function checkersOf(schema: object): Checkers | null {
  if (checkers.has(schema)) return checkers.get(schema)!;
  let made: Checkers | null;
  try {
    const inner = schemaComplexityProblem(schema) ? null : z.fromJSONSchema(withoutPatterns(schema) as Parameters<typeof z.fromJSONSchema>[0]);
    made = inner && { checker: clipped(inner), accepts: null, inner };
  } catch {
    made = null; // a schema zod cannot read is not the plan's fault
  }
  checkers.set(schema, made);
  return made;
}

/** A zod checker for a JSON Schema, cached per schema object; null when zod cannot read it or it is over the complexity budget. */
export function schemaChecker(schema: object): z.ZodType | null {
  return checkersOf(schema)?.checker ?? null;
}

/**
 * Whether `value` passes schemaChecker(schema), without wording why not (null when there is
 * no checker). For the checks whose message nobody reads, past what a result lists: a value
 * failing a schema of 256 object branches costs safeParse about a millisecond of issues and
 * messages, and zod's compiled validator a few dozen microseconds for the same answer. The
 * schema is compiled on first use (zod falls back to its runtime where it cannot compile).
 */
export function schemaAccepts(schema: object, value: unknown): boolean | null {
  const made = checkersOf(schema);
  if (!made) return null;
  made.accepts ??= ((compiled) => (v: unknown) => compiled.validate(v))(z.compile(made.inner));
  return made.accepts(value);
}
