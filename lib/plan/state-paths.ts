// Seed 002's Variable References: "†state.userProfileData", "†input.customerId",
// "†state.items[0].name". A call writes state through `_outputPath` ("†state.receipt ||
// †state.error": it writes one of them) and reads it anywhere in its arguments. The one
// reading of them for the state-calls importer, validation and the dry run.
//
// A segment is `.name` or `[index]`. A name is what a step template's path accepts
// (`[\w$-]+`, see evaluateStepPath), so a state value is read the same way a step output
// is: the seed's names are JavaScript identifiers, and plans written for the step
// templates also use hyphens and leading digits ("†state.step-1", "†state.0"). A "$" that
// opens "${" ends the name: "†state.a${step[0].x}" is a state path, then a step template.

const SEGMENT = String.raw`(?:\.(?:[\w-]|\$(?!\{))+|\[\d+\])`;
const REFERENCE = new RegExp(String.raw`†(state|input)(${SEGMENT}*)`, 'g');
const WHOLE_STATE_PATH = new RegExp(String.raw`^†state(${SEGMENT}+)$`);
const SEGMENT_TEXT = /[^.[\]]+/g;

export type VariableRoot = 'state' | 'input';

export interface VariableReference {
  /** The reference as written: "†state.items[0].name". */
  text: string;
  /** Where it starts in the string it was found in. */
  index: number;
  root: VariableRoot;
  /** What follows the root: ".items[0].name"; '' for the whole state or input. */
  path: string;
  /**
   * The names and indices of `path` as written ("items", "0", "name"): `.0` and `[0]`
   * read the same element, as in JavaScript.
   */
  segments: string[];
}

function reference(match: RegExpExecArray | RegExpMatchArray): VariableReference {
  const path = match[2];
  return { text: match[0], index: match.index ?? 0, root: match[1] as VariableRoot, path, segments: statePathSegments(path) };
}

/** The segments of a path such as ".items[0].name": ["items", "0", "name"]. */
export function statePathSegments(path: string): string[] {
  return path.match(SEGMENT_TEXT) ?? [];
}

/**
 * Every `†state…` and `†input…` reference in `text`, embedded or whole, in order. A bare
 * "†state" or "†input" (no segment) is one too, with path '' and no segments.
 */
export function findVariableReferences(text: string): VariableReference[] {
  if (!text.includes('†')) return [];
  return [...text.matchAll(REFERENCE)].map(reference);
}

/** `text` (trimmed) as one `†state` path with at least one segment, else null. */
export function parseStatePath(text: string): VariableReference | null {
  const trimmed = text.trim();
  const match = WHOLE_STATE_PATH.exec(trimmed);
  return match && { text: trimmed, index: 0, root: 'state', path: match[1], segments: statePathSegments(match[1]) };
}

/** The parts of an `_outputPath`, trimmed: "†state.receipt || †state.error" → two. */
export function splitOutputPath(outputPath: string): string[] {
  return outputPath.split('||').map((part) => part.trim());
}

/** The `†state` paths an `_outputPath` writes, or null when any part is not one. */
export function parseOutputPath(outputPath: string): VariableReference[] | null {
  const paths: VariableReference[] = [];
  for (const part of splitOutputPath(outputPath)) {
    const path = parseStatePath(part);
    if (!path) return null;
    paths.push(path);
  }
  return paths;
}

/** `path` (trimmed) without a leading "†state.": "†state.a.b" → "a.b". */
export function stripStatePrefix(path: string): string {
  return path.trim().replace(/^†state\./, '');
}

/** Whether `prefix` is `path` or an ancestor of it (`a` of `a.b`). */
export function isStatePathPrefix(prefix: readonly string[], path: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => segment === path[i]);
}

/**
 * Whether one path contains the other: reading `a.b` needs the writer of `a`, and reading
 * all of `a` waits for the writer of `a.b`.
 */
export function statePathsOverlap(a: readonly string[], b: readonly string[]): boolean {
  return a.length <= b.length ? isStatePathPrefix(a, b) : isStatePathPrefix(b, a);
}
