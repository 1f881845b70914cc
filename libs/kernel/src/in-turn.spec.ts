import { DomainError, fail } from './domain-error';
import { inTurn, passedOrNone, readAlready, readInTurn } from './in-turn';

describe('readInTurn / inTurn', () => {
  it('keeps what a reader answered', () => {
    expect(inTurn(readInTurn(() => 'Ada'))).toBe('Ada');
    expect(inTurn(readAlready(3))).toBe(3);
  });

  it('keeps a refusal and raises it only when taken', () => {
    const read = readInTurn(() => fail('id.invalid', { kind: 'option' }));
    expect('refusal' in read).toBe(true);
    let raised: unknown;
    try {
      inTurn(read);
    } catch (error) {
      raised = error;
    }
    expect(raised).toBeInstanceOf(DomainError);
    expect(raised).toMatchObject({ code: 'id.invalid', params: { kind: 'option' } });
  });

  it('lets an error that is not a refusal through at once', () => {
    expect(() =>
      readInTurn(() => {
        throw new TypeError('bug');
      }),
    ).toThrow(TypeError);
  });

  it('answers a passed value, or none for a refusal or nothing sent', () => {
    expect(passedOrNone(readAlready('#aabbcc'))).toBe('#aabbcc');
    expect(passedOrNone(readInTurn(() => fail('option.color_invalid')))).toBeUndefined();
    expect(passedOrNone(undefined)).toBeUndefined();
  });
});
