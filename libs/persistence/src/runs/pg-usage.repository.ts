import { Injectable } from '@nestjs/common';
import { BudgetDay, UsageRepository } from '@board/runs';
import type { UsageIncrease } from '@board/runs';
import { Database } from '../database';
import { sql } from '../sql';

/** PostgreSQL's bigint ceiling, as text (past a double's exact range). */
const BIGINT_MAX = '9223372036854775807';

@Injectable()
export class PgUsageRepository extends UsageRepository {
  constructor(private readonly db: Database) {
    super();
  }

  /**
   * One statement: the run's row of the day grows, and so does the project's row of the day,
   * whose new total it answers. Concurrent bookings of one project wait on that row in turn, so
   * each sees the others' cost and exactly one sees the budget crossed.
   */
  async book(input: { projectId: string; runId: string; agentId: string | null; day: string; increase: UsageIncrease }): Promise<number> {
    const { projectId, runId, agentId, day, increase: u } = input;
    const row = await this.db.single<{ cost: string }>(
      sql`WITH booked AS (
            INSERT INTO usage_days (project_id, run_id, day, agent_id, input_tokens, output_tokens, cost_micros)
            VALUES (${projectId}, ${runId}, ${day}::date, ${agentId}, ${u.inputTokens}, ${u.outputTokens}, ${u.costMicros})
            ON CONFLICT (project_id, run_id, day) DO UPDATE
              SET input_tokens = usage_days.input_tokens + EXCLUDED.input_tokens,
                  output_tokens = usage_days.output_tokens + EXCLUDED.output_tokens,
                  cost_micros = usage_days.cost_micros + EXCLUDED.cost_micros)
          INSERT INTO usage_project_days (project_id, day, cost_micros) VALUES (${projectId}, ${day}::date, ${u.costMicros})
          ON CONFLICT (project_id, day) DO UPDATE SET cost_micros = CASE
            -- Saturates instead of overflowing bigint: thousands of runs each at the 10^15 bound of a
            -- run's cost could pass it, and a budget compares fine against the ceiling.
            WHEN usage_project_days.cost_micros > ${BIGINT_MAX}::bigint - EXCLUDED.cost_micros THEN ${BIGINT_MAX}::bigint
            ELSE usage_project_days.cost_micros + EXCLUDED.cost_micros END
          RETURNING cost_micros AS cost`,
    );
    return Number(row.cost);
  }

  async budgetDay(projectId: string, day: string): Promise<BudgetDay> {
    const row = await this.db.single<{ budget: string | null; cost: string | null }>(
      sql`SELECT p.daily_budget_micros AS budget, u.cost_micros AS cost
            FROM projects p LEFT JOIN usage_project_days u ON u.project_id = p.id AND u.day = ${day}::date
           WHERE p.id = ${projectId}`,
    );
    return { budgetMicros: row.budget === null ? null : Number(row.budget), costMicros: Number(row.cost ?? 0) };
  }
}
