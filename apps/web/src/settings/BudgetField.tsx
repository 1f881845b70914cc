import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { get, patch } from '../api/client';
import type { Board, Project } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { formatCost, microsToUnits, unitsToMicros } from '../ui/money';

/** The service's own sentence, said here too for what never reaches it (letters in the field). */
const BUDGET_INVALID = 'The daily budget is a whole number above zero, or null.';

/**
 * The project as the project list reads it (undefined while it is read). The board read's project
 * keeps to the contract's six fields, so the settings it leaves out (releases, sprints, the daily
 * budget) come from here, as the charts page reads projects.
 */
export function useListedProject(projectId: string): Project | null | undefined {
  const projects = useQuery({ queryKey: ['projects'], queryFn: async () => (await get<{ projects: Project[] }>('/projects')).projects });
  if (!projects.data) return undefined;
  return projects.data.find((p) => p.id === projectId) ?? null;
}

/** The project's daily budget in micros (null: none; undefined while it is read). */
export function useDailyBudget(projectId: string): number | null | undefined {
  const listed = useListedProject(projectId);
  return listed === undefined ? undefined : (listed?.dailyBudgetMicros ?? null);
}

/**
 * The project's daily budget for its agents, typed in the team's currency units and sent in
 * micros (1 unit = 1,000,000); an empty field is no budget. Owner and admins set it; the service
 * checks the number and its refusal is shown as it comes.
 */
export function BudgetField({ board, admin }: { board: Board; admin: boolean }) {
  const qc = useQueryClient();
  const p = board.project;
  const read = useDailyBudget(p.id);
  const saved = read ?? null;
  const [units, setUnits] = useState(saved === null ? '' : microsToUnits(saved));
  const act = useAction();
  useEffect(() => {
    setUnits(saved === null ? '' : microsToUnits(saved));
  }, [saved]);
  if (read === undefined) return null;
  if (!admin) {
    return <p className="muted">Daily budget for agents: {saved === null ? 'none' : formatCost(saved)}</p>;
  }
  return (
    <form
      className="inline-form"
      aria-label="Daily budget"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const input = e.currentTarget.elements.namedItem('budget') as HTMLInputElement;
        const micros = unitsToMicros(units);
        if (input.validity.badInput || (units.trim() !== '' && micros === null)) {
          act.setError(BUDGET_INVALID);
          return;
        }
        void act.run(async () => {
          await patch(`/projects/${p.id}`, { dailyBudgetMicros: micros });
          await qc.invalidateQueries({ queryKey: ['projects'] });
          await qc.invalidateQueries({ queryKey: ['project-extra', p.id] });
        });
      }}
    >
      <label>
        Daily budget for agents
        <input name="budget" type="number" inputMode="decimal" min="0" step="any" value={units} placeholder="No budget" aria-describedby="budget-help" onChange={(e) => setUnits(e.target.value)} />
      </label>
      <button type="submit" disabled={act.busy}>Save budget</button>
      <p id="budget-help" className="muted">In your team’s currency, per UTC day. Empty: no budget. When the day’s cost reaches it, running agents are asked to pause and new claims wait.</p>
      <ErrorLine error={act.error} />
    </form>
  );
}
