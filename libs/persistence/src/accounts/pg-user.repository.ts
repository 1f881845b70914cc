import { Injectable } from '@nestjs/common';
import { User, UserProps, UserRepository } from '@board/accounts';
import { fail } from '@board/kernel';
import { Database, pgErrorCode } from '../database';

interface UserRow {
  id: string;
  kind: 'human' | 'agent';
  email: string | null;
  name: string;
  color: string;
  emoji: string | null;
  password_hash: string | null;
  project_id: string | null;
  created_at: Date;
}

export const toUser = (r: UserRow): User =>
  User.restore({
    id: r.id,
    kind: r.kind,
    email: r.email,
    name: r.name,
    color: r.color,
    emoji: r.emoji,
    passwordHash: r.password_hash,
    projectId: r.project_id,
    createdAt: r.created_at,
  } satisfies UserProps);

@Injectable()
export class PgUserRepository extends UserRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async findById(id: string): Promise<User | null> {
    const row = await this.db.one<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
    return row ? toUser(row) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = await this.db.one<UserRow>('SELECT * FROM users WHERE lower(email) = lower($1) ORDER BY email_twin LIMIT 1', [email]);
    return row ? toUser(row) : null;
  }

  async findAllByEmail(email: string): Promise<User[]> {
    const rows = await this.db.query<UserRow>('SELECT * FROM users WHERE lower(email) = lower($1) ORDER BY email_twin', [email]);
    return rows.map(toUser);
  }

  async insert(user: User): Promise<void> {
    const u = user.snapshot;
    try {
      await this.db.exec(
        `INSERT INTO users (id, kind, email, name, color, emoji, password_hash, project_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [u.id, u.kind, u.email, u.name, u.color, u.emoji, u.passwordHash, u.projectId, u.createdAt],
      );
    } catch (error) {
      if (pgErrorCode(error).constraint === 'users_email_key') fail('account.email_taken');
      throw error;
    }
  }

  async save(user: User): Promise<void> {
    const u = user.snapshot;
    await this.db.exec(`UPDATE users SET name = $2, color = $3, emoji = $4, password_hash = $5 WHERE id = $1`, [
      u.id,
      u.name,
      u.color,
      u.emoji,
      u.passwordHash,
    ]);
  }
}
