import { raw } from '../sql';

/** `object_deletions o`: the bucket key a claim hands to the sweep. */
export const OBJECT_DELETION_COLUMNS = raw('o.key');

export interface ObjectDeletionRow {
  key: string;
}

export const toObjectKey = (r: ObjectDeletionRow): string => r.key;
