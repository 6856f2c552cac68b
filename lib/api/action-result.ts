// What every server action returns (docs/architecture.md): a typed result instead of an
// exception thrown across the network boundary. It lives with the API so client components
// can name it without importing lib/server.

export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: { code: string; message: string; details?: Array<{ path: string; message: string }>; [key: string]: unknown } };
