import { Mentionable } from './notification';

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * The people a text mentions (extensions.md § 2): after each `@`, the longest member name that
 * follows it (compared case-insensitively) and ends at the end of the text or before a character
 * that is not a letter or digit; every member of that name is mentioned. Answers ids, each once,
 * in the order first mentioned.
 */
export function mentionedIn(text: string, people: readonly Mentionable[]): string[] {
  if (!text.includes('@') || people.length === 0) return [];
  const byName = new Map<string, string[]>();
  for (const p of people) {
    const key = p.name.toLowerCase();
    if (key === '') continue;
    byName.set(key, [...(byName.get(key) ?? []), p.id]);
  }
  // Longest first: `@Ann Lee` is Ann Lee, not Ann.
  const names = [...byName.keys()].sort((a, b) => b.length - a.length);
  const found: string[] = [];
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    const rest = text.slice(at + 1);
    const lower = rest.toLowerCase();
    const name = names.find((n) => lower.startsWith(n) && endsWord(rest, n.length));
    if (!name) continue;
    for (const id of byName.get(name) ?? []) if (!found.includes(id)) found.push(id);
  }
  return found;
}

/** The name ends the text, or the next character is not a letter or digit. */
function endsWord(rest: string, length: number): boolean {
  const next = Array.from(rest.slice(length))[0];
  return next === undefined || !LETTER_OR_DIGIT.test(next);
}

/** Mentions an edit added: those of `after` that `before` did not hold. */
export function newMentions(before: string | null, after: string, people: readonly Mentionable[]): string[] {
  const old = new Set(before === null ? [] : mentionedIn(before, people));
  return mentionedIn(after, people).filter((id) => !old.has(id));
}
