import { DomainError } from '@board/kernel';
import { CommonPasswords, refuseCommonPassword } from './common-passwords';

class ListOf extends CommonPasswords {
  constructor(private readonly entries: Set<string>) {
    super();
  }
  contains(lowered: string): boolean {
    return this.entries.has(lowered);
  }
}

describe('refuseCommonPassword', () => {
  const list = new ListOf(new Set(['password1', 'iloveyou']));

  it('refuses a listed password whatever its case', () => {
    for (const password of ['password1', 'PassWord1', 'ILOVEYOU']) {
      let refusal: unknown;
      try {
        refuseCommonPassword(list, password);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(DomainError);
      expect((refusal as DomainError).code).toBe('account.password_common');
    }
  });

  it('lets any other password through, as sent', () => {
    expect(() => refuseCommonPassword(list, 'correct horse')).not.toThrow();
    expect(() => refuseCommonPassword(list, ' password1')).not.toThrow();
  });
});
