import { DoneWhen, Project } from '@board/projects';
import { raw } from '../sql';

/** `projects`: the columns the aggregate reads (card view and the rest belong to other features). */
export const PROJECT_COLUMNS = raw('id, name, key, owner_id, done_when, releases, sprints, rules_text, rules_updated_at, created_at, daily_budget_micros');

export interface ProjectRow {
  id: string;
  name: string;
  key: string;
  owner_id: string;
  done_when: DoneWhen | null;
  releases: boolean;
  sprints: boolean;
  rules_text: string;
  rules_updated_at: Date | null;
  created_at: Date;
  /** bigint: text from pg. */
  daily_budget_micros: string | null;
}

export const toProject = (r: ProjectRow): Project =>
  Project.restore({
    id: r.id,
    name: r.name,
    key: r.key,
    ownerId: r.owner_id,
    doneWhen: r.done_when,
    releases: r.releases,
    sprints: r.sprints,
    rulesText: r.rules_text,
    rulesUpdatedAt: r.rules_updated_at,
    createdAt: r.created_at,
    dailyBudgetMicros: r.daily_budget_micros === null ? null : Number(r.daily_budget_micros),
  });
