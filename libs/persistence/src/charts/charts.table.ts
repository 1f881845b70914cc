import { raw } from '../sql';

/** Table `charts`: a person's charts (`user_id` owns them). The columns of a `ChartRecord`, under its names. */
export const CHART_COLUMNS = raw(`id, user_id AS "userId", name, kind, project_ids::text[] AS "projectIds", property_id AS "propertyId", created_at AS "createdAt"`);
