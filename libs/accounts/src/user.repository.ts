import { User } from './user';

export abstract class UserRepository {
  abstract findById(id: string): Promise<User | null>;
  abstract findByEmail(email: string): Promise<User | null>;
  /** Refuses with account.email_taken when the lower-cased email is already used. */
  abstract insert(user: User): Promise<void>;
  abstract save(user: User): Promise<void>;
}
