import 'server-only';
import { COMMENT_LIMITS } from '@/lib/api/comment-schemas';
import { USERNAME_PATTERN } from '@/lib/api/gate-schemas';

// "@alice" names a user when it starts a word; an e-mail address ("bob@example.com") does
// not. Usernames may contain "." so a sentence's closing full stop is trimmed off.

const MENTION = /(?<![\w@.-])@([a-z0-9_.-]{3,32})/gi;

/** The distinct usernames a comment names with @, lower-cased, at most COMMENT_LIMITS.maxMentions (each one is an inbox row). */
export function mentionedNames(body: string): string[] {
  const names = new Set<string>();
  for (const match of body.matchAll(MENTION)) {
    const name = match[1].toLowerCase().replace(/[.]+$/, '');
    if (USERNAME_PATTERN.test(name)) names.add(name);
    if (names.size >= COMMENT_LIMITS.maxMentions) break;
  }
  return [...names];
}
