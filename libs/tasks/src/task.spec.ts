import { isTextClash } from './task';

describe('isTextClash: an edit of title or description against its base', () => {
  it('never clashes without a base or without a new text', () => {
    expect(isTextClash('Theirs', 'Mine', undefined)).toBe(false);
    expect(isTextClash('Theirs', undefined, 'Old')).toBe(false);
  });

  it('clashes when the saved text is neither the base nor the new text', () => {
    expect(isTextClash('Theirs', 'Mine', 'Old')).toBe(true);
  });

  it('does not clash when the saved text is still the base, or already the new text', () => {
    expect(isTextClash('Old', 'Mine', 'Old')).toBe(false);
    expect(isTextClash('Mine', 'Mine', 'Old')).toBe(false);
  });
});
