/**
 * Pull the JSON value out of a model's answer. Models answer bare JSON, JSON in a fenced
 * code block (```json … ``` or ``` … ```), or JSON with a sentence of prose around it;
 * reasoning models may also prefix a <think>…</think> block. All of these are accepted.
 */

const THINK_BLOCK = /<think>[\s\S]*?<\/think>/gi;
const FENCED_BLOCK = /```[ \t]*[\w+-]*[^\S\r\n]*\r?\n?([\s\S]*?)```/g;
const SNIPPET_LENGTH = 120;

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

function tryParse(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** A short, single-line excerpt of the answer for error messages. */
export function answerSnippet(text: string, length = SNIPPET_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length)}…` : flat;
}

/** The text from the first `{` or `[` to the last matching closer, when there is one. */
function bareJsonCandidates(text: string): string[] {
  const candidates: string[] = [];
  const starts = [
    { open: text.indexOf('{'), close: text.lastIndexOf('}') },
    { open: text.indexOf('['), close: text.lastIndexOf(']') },
  ]
    .filter(({ open, close }) => open >= 0 && close > open)
    .sort((a, b) => a.open - b.open);
  for (const { open, close } of starts) candidates.push(text.slice(open, close + 1));
  return candidates;
}

/**
 * The JSON value in `text`: the whole answer if it parses, else the first fenced code block
 * that parses, else the outermost `{…}` / `[…]` with the prose around it trimmed.
 * Throws an Error starting "The answer is not JSON: " that says why.
 */
export function extractJson(text: string): unknown {
  const answer = text.replace(THINK_BLOCK, '').trim();
  if (!answer) throw new Error('The answer is not JSON: it is empty.');

  const whole = tryParse(answer);
  if (whole.ok) return whole.value;

  const blocks = [...answer.matchAll(FENCED_BLOCK)].map((match) => match[1].trim());
  // A fence that was opened but never closed (the answer was cut off, or the model forgot).
  if (blocks.length === 0 && answer.startsWith('```')) blocks.push(answer.replace(/^```[ \t]*[\w+-]*/, '').trim());
  let blockError: string | undefined;
  for (const block of blocks) {
    const parsed = tryParse(block);
    if (parsed.ok) return parsed.value;
    for (const candidate of bareJsonCandidates(block)) {
      const inner = tryParse(candidate);
      if (inner.ok) return inner.value;
    }
    blockError ??= parsed.error;
  }

  let candidateError: string | undefined;
  for (const candidate of bareJsonCandidates(answer)) {
    const parsed = tryParse(candidate);
    if (parsed.ok) return parsed.value;
    candidateError ??= parsed.error;
  }

  if (blockError !== undefined) {
    throw new Error(`The answer is not JSON: its fenced code block does not parse (${blockError}).`);
  }
  const reason = candidateError ?? 'it contains no JSON object or array';
  throw new Error(`The answer is not JSON: ${reason}. The answer begins: "${answerSnippet(answer)}"`);
}
