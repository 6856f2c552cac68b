// Parsing what an editor typed into a JSON textarea, with a message fit to show inline.

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

/** Rows for a JSON textarea: tall enough to read, never taller than a screen. */
export const textareaRows = (text: string, min = 6, max = 24) => Math.min(max, Math.max(min, text.split('\n').length + 1));

export const TEXTAREA =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-xs shadow-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500';

export const PRIMARY_BUTTON =
  'rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 disabled:opacity-60';

export const SECONDARY_BUTTON =
  'rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50 disabled:opacity-60';
