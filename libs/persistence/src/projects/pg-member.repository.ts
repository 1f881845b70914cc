import { Injectable } from '@nestjs/common';
import { fail, rankBetween } from '@board/kernel';
import { MemberRepository, Membership, Role } from '@board/projects';
import { Database, pgErrorCode } from '../database';
import { sql } from '../sql';
import { INVITE_COLUMNS, INVITE_GRANT_COLUMNS, InviteGrantRow, InviteRow, toInvite } from './invites.table';
import { MEMBER_PLACE_COLUMNS, MemberPlaceRow, MEMBERSHIP_COLUMNS, MembershipRow, toMembership } from './members.table';

@Injectable()
export class PgMemberRepository extends MemberRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async find(projectId: string, userId: string): Promise<Membership | null> {
    const row = await this.db.one<MembershipRow>(
      sql`SELECT ${MEMBERSHIP_COLUMNS} FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ${projectId} AND m.user_id = ${userId}`,
      { prepare: true },
    );
    return row ? toMembership(projectId, userId, row) : null;
  }

  async add(projectId: string, userId: string, role: Role): Promise<void> {
    const last = await this.db.one<Pick<MemberPlaceRow, 'position'>>(
      sql`SELECT position FROM members WHERE user_id = ${userId} ORDER BY position COLLATE "C" DESC LIMIT 1`,
    );
    try {
      const position = rankBetween(last?.position ?? null, null);
      await this.db.exec(sql`INSERT INTO members (project_id, user_id, role, position) VALUES (${projectId}, ${userId}, ${role}, ${position})`);
    } catch (error) {
      if (pgErrorCode(error).code === '23505') fail('member.already');
      throw error;
    }
  }

  async setRole(projectId: string, userId: string, role: Role): Promise<void> {
    await this.db.exec(sql`UPDATE members SET role = ${role} WHERE project_id = ${projectId} AND user_id = ${userId}`);
    this.db.credentialsChanged();
  }

  async remove(projectId: string, userId: string): Promise<void> {
    await this.db.exec(sql`DELETE FROM members WHERE project_id = ${projectId} AND user_id = ${userId}`);
    this.db.credentialsChanged();
  }

  async place(userId: string, projectId: string, afterProjectId: string | null): Promise<void> {
    const rows = await this.db.query<MemberPlaceRow>(
      sql`SELECT ${MEMBER_PLACE_COLUMNS} FROM members WHERE user_id = ${userId} AND project_id <> ${projectId} ORDER BY position COLLATE "C"`,
    );
    const at = afterProjectId === null ? -1 : rows.findIndex((r) => r.project_id === afterProjectId);
    // An unknown project to follow reads as "first", like a null one.
    const before = at >= 0 ? rows[at].position : null;
    const after = at >= 0 ? (rows[at + 1]?.position ?? null) : (rows[0]?.position ?? null);
    const position = rankBetween(before, after);
    await this.db.exec(sql`UPDATE members SET position = ${position} WHERE user_id = ${userId} AND project_id = ${projectId}`);
  }

  async addInvite(projectId: string, email: string, role: 'member' | 'admin'): Promise<{ email: string; createdAt: Date }> {
    const row = await this.db.single<InviteRow>(
      sql`INSERT INTO invites (project_id, email, role) VALUES (${projectId}, ${email}, ${role})
          ON CONFLICT (project_id, email) DO UPDATE SET role = EXCLUDED.role
          RETURNING ${INVITE_COLUMNS}`,
    );
    return toInvite(row);
  }

  async removeInvite(projectId: string, email: string): Promise<boolean> {
    return (await this.db.exec(sql`DELETE FROM invites WHERE project_id = ${projectId} AND email = lower(${email})`)).count > 0;
  }

  async acceptInvites(email: string, userId: string): Promise<void> {
    const invites = await this.db.query<InviteGrantRow>(
      sql`DELETE FROM invites WHERE email = lower(${email}) RETURNING ${INVITE_GRANT_COLUMNS}`,
    );
    for (const invite of invites) {
      const existing = await this.find(invite.project_id, userId);
      if (!existing) await this.add(invite.project_id, userId, invite.role);
    }
  }

  async inProjectsBeyond(userId: string, managerId: string): Promise<boolean> {
    const row = await this.db.one(
      sql`SELECT 1 FROM members m
           WHERE m.user_id = ${userId}
             AND NOT EXISTS (SELECT 1 FROM members c WHERE c.project_id = m.project_id AND c.user_id = ${managerId} AND c.role IN ('owner', 'admin'))
           LIMIT 1`,
    );
    return row !== null;
  }

  async hasInvite(email: string): Promise<boolean> {
    return (await this.db.one(sql`SELECT 1 FROM invites WHERE email = lower(${email}) LIMIT 1`)) !== null;
  }
}
