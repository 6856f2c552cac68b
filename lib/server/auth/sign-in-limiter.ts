// better-auth's own rate limiter guards its HTTP router, which Plangate does not mount
// (sign-in runs in a server action), so failed sign-ins are counted here. Per process
// and in memory: a restart forgets, which is acceptable for slowing a password guesser.

const WINDOW_MS = 15 * 60 * 1000;
const PER_CLIENT = 10; // failures per username and address
const PER_USER = 50; // failures per username from anywhere (addresses can be spoofed or rotated)

const failures = new Map<string, number[]>();

function recent(key: string, now: number): number[] {
  const kept = (failures.get(key) ?? []).filter((at) => now - at < WINDOW_MS);
  if (kept.length) failures.set(key, kept);
  else failures.delete(key);
  return kept;
}

function keys(username: string, address: string): [string, string] {
  return [`${username}|${address}`, `${username}|*`];
}

/** Minutes until the next attempt is allowed, or 0 when it is allowed now. */
export function signInBlockedFor(username: string, address: string, now = Date.now()): number {
  const [client, user] = keys(username, address);
  const byClient = recent(client, now);
  const byUser = recent(user, now);
  const blocking = byClient.length >= PER_CLIENT ? byClient : byUser.length >= PER_USER ? byUser : null;
  return blocking ? Math.ceil((blocking[0] + WINDOW_MS - now) / 60_000) : 0;
}

export function recordSignInFailure(username: string, address: string, now = Date.now()): void {
  for (const key of keys(username, address)) failures.set(key, [...recent(key, now), now]);
}

export function clearSignInFailures(username: string, address: string): void {
  failures.delete(keys(username, address)[0]);
}
