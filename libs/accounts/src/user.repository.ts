import { User } from './user';

export abstract class UserRepository {
  abstract findById(id: string): Promise<User | null>;
  /** The account of a normalised email; when accounts share it (see findAllByEmail), the oldest. */
  abstract findByEmail(email: string): Promise<User | null>;
  /**
   * Every account of a normalised email, oldest first. Usually one; more only where emails that
   * differed before normalisation became equal (migration 1764460800000 kept them all).
   */
  abstract findAllByEmail(email: string): Promise<User[]>;
  /** Refuses with account.email_taken when the lower-cased email is already used. */
  abstract insert(user: User): Promise<void>;
  abstract save(user: User): Promise<void>;
}
