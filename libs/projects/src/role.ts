import { fail } from '@board/kernel';

export type Role = 'owner' | 'admin' | 'member';

/** A role that can be given: member or admin (ownership moves only by hand-over). */
export function readGivenRole(value: unknown, fallback: 'member' | 'admin' | undefined): 'member' | 'admin' {
  if (value === undefined && fallback) return fallback;
  if (value !== 'member' && value !== 'admin') fail('member.role_invalid');
  return value as 'member' | 'admin';
}

export const isManager = (role: Role): boolean => role === 'owner' || role === 'admin';
