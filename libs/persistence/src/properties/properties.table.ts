import { raw } from '../sql';

/** The columns of `properties` as a PropertyRecord names them. */
export const PROPERTY_COLUMNS = raw(`id, project_id AS "projectId", name, type, position, config, created_at AS "createdAt"`);
