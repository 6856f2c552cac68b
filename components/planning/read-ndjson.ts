/**
 * Each value of a newline-delimited JSON body, in order, as its lines arrive. A line split
 * across chunks waits for its end; blank lines are skipped; a line that is not JSON throws.
 */
export async function* readNdjson(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let finished = false;
  try {
    while (!finished) {
      const { done, value } = await reader.read();
      finished = done;
      pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = pending.split('\n');
      pending = done ? '' : (lines.pop() ?? '');
      for (const line of lines) if (line.trim()) yield JSON.parse(line) as unknown;
    }
  } finally {
    // Stopped early (the caller broke off, or a line was not JSON): let the response go.
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
