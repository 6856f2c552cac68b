/** A JSON object typed into a field, or the error to show beside it (naming the field). */
export function parseJsonObject(field: string, text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (!text.trim()) return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${field} is not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: `${field} must be a JSON object, like {"key": "value"}` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
