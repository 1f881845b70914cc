import { Injectable } from '@nestjs/common';
import { User, UserRepository } from '@board/accounts';
import { fail } from '@board/kernel';
import { Database, pgErrorCode } from '../database';
import { sql } from '../sql';
import { toUser, USER_COLUMNS, USER_READ_COLUMNS, UserRow } from './users.table';

export { toUser } from './users.table';

@Injectable()
export class PgUserRepository extends UserRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async findById(id: string): Promise<User | null> {
    const row = await this.db.one<UserRow>(sql`SELECT ${USER_READ_COLUMNS} FROM users WHERE id = ${id}`);
    return row ? toUser(row) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = await this.db.one<UserRow>(sql`SELECT ${USER_READ_COLUMNS} FROM users WHERE lower(email) = lower(${email}) ORDER BY email_twin LIMIT 1`);
    return row ? toUser(row) : null;
  }

  async findAllByEmail(email: string): Promise<User[]> {
    const rows = await this.db.query<UserRow>(sql`SELECT ${USER_READ_COLUMNS} FROM users WHERE lower(email) = lower(${email}) ORDER BY email_twin`);
    return rows.map(toUser);
  }

  async insert(user: User): Promise<void> {
    const u = user.snapshot;
    try {
      await this.db.exec(
        sql`INSERT INTO users (${USER_COLUMNS})
            VALUES (${u.id}, ${u.kind}, ${u.email}, ${u.name}, ${u.color}, ${u.emoji}, ${u.passwordHash}, ${u.projectId}, ${u.createdAt}, ${u.mailNotifications})`,
      );
    } catch (error) {
      if (pgErrorCode(error).constraint === 'users_email_key') fail('account.email_taken');
      throw error;
    }
  }

  async save(user: User): Promise<void> {
    const u = user.snapshot;
    await this.db.exec(sql`UPDATE users SET name = ${u.name}, color = ${u.color}, emoji = ${u.emoji}, password_hash = ${u.passwordHash},
                                     mail_notifications = ${u.mailNotifications} WHERE id = ${u.id}`);
    // The name, colour and emoji a credential check answers (feed lines carry them) may have changed.
    this.db.credentialsChanged();
  }
}
