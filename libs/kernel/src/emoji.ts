const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const REGIONAL_PAIR = /^\p{Regional_Indicator}{2}$/u;
const KEYCAP = /^[0-9#*]\uFE0F?\u20E3$/u;
const TAG_FLAG = /^\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}$/u;

/**
 * Exactly one emoji as a person sees it: one grapheme cluster that is pictographic, so a
 * ZWJ-joined family, a skin-tone emoji and a flag each count as one; letters, digits and two
 * emoji do not.
 */
export function isSingleEmoji(value: unknown): boolean {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return false;
  const graphemes = [...segmenter.segment(value)];
  if (graphemes.length !== 1) return false;
  const g = graphemes[0].segment;
  return PICTOGRAPHIC.test(g) || REGIONAL_PAIR.test(g) || KEYCAP.test(g) || TAG_FLAG.test(g);
}
