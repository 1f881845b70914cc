import { fail } from '@board/kernel';

/**
 * The published list of the most common passwords (SecLists' top 10,000). A port, because the list
 * is a file shipped by a package: the domain owns the rule, the adapter owns reading the file.
 */
export abstract class CommonPasswords {
  /** `lowered` is already lower-cased; the list's entries are held lower-cased too. */
  abstract contains(lowered: string): boolean;
}

/**
 * Refuses a new password found on the list, whatever its case ("Password1" is as guessable as
 * "password1"). Run after `readNewPassword`, so the eight-character minimum answers first.
 */
export function refuseCommonPassword(list: CommonPasswords, password: string): void {
  if (list.contains(password.toLowerCase())) fail('account.password_common');
}
