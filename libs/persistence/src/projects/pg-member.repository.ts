import { Injectable } from '@nestjs/common';
import { fail, rankBetween } from '@board/kernel';
import { MemberRepository, Membership, Role } from '@board/projects';
import { Database, pgErrorCode } from '../database';

@Injectable()
export class PgMemberRepository extends MemberRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async find(projectId: string, userId: string): Promise<Membership | null> {
    const row = await this.db.one<{ role: Role; kind: 'human' | 'agent' }>(
      `SELECT m.role, u.kind FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = $1 AND m.user_id = $2`,
      [projectId, userId],
      { prepare: true },
    );
    return row ? { projectId, userId, role: row.role, kind: row.kind } : null;
  }

  async add(projectId: string, userId: string, role: Role): Promise<void> {
    const last = await this.db.one<{ position: string }>(
      `SELECT position FROM members WHERE user_id = $1 ORDER BY position COLLATE "C" DESC LIMIT 1`,
      [userId],
    );
    try {
      await this.db.exec(`INSERT INTO members (project_id, user_id, role, position) VALUES ($1, $2, $3, $4)`, [
        projectId, userId, role, rankBetween(last?.position ?? null, null),
      ]);
    } catch (error) {
      if (pgErrorCode(error).code === '23505') fail('member.already');
      throw error;
    }
  }

  async setRole(projectId: string, userId: string, role: Role): Promise<void> {
    await this.db.exec('UPDATE members SET role = $3 WHERE project_id = $1 AND user_id = $2', [projectId, userId, role]);
  }

  async remove(projectId: string, userId: string): Promise<void> {
    await this.db.exec('DELETE FROM members WHERE project_id = $1 AND user_id = $2', [projectId, userId]);
  }

  async place(userId: string, projectId: string, afterProjectId: string | null): Promise<void> {
    const rows = await this.db.query<{ project_id: string; position: string }>(
      `SELECT project_id, position FROM members WHERE user_id = $1 AND project_id <> $2 ORDER BY position COLLATE "C"`,
      [userId, projectId],
    );
    const at = afterProjectId === null ? -1 : rows.findIndex((r) => r.project_id === afterProjectId);
    // An unknown project to follow reads as "first", like a null one.
    const before = at >= 0 ? rows[at].position : null;
    const after = at >= 0 ? (rows[at + 1]?.position ?? null) : (rows[0]?.position ?? null);
    await this.db.exec('UPDATE members SET position = $3 WHERE user_id = $1 AND project_id = $2', [
      userId, projectId, rankBetween(before, after),
    ]);
  }

  async addInvite(projectId: string, email: string, role: 'member' | 'admin'): Promise<{ email: string; createdAt: Date }> {
    const row = await this.db.single<{ email: string; created_at: Date }>(
      `INSERT INTO invites (project_id, email, role) VALUES ($1, $2, $3)
       ON CONFLICT (project_id, email) DO UPDATE SET role = EXCLUDED.role
       RETURNING email, created_at`,
      [projectId, email, role],
    );
    return { email: row.email, createdAt: row.created_at };
  }

  async removeInvite(projectId: string, email: string): Promise<boolean> {
    return (await this.db.exec('DELETE FROM invites WHERE project_id = $1 AND email = lower($2)', [projectId, email])).count > 0;
  }

  async acceptInvites(email: string, userId: string): Promise<void> {
    const invites = await this.db.query<{ project_id: string; role: Role }>(
      'DELETE FROM invites WHERE email = lower($1) RETURNING project_id, role',
      [email],
    );
    for (const invite of invites) {
      const existing = await this.find(invite.project_id, userId);
      if (!existing) await this.add(invite.project_id, userId, invite.role);
    }
  }

  async inProjectsBeyond(userId: string, managerId: string): Promise<boolean> {
    const row = await this.db.one(
      `SELECT 1 FROM members m
        WHERE m.user_id = $1
          AND NOT EXISTS (SELECT 1 FROM members c WHERE c.project_id = m.project_id AND c.user_id = $2 AND c.role IN ('owner', 'admin'))
        LIMIT 1`,
      [userId, managerId],
    );
    return row !== null;
  }

  async hasInvite(email: string): Promise<boolean> {
    return (await this.db.one('SELECT 1 FROM invites WHERE email = lower($1) LIMIT 1', [email])) !== null;
  }
}
