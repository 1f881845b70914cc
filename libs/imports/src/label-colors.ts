import { NOBODY_GREY } from '@board/kernel';

/**
 * Trello's label colours onto the option palette (OPTION_COLORS), each to the nearest hue. Newer
 * exports add shades (`green_dark`, `red_light`): the shade is dropped. No colour, black and
 * anything that is not one of Trello's colour names read as grey, the default option colour. A
 * Map, not an object: a colour named `constructor` or `__proto__` is text, and must not find
 * Object.prototype's members (decisions › Fair use: imported names are data, never code).
 */
const TRELLO_COLORS: ReadonlyMap<string, string> = new Map([
  ['green', '#4f8a5b'],
  ['yellow', '#b6763f'],
  ['orange', '#d1913a'],
  ['red', '#e0574d'],
  ['purple', '#6d5bd0'],
  ['blue', '#4b8fbe'],
  ['sky', '#3fb0c8'],
  ['lime', '#7a8a2f'],
  ['pink', '#c2557a'],
  ['black', NOBODY_GREY],
]);

const baseColor = (color: string | null): string | null => (color ? color.trim().toLowerCase().split('_')[0] : null);

export const labelColor = (color: string | null): string => TRELLO_COLORS.get(baseColor(color) ?? '') ?? NOBODY_GREY;

/** The name an unnamed label takes: its colour's ("Green", "Sky", "Green dark"), or "No colour". */
export function colorName(color: string | null): string {
  const words = (color ?? '').trim().toLowerCase().split('_').filter((w) => w !== '');
  if (words.length === 0) return 'No colour';
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
