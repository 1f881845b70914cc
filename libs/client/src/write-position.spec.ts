import { laterPosition } from './write-position';

describe('laterPosition', () => {
  it('keeps the later of two log positions, comparing both halves as numbers', () => {
    expect(laterPosition(undefined, '0/16B3748')).toBe('0/16B3748');
    expect(laterPosition('0/16B3748', '0/16B3750')).toBe('0/16B3750');
    expect(laterPosition('0/16B3750', '0/16B3748')).toBe('0/16B3750');
    expect(laterPosition('0/FFFFFFFF', '1/0')).toBe('1/0');
    expect(laterPosition('A/0', '9/FFFFFFFF')).toBe('A/0');
  });

  it('ignores an answer without one, or with something else', () => {
    expect(laterPosition('0/10', null)).toBe('0/10');
    expect(laterPosition('0/10', 'soon')).toBe('0/10');
    expect(laterPosition(undefined, '')).toBeUndefined();
  });
});
