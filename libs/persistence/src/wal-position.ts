/**
 * A position in the primary's write-ahead log (an LSN), as a number that compares: a replica that
 * has replayed up to position P shows every transaction whose commit record ends at or before P.
 * Callers carry it as PostgreSQL writes it, `16B/374D8A0` (two hex numbers of 32 bits).
 */
export type WalPosition = bigint;

const TEXT = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** The position a caller sent (header or cookie); anything else reads as none, never as an error. */
export function readWalPosition(text: string | null | undefined): WalPosition | null {
  const match = text ? TEXT.exec(text.trim()) : null;
  return match ? (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`) : null;
}

export function walPositionText(position: WalPosition): string {
  return `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;
}

export function laterOf(a: WalPosition | null, b: WalPosition | null): WalPosition | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

/**
 * The primary's insert position: at or after the end of every record written so far, commit
 * records of transactions not yet flushed (synchronous_commit off) included, so every commit a
 * reader of the primary could see. `pg_current_wal_lsn()` (the write position) may lag those.
 *
 * One correction: when the last record ends exactly at a page boundary, the insert position
 * points past the next page's header (24 bytes, 40 at the start of a segment) while a replica
 * that replayed that record reports the boundary itself; an idle primary would then look ahead
 * of a replica that has everything. No record ends inside a page header, so the boundary stands
 * for the same state.
 */
export const PRIMARY_POSITION_TEXT =
  "SELECT (CASE WHEN o.off = 40 THEN p.l - 40::numeric WHEN o.off % current_setting('wal_block_size')::int = 24 THEN p.l - 24::numeric ELSE p.l END)::text AS position" +
  ' FROM (SELECT pg_current_wal_insert_lsn() AS l) p, LATERAL (SELECT (pg_walfile_name_offset(p.l)).file_offset AS off) o';

/** What a replica has replayed (null on a server that is not replaying: a primary, or a promoted replica). */
export const REPLAYED_POSITION_TEXT = 'SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() END)::text AS position';

/**
 * One request's part in read-your-writes: the newest position its caller sent (what it wrote or
 * was told of before) and the newest its own writes ended at. Its replica reads must show both.
 */
export class PositionTrack {
  private wroteAt: WalPosition | null = null;

  constructor(readonly seen: WalPosition | null) {}

  /** Where this request's reads must start. */
  get floor(): WalPosition | null {
    return laterOf(this.seen, this.wroteAt);
  }

  /** The newest position this request's writes ended at, as the caller sends it back; null when it wrote nothing. */
  get wrote(): string | null {
    return this.wroteAt === null ? null : walPositionText(this.wroteAt);
  }

  noteWrite(position: WalPosition): void {
    this.wroteAt = laterOf(this.wroteAt, position);
  }
}
