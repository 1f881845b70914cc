import { User, UserRepository } from '@board/accounts';
import { fail } from '@board/kernel';

/** UserRepository in memory: users kept as snapshots (a saved change is seen, an unsaved one is not). */
export class InMemoryUserRepository extends UserRepository {
  readonly rows = new Map<string, ReturnType<typeof snapshotOf>>();

  async findById(id: string): Promise<User | null> {
    const row = this.rows.get(id);
    return row ? User.restore({ ...row }) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    return (await this.findAllByEmail(email))[0] ?? null;
  }

  async findAllByEmail(email: string): Promise<User[]> {
    return [...this.rows.values()]
      .filter((row) => row.email === email)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map((row) => User.restore({ ...row }));
  }

  async insert(user: User): Promise<void> {
    const email = user.snapshot.email;
    if (email !== null && [...this.rows.values()].some((row) => row.email?.toLowerCase() === email.toLowerCase())) fail('account.email_taken');
    this.rows.set(user.id, snapshotOf(user));
  }

  async save(user: User): Promise<void> {
    this.rows.set(user.id, snapshotOf(user));
  }

  /** Set-up: a user as stored. */
  put(user: User): User {
    this.rows.set(user.id, snapshotOf(user));
    return user;
  }
}

const snapshotOf = (user: User) => ({ ...user.snapshot });
