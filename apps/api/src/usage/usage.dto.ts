import { ChartDataQuery } from '../charts/charts.dto';

/** GET /projects/:projectId/usage?from=&to=: days as for charts (UTC; `to` before `from`; the same four refusals). */
export class UsageDaysQuery extends ChartDataQuery {}
