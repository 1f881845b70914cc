import { AVATAR_COLORS, colorFromSeed, isAvatarColor, NOBODY_GREY, OPTION_COLORS } from './avatar';

const SPEC_AVATAR_COLORS = [
  '#e0574d', '#d1913a', '#4f8a5b', '#3fb0c8', '#4b8fbe', '#6d5bd0',
  '#c2557a', '#b6763f', '#2f9e7a', '#7a8a2f', '#3d7fc1',
];

describe('avatar colours', () => {
  it('are the eleven the contract lists, in order', () => {
    expect([...AVATAR_COLORS]).toEqual(SPEC_AVATAR_COLORS);
    expect(AVATAR_COLORS).toHaveLength(11);
  });

  it('offer options the avatar colours plus the nobody grey', () => {
    expect(NOBODY_GREY).toBe('#8b8f98');
    expect([...OPTION_COLORS]).toEqual([...SPEC_AVATAR_COLORS, '#8b8f98']);
  });
});

describe('isAvatarColor', () => {
  it('accepts each of the eleven, in any case', () => {
    for (const c of SPEC_AVATAR_COLORS) {
      expect(isAvatarColor(c)).toBe(true);
      expect(isAvatarColor(c.toUpperCase())).toBe(true);
    }
  });

  it('refuses the grey and anything else', () => {
    expect(isAvatarColor('#8b8f98')).toBe(false);
    expect(isAvatarColor('#000000')).toBe(false);
    expect(isAvatarColor('e0574d')).toBe(false);
    expect(isAvatarColor(' #e0574d')).toBe(false);
    expect(isAvatarColor('')).toBe(false);
  });
});

describe('colorFromSeed', () => {
  it('is deterministic', () => {
    expect(colorFromSeed('ada@example.com')).toBe(colorFromSeed('ada@example.com'));
  });

  it('ignores case and surrounding spaces of the seed', () => {
    expect(colorFromSeed('Ada@Example.COM')).toBe(colorFromSeed('ada@example.com'));
    expect(colorFromSeed('  ada@example.com ')).toBe(colorFromSeed('ada@example.com'));
  });

  it('always answers an avatar colour, never the grey', () => {
    for (let i = 0; i < 200; i++) {
      const c = colorFromSeed(`person${i}@example.com`);
      expect(SPEC_AVATAR_COLORS).toContain(c);
    }
  });

  it('spreads 200 emails over several colours', () => {
    const seen = new Map<string, number>();
    for (let i = 0; i < 200; i++) {
      const c = colorFromSeed(`person${i}@example.com`);
      seen.set(c, (seen.get(c) ?? 0) + 1);
    }
    expect(seen.size).toBeGreaterThanOrEqual(9);
    // No colour takes more than a quarter of the people.
    expect(Math.max(...seen.values())).toBeLessThanOrEqual(50);
  });
});
