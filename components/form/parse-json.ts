// Reading what someone typed into a JSON textarea, with messages fit to show inline.

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

export function parseJsonText(text: string): Parsed {
  if (!text.trim()) return { ok: false, message: 'Enter some JSON first.' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: `Invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An optional JSON-object field: empty reads as `{}`; the error names the field. */
export function parseJsonObject(field: string, text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (!text.trim()) return { ok: true, value: {} };
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, error: `${field} is not valid JSON: ${parsed.message.replace(/^Invalid JSON: /, '')}` };
  if (!isJsonObject(parsed.value)) return { ok: false, error: `${field} must be a JSON object, like {"key": "value"}` };
  return { ok: true, value: parsed.value };
}

/** Rows for a JSON textarea: tall enough to read, never taller than a screen. */
export const textareaRows = (text: string, min = 6, max = 24) => Math.min(max, Math.max(min, text.split('\n').length + 1));

/**
 * The JSON typed in a form's field, or null once `refuse` has been told why it cannot be
 * sent (a form's action's `fail`, so the reason shows where the server's would).
 */
export function jsonOrRefuse(text: string, refuse: (message: string) => void): { value: unknown } | null {
  const parsed = parseJsonText(text);
  if (parsed.ok) return { value: parsed.value };
  refuse(parsed.message);
  return null;
}
