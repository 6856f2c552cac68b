// What every server action returns (docs/architecture.md): a typed result instead of an
// exception thrown across the network boundary. It lives with the API so client components
// can name it without importing lib/server.

export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: { code: string; message: string; details?: Array<{ path: string; message: string }>; [key: string]: unknown } };

/**
 * A response of Plangate's API read into the same shape, so the browser's reads of routes
 * handle answers as its server actions do: the JSON body, or the API's error
 * (`{ error: { code, message } }`), or, when the body carries none, one that names `failure`
 * and the HTTP status.
 */
export async function resultOf<T>(response: Response, failure: string): Promise<ActionResult<T>> {
  const body = await response.json().catch(() => null);
  if (response.ok) return { ok: true, data: body as T };
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (typeof error?.message === 'string' && typeof error.code === 'string') return { ok: false, error: error as { code: string; message: string } };
  return { ok: false, error: { code: 'internal', message: `${failure} (HTTP ${response.status})` } };
}

/** A result's data, or its error's message thrown: what a TanStack Query function answers. */
export function dataOrThrow<T>(result: ActionResult<T>): T {
  if (result.ok) return result.data;
  throw new Error(result.error.message);
}
