import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { ParsedPlan } from './format';

// Shared by the format adapters' tests: seed fixtures, the error a call throws, and the
// parts of a parsed task the seeds talk about.

const FIXTURES = path.resolve('lib/formats/fixtures');

export function readFixture(format: string, name: string): string {
  return readFileSync(path.join(FIXTURES, format, name), 'utf8');
}

export function jsonFixtureNames(format: string): string[] {
  return readdirSync(path.join(FIXTURES, format)).filter((f) => f.endsWith('.json'));
}

/** The error `fn` throws, which must be a `type`; anything else fails the test. */
export function errorThrownBy<E extends Error>(type: abstract new (...args: never[]) => E, fn: () => unknown): E {
  try {
    fn();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name}`);
}

/** Tool-call view of the parsed tasks: id, tool, arguments, dependencies, parameters. */
export function toolShape(parsed: ParsedPlan) {
  return (parsed.plan.planned_tasks ?? []).map((t) => ({
    id: t.task_id,
    tool: t.tool_id,
    args: t.arguments,
    deps: t.dependencies,
    parameters: t.parameters,
  }));
}
