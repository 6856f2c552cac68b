// Timestamps Plangate writes into tasks and plans, in the form seed 000's Python side
// writes and reads: `datetime.utcnow().isoformat()`, naive UTC with microseconds and no
// zone (`2026-01-02T03:04:05.123000`). `datetime.fromisoformat` then gives a naive
// datetime comparable with `utcnow()`, and its `isoformat()` reproduces the same string,
// so a Python client's read-and-save keeps the content hash. Timestamps a client sends are
// stored as sent.

/** `date` as Python's `datetime.isoformat()` of a naive UTC datetime (millisecond precision, ×1000). */
export function pythonUtcIso(date: Date = new Date()): string {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const seconds = iso.slice(0, 19);
  const ms = date.getUTCMilliseconds();
  // Python leaves the fraction out entirely when the microseconds are zero.
  return ms === 0 ? seconds : `${seconds}.${String(ms).padStart(3, '0')}000`;
}

/** Now, as Plangate writes it into task and plan timestamps. */
export const nowTimestamp = (): string => pythonUtcIso(new Date());
