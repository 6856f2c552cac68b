// The inline sign-in (a session ended mid-edit) continues the same person's work: the
// edits waiting to be saved are theirs, so only their account may pick them up. Anyone
// else switches account on the sign-in page, where nothing is replayed under their name.

/** Usernames are compared as sign-in compares them: trimmed, case-insensitive. */
const normal = (name: string) => name.trim().toLowerCase();

/** Why `typed` may not sign in inline for `expected`'s edits, or null when it may. */
export function inlineAccountRefusal(expected: string, typed: string): string | null {
  return normal(typed) === normal(expected) ? null : `To keep your edits as yours, sign in as ${normal(expected)}; or open the sign-in page to switch account.`;
}
