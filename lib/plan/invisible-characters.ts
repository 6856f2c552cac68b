// Bidirectional controls and zero-width characters make text read differently from what
// it is: a right-to-left override shows "txt.exe" after it reversed, and a zero-width space
// makes two different ids look the same (Trojan Source, CVE-2021-42574). Validation warns
// about them and names them visibly.

// U+200B–U+200F: zero-width space/non-joiner/joiner, LRM, RLM; U+202A–U+202E: embeddings
// and overrides; U+2060: word joiner; U+2066–U+2069: isolates; U+061C: Arabic letter mark;
// U+FEFF: zero-width no-break space (BOM).
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\u061C\uFEFF]/g;

/** The invisible or direction-changing characters in `text`, as distinct `U+XXXX` names in order of appearance. */
export function invisibleCharacters(text: string | null | undefined): string[] {
  if (!text) return [];
  const found = new Set<string>();
  for (const match of text.matchAll(INVISIBLE)) found.add(`U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  return [...found];
}

/** `text` with each invisible character replaced by a visible `<U+XXXX>`, for messages. */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, (c) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`);
}
