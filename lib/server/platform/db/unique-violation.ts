import 'server-only';
/** True when a query failed on a unique constraint (SQLSTATE 23505), however the driver wrapped it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
