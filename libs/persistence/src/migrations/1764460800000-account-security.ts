import { Logger } from '@nestjs/common';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { normalizeEmail } from '@board/accounts';

/**
 * Issue 19, points 1, 2 and 5.
 *
 * A member reset link remembers who made it (`reset_tokens.made_by`): at use, a link whose person
 * has since joined a project its maker does not manage (or whose maker lost the role) is dead.
 *
 * Throttles hold under concurrency: `board_throttle_take` counts a try before it is judged, in one
 * round trip. It takes an advisory lock per family and subject, then (each statement of a
 * volatile function sees what committed before the lock was granted) counts the window and
 * inserts the try only while fewer than the limit are there. Fifty tries at once from one
 * address: ten are counted and judged, forty are told to wait.
 *
 * Emails are compared as people read them: every stored email (users and invites) is rewritten
 * in its normalised form (trimmed, lower-cased, NFKC; the same `normalizeEmail` the service uses,
 * computed here rather than with PostgreSQL's lower(), which depends on the server's locale).
 * Two accounts whose emails become equal are both kept: `email_twin` numbers them, oldest 0, so
 * the unique index still refuses any new account for that email; sign-in tries the password of
 * each, oldest first, so neither loses access. Two invites of one project that become equal are
 * one invite: the oldest is kept. Both cases are logged (ids and counts, never an email).
 */
export class AccountSecurity1764460800000 implements MigrationInterface {
  name = 'AccountSecurity1764460800000';

  async up(q: QueryRunner): Promise<void> {
    const log = new Logger('migrations');
    await q.query(`
      CREATE FUNCTION board_throttle_take(p_family text, p_subject text, p_at timestamptz, p_since timestamptz, p_limit integer)
      RETURNS TABLE (taken_id bigint, oldest timestamptz)
      LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_count integer;
        v_oldest timestamptz;
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtextextended(p_family || ':' || p_subject, 19));
        SELECT count(*), min(r.at) INTO v_count, v_oldest
          FROM (SELECT f.at FROM throttle_failures f
                 WHERE f.family = p_family AND f.subject = p_subject AND f.at >= p_since
                 ORDER BY f.at DESC LIMIT p_limit) r;
        IF v_count >= p_limit THEN
          RETURN QUERY SELECT NULL::bigint, v_oldest;
          RETURN;
        END IF;
        RETURN QUERY INSERT INTO throttle_failures (family, subject, at) VALUES (p_family, p_subject, p_at)
          RETURNING throttle_failures.id, NULL::timestamptz;
      END $$;

      ALTER TABLE users ADD COLUMN email_twin integer NOT NULL DEFAULT 0;
      DROP INDEX users_email_key;

      -- Who made a member reset link (null: asked for by mail), so its use is checked again.
      ALTER TABLE reset_tokens ADD COLUMN made_by uuid REFERENCES users (id) ON DELETE CASCADE;
    `);

    const users: Array<{ id: string; email: string }> = await q.query(
      `SELECT id, email FROM users WHERE email IS NOT NULL ORDER BY created_at, id`,
    );
    const twins = new Map<string, string[]>();
    for (const user of users) {
      const email = normalizeEmail(user.email);
      twins.set(email, [...(twins.get(email) ?? []), user.id]);
    }
    const ids: string[] = [];
    const emails: string[] = [];
    const ranks: number[] = [];
    for (const [email, group] of twins) {
      group.forEach((id, rank) => {
        ids.push(id);
        emails.push(email);
        ranks.push(rank);
      });
      if (group.length > 1) {
        log.warn(
          `${group.length} accounts now share one email after normalisation; all are kept and each still signs in with its own password (oldest first): ${group.join(', ')}`,
        );
      }
    }
    await q.query(
      `UPDATE users u SET email = n.email, email_twin = n.twin
         FROM unnest($1::uuid[], $2::text[], $3::integer[]) AS n (id, email, twin)
        WHERE u.id = n.id AND (u.email IS DISTINCT FROM n.email OR u.email_twin <> n.twin)`,
      [ids, emails, ranks],
    );
    await q.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email), email_twin) WHERE email IS NOT NULL`);

    const invites: Array<{ project_id: string; email: string }> = await q.query(
      `SELECT project_id, email FROM invites ORDER BY project_id, created_at, email`,
    );
    const keep = new Set<string>();
    const gone: Array<{ projectId: string; email: string }> = [];
    const moved: Array<{ projectId: string; from: string; to: string }> = [];
    for (const invite of invites) {
      const email = normalizeEmail(invite.email);
      const key = `${invite.project_id} ${email}`;
      if (keep.has(key)) gone.push({ projectId: invite.project_id, email: invite.email });
      else {
        keep.add(key);
        if (email !== invite.email) moved.push({ projectId: invite.project_id, from: invite.email, to: email });
      }
    }
    if (gone.length > 0) {
      await q.query(
        `DELETE FROM invites i USING unnest($1::uuid[], $2::text[]) AS g (project_id, email)
          WHERE i.project_id = g.project_id AND i.email = g.email`,
        [gone.map((g) => g.projectId), gone.map((g) => g.email)],
      );
      const projects = [...new Set(gone.map((g) => g.projectId))];
      log.warn(`${gone.length} invites became equal to an older invite of their project after normalisation and were folded into it (projects ${projects.join(', ')})`);
    }
    if (moved.length > 0) {
      await q.query(
        `UPDATE invites i SET email = m.to_email
           FROM unnest($1::uuid[], $2::text[], $3::text[]) AS m (project_id, from_email, to_email)
          WHERE i.project_id = m.project_id AND i.email = m.from_email`,
        [moved.map((m) => m.projectId), moved.map((m) => m.from), moved.map((m) => m.to)],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    // The normalised emails stay. The old index cannot hold twins: with twins left this fails,
    // rather than drop an account.
    await q.query(`
      DROP FUNCTION board_throttle_take(text, text, timestamptz, timestamptz, integer);
      ALTER TABLE reset_tokens DROP COLUMN made_by;
      DROP INDEX users_email_key;
      ALTER TABLE users DROP COLUMN email_twin;
      CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE email IS NOT NULL;
    `);
  }
}
