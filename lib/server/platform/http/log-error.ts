import 'server-only';
// What the server logs of an unexpected error: its class, message, stack and causes, and
// nothing else, cut to a few kB. A thrown error can carry a whole request body or query
// parameters (a database driver's "Failed query: … params: …" message, a zod error's
// input), and one log line of hundreds of MB is itself a way to exhaust the server.

/** Characters of one error's description in the log. */
export const MAX_LOGGED_ERROR_CHARS = 4_096;
const MAX_MESSAGE_CHARS = 1_024;
const MAX_CAUSES = 3;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${(text.length - max).toLocaleString('en')} more characters)` : text;
}

function describeOne(error: unknown): string {
  if (error instanceof Error) {
    const head = `${error.name}: ${clip(String(error.message), MAX_MESSAGE_CHARS)}`;
    // The stack's first line repeats the (possibly huge) message; keep only its frames.
    const frames = typeof error.stack === 'string' ? error.stack.split('\n').filter((line) => /^\s+at /.test(line)).slice(0, 15).join('\n') : '';
    return frames ? `${head}\n${frames}` : head;
  }
  let shown: string;
  try {
    shown = typeof error === 'string' ? error : String(error);
  } catch {
    shown = '(an unprintable value)';
  }
  return `thrown ${typeof error}: ${clip(shown, MAX_MESSAGE_CHARS)}`;
}

/** A bounded description of `error` for the server log: never its own enumerable fields (query parameters, inputs), only message, stack frames and causes. */
export function describeErrorForLog(error: unknown): string {
  const parts = [describeOne(error)];
  let cause = error instanceof Error ? (error as Error & { cause?: unknown }).cause : undefined;
  for (let i = 0; i < MAX_CAUSES && cause !== undefined && cause !== null; i++) {
    parts.push(`caused by ${describeOne(cause)}`);
    cause = cause instanceof Error ? (cause as Error & { cause?: unknown }).cause : undefined;
  }
  return clip(parts.join('\n'), MAX_LOGGED_ERROR_CHARS);
}

/** Logs an unexpected error under `what` (e.g. "POST /api/plans/x/simulate failed"): method and path only, never the body or query. */
export function logError(what: string, error: unknown): void {
  console.error(`[plangate] ${clip(what, 300)}: ${describeErrorForLog(error)}`);
}
