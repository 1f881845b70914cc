import { isSingleEmoji } from './emoji';

describe('isSingleEmoji', () => {
  it.each([
    ['a plain emoji', '😀'],
    ['a skin-tone emoji', '👍🏽'],
    ['a ZWJ family', '👨‍👩‍👧'],
    ['a flag (regional indicator pair)', '🇫🇷'],
    ['a tag-sequence flag (Scotland)', '🏴󠁧󠁢󠁳󠁣󠁴󠁿'],
    ['a heart with variation selector', '❤️'],
    ['a keycap', '1️⃣'],
  ])('accepts %s', (_label, value) => {
    expect(isSingleEmoji(value)).toBe(true);
  });

  it.each([
    ['a letter', 'a'],
    ['two letters', 'ab'],
    ['two emoji', '😀😀'],
    ['the empty string', ''],
    ['a space', ' '],
    ['a digit', '1'],
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['an emoji with a trailing space', '😀 '],
    ['an emoji with a leading space', ' 😀'],
    ['a lone regional indicator', '🇫'],
    ['two flags', '🇫🇷🇩🇪'],
    ['an emoji and a letter', '😀a'],
    ['an array holding an emoji', ['😀']],
  ])('refuses %s', (_label, value) => {
    expect(isSingleEmoji(value)).toBe(false);
  });
});
