import { Injectable } from '@nestjs/common';
import { Database } from '../database';
import { sql } from '../sql';
import { userJson } from '../accounts/users.table';
import { AgentUsage, UsageCounts, UsageQuery } from './usage.query';

interface UsageRow {
  agent: AgentUsage['agent'];
  input_tokens: number;
  output_tokens: number;
  cost_micros: number;
  runs: number;
  daily: Record<string, number>;
}

/**
 * A project's usage over a range of UTC days, summed in PostgreSQL from the rows booked per run
 * and day: one statement, whatever the number of reports. Removed agents keep their user row, so
 * they are still listed.
 */
@Injectable()
export class PgUsageQuery extends UsageQuery {
  constructor(private readonly db: Database) {
    super();
  }

  async read(projectId: string, days: readonly string[]): Promise<{ total: UsageCounts; agents: AgentUsage[] }> {
    const from = days[0];
    const to = days[days.length - 1];
    const rows = await this.db.query<UsageRow>(
      sql`WITH booked AS (
            SELECT agent_id, run_id, day, input_tokens, output_tokens, cost_micros FROM usage_days
             WHERE project_id = ${projectId} AND day BETWEEN ${from}::date AND ${to}::date
               AND (input_tokens > 0 OR output_tokens > 0 OR cost_micros > 0)),
          by_day AS (SELECT agent_id, day, sum(cost_micros) AS cost FROM booked GROUP BY agent_id, day)
          SELECT ${userJson('u')} AS agent,
                 sum(b.input_tokens)::float8 AS input_tokens, sum(b.output_tokens)::float8 AS output_tokens,
                 sum(b.cost_micros)::float8 AS cost_micros, count(DISTINCT b.run_id)::int AS runs,
                 (SELECT json_object_agg(d.day::text, d.cost::float8) FROM by_day d WHERE d.agent_id IS NOT DISTINCT FROM b.agent_id) AS daily
            FROM booked b JOIN users u ON u.id = b.agent_id
           GROUP BY b.agent_id, u.id
           ORDER BY sum(b.cost_micros) DESC, u.name, u.id`,
    );
    const runs = await this.db.single<{ runs: number }>(
      sql`SELECT count(DISTINCT run_id)::int AS runs FROM usage_days
           WHERE project_id = ${projectId} AND day BETWEEN ${from}::date AND ${to}::date
             AND (input_tokens > 0 OR output_tokens > 0 OR cost_micros > 0)`,
    );
    const agents = rows.map((r) => ({
      agent: r.agent,
      inputTokens: r.input_tokens,
      outputTokens: r.output_tokens,
      costMicros: r.cost_micros,
      runs: r.runs,
      daily: days.map((day) => r.daily[day] ?? 0),
    }));
    const sum = (pick: (a: AgentUsage) => number) => agents.reduce((n, a) => n + pick(a), 0);
    return {
      total: { inputTokens: sum((a) => a.inputTokens), outputTokens: sum((a) => a.outputTokens), costMicros: sum((a) => a.costMicros), runs: runs.runs },
      agents,
    };
  }
}
