import { raw } from '../sql';

/**
 * What a take reads under its locks: whether the address had a mail from the project in the
 * window, and the sent time of the sender's mail that sits at the limit (null while below it).
 */
export const INVITE_MAIL_CHECK_COLUMNS = raw('repeat, at_limit');

export interface InviteMailCheckRow {
  repeat: boolean;
  at_limit: Date | null;
}
