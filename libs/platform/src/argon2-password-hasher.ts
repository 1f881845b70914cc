import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { PasswordHasher } from '@board/accounts';

// OWASP's floor for argon2id: 19 MiB, two passes, one lane.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

@Injectable()
export class Argon2PasswordHasher extends PasswordHasher {
  private dummy?: Promise<string>;

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  async verifyNothing(password: string): Promise<void> {
    this.dummy ??= argon2.hash('not a password of anybody', OPTIONS);
    await this.verify(await this.dummy, password);
  }
}
