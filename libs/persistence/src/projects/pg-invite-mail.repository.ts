import { Injectable } from '@nestjs/common';
import { INVITE_MAIL_WINDOW_MS, INVITE_MAILS_PER_SENDER, InviteMailRepository, InviteMailTake, retryAfterSeconds } from '@board/projects';
import { Database } from '../database';
import { advisoryXactLock, inviteAddressLockKey, inviteSenderLockKey } from '../locks.sql';
import { sql } from '../sql';
import { INVITE_MAIL_CHECK_COLUMNS, InviteMailCheckRow } from './invite-mails.table';

/**
 * The invite mails sent (`invite_mails`), in PostgreSQL so every instance counts the same. A take
 * runs inside the add's transaction and holds two advisory locks until it commits — the address
 * in the project, then the sender (always in that order, so two takes cannot wait on each other)
 * — so of concurrent adds each reads what the ones before it counted.
 */
@Injectable()
export class PgInviteMailRepository extends InviteMailRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async take({ projectId, email, senderId, now }: { projectId: string; email: string; senderId: string; now: Date }): Promise<InviteMailTake> {
    await this.db.exec(advisoryXactLock(inviteAddressLockKey(projectId, email)));
    await this.db.exec(advisoryXactLock(inviteSenderLockKey(senderId)));
    const since = new Date(now.getTime() - INVITE_MAIL_WINDOW_MS);
    const check = await this.db.single<InviteMailCheckRow>(
      sql`SELECT ${INVITE_MAIL_CHECK_COLUMNS} FROM (SELECT
          EXISTS (SELECT 1 FROM invite_mails WHERE project_id = ${projectId} AND email = ${email} AND sent_at > ${since}) AS repeat,
          (SELECT sent_at FROM invite_mails WHERE sender_id = ${senderId} AND sent_at > ${since}
            ORDER BY sent_at DESC OFFSET ${INVITE_MAILS_PER_SENDER - 1} LIMIT 1) AS at_limit) c`,
    );
    if (check.repeat) return { kind: 'repeat' };
    if (check.at_limit) return { kind: 'limit', retryAfterSeconds: retryAfterSeconds(check.at_limit, now) };
    await this.db.exec(
      sql`INSERT INTO invite_mails (project_id, email, sender_id, sent_at) VALUES (${projectId}, ${email}, ${senderId}, ${now})`,
    );
    return { kind: 'send' };
  }

  async prune(before: Date): Promise<number> {
    return (await this.db.exec(sql`DELETE FROM invite_mails WHERE sent_at < ${before}`)).count;
  }
}
