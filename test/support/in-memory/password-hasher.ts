import { PasswordHasher } from '@board/accounts';

/** A hasher without the cost: `hashed:<password>`. Counts the dummy checks an unknown email pays. */
export class PlainPasswordHasher extends PasswordHasher {
  dummyChecks = 0;

  async hash(password: string): Promise<string> {
    return `hashed:${password}`;
  }

  async verify(hash: string, password: string): Promise<boolean> {
    return hash === `hashed:${password}`;
  }

  async verifyNothing(): Promise<void> {
    this.dummyChecks++;
  }
}
