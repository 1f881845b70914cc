import { ThrottleTake } from '@board/accounts';
import { raw } from '../sql';

/** `board_throttle_take(…)` over `throttle_failures`: the id of the try it counted, or the oldest try of the window when it counted none. */
export const THROTTLE_TAKE_COLUMNS = raw('taken_id, oldest');

export interface ThrottleTakeRow {
  taken_id: string | null;
  oldest: Date | null;
}

export const toThrottleTake = (r: ThrottleTakeRow): ThrottleTake => {
  if (r.taken_id) return { counted: true, id: String(r.taken_id) };
  // The function answers the oldest try whenever it counts nothing.
  if (!r.oldest) throw new Error('board_throttle_take answered neither a counted try nor the oldest one');
  return { counted: false, oldest: r.oldest };
};
