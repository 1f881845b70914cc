/**
 * The `snippet` of a search hit (extensions.md § 4): at most 200 characters of text around the
 * first match, computed here from the field that matched rather than by `ts_headline`, which
 * answers markup and reads the whole field again in the database.
 */

export const SNIPPET_MAX = 200;
/** Characters kept before the match, so the reader sees what leads to it. */
const LEAD = 40;

/**
 * Markdown and HTML reduced to the words a reader sees: link and image targets, tags, emphasis,
 * heading and quote marks and code fences go; runs of white space become one space.
 */
export function plainText(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, (_, label: string) => label)
    .replace(/```+|`/g, ' ')
    .replace(/(^|\s)(#{1,6}|>+|[-*+]|\d+\.)(?=\s)/g, (_, before: string) => before)
    .replace(/(\*\*|__|\*|~~)(?=\S)|(?<=\S)(\*\*|__|\*|~~)/g, '')
    // A single underscore marks emphasis only outside a word (snake_case keeps its own).
    .replace(/(?<![\p{L}\p{N}])_(?=\S)|(?<=\S)_(?![\p{L}\p{N}])/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A character as search compares it: accents dropped, lower case (the page's twin of `f_unaccent` and the `simple` dictionary). */
const fold = (char: string): string => char.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The words of a query as the snippet looks for them: letters and digits, folded. */
export function snippetWords(q: string): string[] {
  return Array.from(new Set(fold(q.normalize('NFC')).split(/[^\p{L}\p{N}]+/u).filter(Boolean)));
}

/** Where the first word of `words` starts a word of `chars` (folded), or -1. */
function firstMatch(chars: readonly string[], words: readonly string[]): number {
  const folded: string[] = [];
  const at: number[] = [];
  chars.forEach((c, i) => {
    for (const f of Array.from(fold(c))) {
      folded.push(f);
      at.push(i);
    }
  });
  const text = folded.join('');
  let best = -1;
  for (const word of words) {
    const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const found = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}`, 'u').exec(text);
    if (!found) continue;
    const index = at[Array.from(text.slice(0, found.index)).length] ?? -1;
    if (index >= 0 && (best < 0 || index < best)) best = index;
  }
  return best;
}

/** At most 200 characters (code points) of `text` as plain text around the first match of `words`; `…` marks what was cut. */
export function snippetOf(text: string, words: readonly string[]): string {
  const chars = Array.from(plainText(text));
  if (chars.length <= SNIPPET_MAX) return chars.join('');
  const match = Math.max(0, firstMatch(chars, words));
  let start = Math.max(0, match - LEAD);
  // Start at a word's beginning when one is near, rather than in the middle of a word.
  const space = chars.slice(start, match).indexOf(' ');
  if (start > 0 && space >= 0) start += space + 1;
  start = Math.min(start, chars.length - (SNIPPET_MAX - 1));
  const head = start > 0 ? '…' : '';
  const room = SNIPPET_MAX - head.length;
  const tail = start + room < chars.length ? '…' : '';
  return head + chars.slice(start, start + room - tail.length).join('').trim() + tail;
}
