import { raw } from '../sql';

/** The columns of `options` as an OptionRecord names them (days as `YYYY-MM-DD`). */
export const OPTION_COLUMNS = raw(`id, property_id AS "propertyId", name, color, position,
  to_char(starts_on, 'YYYY-MM-DD') AS "startsOn", to_char(target_on, 'YYYY-MM-DD') AS "targetOn", note,
  to_char(shipped_at, 'YYYY-MM-DD') AS "shippedAt"`);
