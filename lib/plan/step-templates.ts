// Seed 001's step templates: "${step[0].data.*.id}", "${step[1].data[0].facility.name}".
// One reading of them for the planner-agent importer, validation (which step is meant),
// the replanner (renumbering) and the dry run (what it yields).
//
// A template opens with "${", optional spaces, "step[", the step number and "]"; the
// path after it runs to the closing "}". An opening without a number ("${step[x]") is
// a malformed template: the importer refuses it, the others leave it as text.

/** Every template in a string: the step number (group 1) and the path after it (group 2, ".data.*.id"). */
export const STEP_TEMPLATE = /\$\{\s*step\[(\d+)\]([^}]*)\}/g;
const WHOLE_STEP_TEMPLATE = new RegExp(`^${STEP_TEMPLATE.source}$`);
/** "${step[" and, when well formed, the step number and "]" (group 1). */
const OPENING = /(\$\{\s*step\[)(?:(\d+)\])?/g;

export interface StepTemplate {
  /** The template as written: "${step[0].data.*.id}". */
  text: string;
  /** Where it starts in the string it was found in. */
  index: number;
  step: number;
  /** What follows "]": ".data.*.id" ('' for the whole output). */
  path: string;
}

function template(match: RegExpExecArray | RegExpMatchArray): StepTemplate {
  return { text: match[0], index: match.index ?? 0, step: Number(match[1]), path: match[2] };
}

/** The well-formed templates in `text`, in order. */
export function findStepTemplates(text: string): StepTemplate[] {
  if (!text.includes('step[')) return [];
  return [...text.matchAll(STEP_TEMPLATE)].map(template);
}

/** Whether `text` holds at least one well-formed template. */
export const hasStepTemplate = (text: string): boolean => findStepTemplates(text).length > 0;

/** `text` as exactly one template (nothing around it), else null. */
export function parseStepTemplate(text: string): StepTemplate | null {
  const match = WHOLE_STEP_TEMPLATE.exec(text);
  return match && template(match);
}

/**
 * The step number of every template opening in `text`, in order; undefined for a malformed
 * one ("${step[x]…}"). An opening counts even if its "}" is missing.
 */
export function stepTemplateNumbers(text: string): Array<number | undefined> {
  if (!text.includes('step[')) return [];
  return [...text.matchAll(OPENING)].map((m) => (m[2] === undefined ? undefined : Number(m[2])));
}

/**
 * `text` with the number of every template opening that `renumber` maps to another number
 * rewritten ("${step[0].x}" → "${step[4].x}"); the rest, spaces included, as written.
 */
export function rewriteStepNumbers(text: string, renumber: (n: number) => number | undefined): string {
  if (!text.includes('step[')) return text;
  return text.replace(OPENING, (raw: string, opening: string, n: string | undefined) => {
    if (n === undefined) return raw;
    const next = renumber(Number(n));
    return next === undefined || next === Number(n) ? raw : `${opening}${next}]`;
  });
}

/**
 * Which task `step[n]` names: imported step lists name their tasks step-<n>; a plan that
 * does not is read by position.
 */
export function stepResolver(taskIds: readonly string[], idToIndex: ReadonlyMap<string, number>): (n: number) => number | undefined {
  const named = namesSteps(taskIds);
  return (n) => (named ? idToIndex.get(`step-${n}`) : n < taskIds.length ? n : undefined);
}

/** Whether `step[n]` in this plan means the task with id step-<n> (else the n-th task). */
export function namesSteps(taskIds: readonly string[]): boolean {
  return taskIds.some((id) => id.startsWith('step-'));
}

/** n for an id step-<n> that `step[n]` can name, else undefined. */
export function stepNumberOf(taskId: string): number | undefined {
  const match = /^step-(0|[1-9]\d*)$/.exec(taskId);
  return match ? Number(match[1]) : undefined;
}

type Segment = { key: string } | { index: number } | { all: true };

function segments(path: string): Segment[] | null {
  const out: Segment[] = [];
  const pattern = /\.(\*|[\w$-]+)|\[(\d+)\]|\[\*\]/gy;
  let match: RegExpExecArray | null;
  let at = 0;
  while (at < path.trim().length && (match = pattern.exec(path.trim()))) {
    at = pattern.lastIndex;
    if (match[1] === '*' || match[0] === '[*]') out.push({ all: true });
    else if (match[1] !== undefined) out.push({ key: match[1] });
    else out.push({ index: Number(match[2]) });
  }
  return at === path.trim().length ? out : null;
}

/** The value a template path picks out of a step's output; `*` maps over an array. */
export function evaluateStepPath(value: unknown, path: string): { found: true; value: unknown } | { found: false; at: string } {
  const parts = segments(path);
  if (!parts) return { found: false, at: path };
  const walk = (current: unknown, rest: Segment[], done: string): { found: true; value: unknown } | { found: false; at: string } => {
    if (rest.length === 0) return { found: true, value: current };
    const [head, ...tail] = rest;
    if ('all' in head) {
      if (!Array.isArray(current)) return { found: false, at: `${done}.*` };
      const values: unknown[] = [];
      for (const item of current) {
        const result = walk(item, tail, `${done}.*`);
        if (!result.found) return result;
        values.push(result.value);
      }
      return { found: true, value: values };
    }
    if ('index' in head) {
      if (!Array.isArray(current) || head.index >= current.length) return { found: false, at: `${done}[${head.index}]` };
      return walk(current[head.index], tail, `${done}[${head.index}]`);
    }
    if (!current || typeof current !== 'object' || !(head.key in current)) return { found: false, at: `${done}.${head.key}` };
    return walk((current as Record<string, unknown>)[head.key], tail, `${done}.${head.key}`);
  };
  return walk(value, parts, '');
}

/**
 * `value` with the step number of every template that `renumber` maps to another number
 * rewritten, e.g. `${step[0].data.*.id}` → `${step[4].data.*.id}`. Parts without a
 * changed template are returned as they are (same references), so callers can tell an
 * untouched task by identity.
 */
export function renumberStepTemplates<T>(value: T, renumber: (n: number) => number | undefined): T {
  const visit = (item: unknown): unknown => {
    if (typeof item === 'string') return rewriteStepNumbers(item, renumber);
    if (Array.isArray(item)) {
      const mapped = item.map(visit);
      return mapped.some((m, i) => m !== item[i]) ? mapped : item;
    }
    if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item);
      const mapped = entries.map(([key, v]) => [key, visit(v)] as const);
      return mapped.some(([, m], i) => m !== entries[i]![1]) ? Object.fromEntries(mapped) : item;
    }
    return item;
  };
  return visit(value) as T;
}
