// "a" or "an" by how the next word is said, not how it is spelt: "an agent", "an llm task"
// (el-el-em), "a dsl task" (dee), "a user", "an hour". Words of the plan's own vocabulary are
// known; any other follows the usual spelling rules.

/** Initialisms said letter by letter; their first letter's name decides. */
const INITIALISMS = new Set(['llm', 'dsl', 'mcp', 'a2a', 'api', 'sql', 'url', 'http', 'https', 'rpc', 'xml', 'html', 'id']);
/** Letters whose names start with a vowel sound: "an F", "an M", "an S". */
const VOWEL_SOUND_LETTERS = new Set([...'aefhilmnorsx']);
/** Spelt with a vowel, said with a consonant: "a user", "a one-off", "a euro". */
const CONSONANT_SOUND = /^(u[bcfhjkqrstn][aeiou]|use|usu|uni(?!n)|ure|uti|one|once|eu|ewe)/;
/** Spelt with an h that is not said: "an hour", "an honest". */
const SILENT_H = /^(hour|honest|honor|honour|heir)/;

export function indefiniteArticle(word: string): 'a' | 'an' {
  const lower = word.trim().toLowerCase();
  const head = lower.split(/[^a-z0-9]/, 1)[0] ?? '';
  if (INITIALISMS.has(head)) return VOWEL_SOUND_LETTERS.has(head[0]!) ? 'an' : 'a';
  if (SILENT_H.test(lower)) return 'an';
  if (CONSONANT_SOUND.test(lower)) return 'a';
  return /^[aeiou]/.test(lower) ? 'an' : 'a';
}

/** The word with its article: "an agent", "a tool_id". */
export const withArticle = (word: string) => `${indefiniteArticle(word)} ${word}`;
