// A JSON document written around a part that is already JSON text (a stored revision's tasks,
// a dry run's pages), so the big part is copied as a string instead of parsed and written
// again on the server's thread.

/**
 * JSON.stringify of `build(mark)`, where the one string value `mark` stands for `raw`, which
 * is spliced in as it is. The mark is random, so no other value of the document can be it.
 */
export function stringifyAround(build: (mark: string) => unknown, raw: string): string {
  const mark = `raw ${crypto.randomUUID()}`;
  const text = JSON.stringify(build(mark));
  const quoted = JSON.stringify(mark);
  const at = text.indexOf(quoted);
  if (at < 0) throw new Error('stringifyAround: the document does not hold the mark');
  return `${text.slice(0, at)}${raw}${text.slice(at + quoted.length)}`;
}
