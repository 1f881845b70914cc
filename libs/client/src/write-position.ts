/**
 * Read-your-writes with read replicas (docs/operating.md › Read replicas): an answer to a write
 * carries `x-service-lsn`, where the write ended in the primary's log (`16B/374D8A0`), and a
 * caller that sends the newest it has seen back on every request reads from a replica only once it
 * shows that write. The client and the board page keep it here. A service without replicas never
 * sends one, and then nothing is sent back.
 */
export const POSITION_HEADER = 'x-service-lsn';

const TEXT = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

function valueOf(position: string | null | undefined): bigint | null {
  const match = position ? TEXT.exec(position) : null;
  return match ? (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`) : null;
}

/** The later of the position kept and the one an answer carries (answers may arrive out of order). */
export function laterPosition(kept: string | undefined, answered: string | null | undefined): string | undefined {
  const next = valueOf(answered);
  if (next === null) return kept;
  const now = valueOf(kept);
  return now === null || next > now ? answered! : kept;
}
