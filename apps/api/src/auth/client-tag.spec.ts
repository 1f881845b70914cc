import { clientTag } from './auth-context';

const tagOf = (value: unknown) => clientTag({ headers: value === undefined ? {} : { 'x-service-client': value } });

describe('the x-service-client tag', () => {
  it('takes 1 to 200 printable ASCII characters as they are', () => {
    expect(tagOf('tab-1')).toBe('tab-1');
    expect(tagOf(' a b ~')).toBe(' a b ~');
    expect(tagOf('x'.repeat(200))).toBe('x'.repeat(200));
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['201 characters', 'x'.repeat(201)],
    ['8000 characters', 'y'.repeat(8000)],
    ['a control character', 'tab\t1'],
    ['DEL', 'tab\x7f'],
    ['a NUL', 'tab\u00001'],
    ['Latin-1 as Node reads it', 'caf\u00e9'],
    ['an emoji', 'tab-\u{1F600}'],
    ['not a string', ['a', 'b']],
  ])('ignores %s', (_name, value) => {
    expect(tagOf(value)).toBeNull();
  });
});
