import 'server-only';
// Crockford-style alphabet: no look-alike characters, so ids survive being read aloud
// or typed from a screenshot of a shared link.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A 12-character random plan id (60 bits): short enough for URLs, unguessable enough to share. */
export function newPlanId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte & 31];
  return id;
}

export const PLAN_ID_PATTERN = /^[0-9a-z]{1,64}$/;
