import 'server-only';
// Which task ids a free-text comment names. Ids are matched as whole words: the text is cut
// at white space, brackets, quotes and list punctuation, and a word's trailing full stops
// are tried off, so "fix `fetch`, then summarise." names fetch and summarise.

const WORD = /[^\s,;()[\]{}"'`<>!?*]+/g;

/** The ids in `taskIds` that `text` names, in the order they first appear. */
export function tasksNamedIn(text: string, taskIds: Iterable<string>): string[] {
  const ids = taskIds instanceof Set ? (taskIds as Set<string>) : new Set(taskIds);
  const named = new Set<string>();
  for (const [word] of text.matchAll(WORD)) {
    for (const candidate of [word, word.replace(/[.:]+$/, '')]) {
      if (ids.has(candidate)) {
        named.add(candidate);
        break;
      }
    }
  }
  return [...named];
}
