import { FormatError, type FormatId } from './format';

/**
 * Offset of the first JSON syntax error, or -1. V8's JSON.parse only sometimes says
 * where it stopped ("Unexpected end of JSON input" and "Unexpected token" do not), so
 * a small scanner finds the spot. Iterative, so deep nesting cannot overflow the stack.
 */
function jsonErrorOffset(s: string): number {
  const n = s.length;
  let i = 0;
  const stack: string[] = [];
  let state: 'value' | 'key' | 'after' = 'value';
  const skipSpace = () => {
    while (i < n && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++;
  };
  const scanString = (): boolean => {
    i++;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = s[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) return false;
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else {
          i++;
          return false;
        }
      } else i++;
    }
    return false;
  };
  const literal = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

  for (;;) {
    skipSpace();
    if (state === 'value') {
      if (i >= n) return n;
      const c = s[i];
      if (c === '{' || c === '[') {
        stack.push(c);
        i++;
        skipSpace();
        if (s[i] === (c === '{' ? '}' : ']')) {
          stack.pop();
          i++;
          state = 'after';
        } else state = c === '{' ? 'key' : 'value';
        continue;
      }
      if (c === '"') {
        if (!scanString()) return i;
        state = 'after';
        continue;
      }
      literal.lastIndex = i;
      const match = literal.exec(s);
      if (!match) return i;
      i += match[0].length;
      state = 'after';
      continue;
    }
    if (state === 'key') {
      if (s[i] !== '"' || !scanString()) return i;
      skipSpace();
      if (s[i] !== ':') return i;
      i++;
      state = 'value';
      continue;
    }
    if (stack.length === 0) return i < n ? i : -1;
    const top = stack[stack.length - 1];
    if (s[i] === ',') {
      i++;
      state = top === '{' ? 'key' : 'value';
    } else if (s[i] === (top === '{' ? '}' : ']')) {
      stack.pop();
      i++;
    } else return i;
  }
}

/** JSON.parse with the failure located as a line and column, as people read files. */
export function parseJsonText(format: FormatId, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/ in JSON at position \d+.*$/s, '');
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : '');
    const offset = position ? Number(position[1]) : jsonErrorOffset(text);
    if (offset < 0) throw new FormatError(format, '', `not valid JSON: ${reason}`);
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    const detail = offset >= text.length ? 'the text ends too soon (truncated?)' : reason;
    throw new FormatError(format, `line ${line}, column ${column}`, `not valid JSON: ${detail}`);
  }
}


export function looksLikeJson(text: string): boolean {
  const start = text.trimStart()[0];
  return start === '{' || start === '[';
}
