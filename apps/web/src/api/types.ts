// Shapes of the service's answers (interface.md and decisions.md); the page is typed against these.

export type Uuid = string;
export type Role = 'owner' | 'admin' | 'member';

export interface User { id: Uuid; email: string; name: string; color: string; emoji: string | null }
export interface Person { id: Uuid; name: string; color: string; emoji: string | null }

export interface DoneWhen { propertyId: Uuid; optionIds: Uuid[] }
export interface Project {
  id: Uuid; name: string; key: string; ownerId: Uuid; role: Role; doneWhen: DoneWhen | null;
  releases?: boolean; sprints?: boolean; createdAt?: string; taskCount?: number;
}
export interface Invite { email: string; createdAt: string }
export interface Member extends Person { email: string | null; role: Role; kind: 'human' | 'agent' }

export type PropertyType = 'select' | 'multi_select' | 'iteration' | 'person' | 'text' | 'number' | 'date' | 'checkbox' | 'link';
export const PROPERTY_TYPES: PropertyType[] = ['select', 'multi_select', 'iteration', 'person', 'text', 'number', 'date', 'checkbox', 'link'];
export interface Option {
  id: Uuid; propertyId: Uuid; name: string; color: string; position: string;
  startsOn?: string | null; targetOn?: string | null; note?: string | null; shippedAt?: string | null;
}
export interface Property {
  id: Uuid; projectId?: Uuid; name: string; type: PropertyType; position: string;
  config: { dated?: boolean; defaults?: Record<string, unknown>; when?: { propertyId: Uuid; optionIds: Uuid[] } | null };
  options: Option[];
}

export type FilterOp = 'is' | 'is_not' | 'contains' | 'not_contains' | 'empty' | 'not_empty' | 'eq' | 'gt' | 'lt' | 'on' | 'before' | 'after';
export interface FilterRule { propertyId: Uuid; op: FilterOp; values?: string[]; text?: string }
export interface Sort { columnId: string; direction: 'asc' | 'desc' }
export type ViewKind = 'board' | 'list' | 'roadmap';
export interface View {
  id: Uuid; name: string; kind: ViewKind; groupById: Uuid | null; position: string; isDefault: boolean;
  filters: { rules: FilterRule[] }; lens: { rules: FilterRule[] }; sort: Sort | null; lensSort: Sort | null;
  /** The view's own card view merged over the project's, or null when it follows the project's. */
  cardView?: CardView | null;
}
export interface CardRow { place: 'headerL' | 'headerR' | 'title' | 'footer' | 'off'; mode: 'colour' | 'fixed' | 'text' | 'avatar' }
export interface CardView { rows: Record<string, CardRow> }

export type Values = Record<Uuid, unknown>;
export interface BoardTask {
  id: Uuid; number: number; key: string; title: string; description: string; position: string;
  createdAt: string; updatedAt: string; archivedAt: string | null; values: Values;
  checklistTotal: number; checklistDone: number; commentCount: number; blockedBy: string[];
  parts: { done: number; total: number } | null;
}
export interface ArchivedTask { id: Uuid; number: number; key: string; title: string; description: string; position: string; archivedAt: string }

export type RunStatus = 'running' | 'paused' | 'waiting' | 'handed_over' | 'done' | 'failed' | 'stopped' | 'lost' | 'taken_over';
export interface RunStep { text: string; state: 'done' | 'active' | 'waiting' }
export interface RunLog { at: string; text: string; by: { id: Uuid; name: string } | null }
export interface Run {
  id: Uuid; taskId: Uuid; status: RunStatus; goal: string; step: string; control: string | null;
  startedAt: string; updatedAt: string; reportDueAt: string | null; beatAt: string; endedAt: string | null;
  agent: Person; stepsTotal?: number; stepsDone?: number; lastLog?: string; steps?: RunStep[]; log?: RunLog[];
}

export interface Board {
  project: Project; invites: Invite[]; members: Member[]; properties: Property[]; views: View[];
  cardView: CardView; tasks: BoardTask[]; archived: ArchivedTask[]; runs: Run[]; taskCount?: number;
}

export interface LinkRow { id: Uuid; key: string; title: string; over: boolean }
export interface ChecklistItem { id: Uuid; taskId: Uuid; text: string; done: boolean; position: string }
export interface Comment { id: Uuid; taskId: Uuid; authorId: Uuid; body: string; createdAt: string; editedAt: string | null; author: Person | null }
export interface ActivityEntry { id: Uuid; kind: string; createdAt: string; data: Record<string, any>; actor: Person | null; taskId?: Uuid | null; taskKey?: string | null }
export interface FullTask extends BoardTask {
  links: { blockedBy: LinkRow[]; blocks: LinkRow[] }; parent: LinkRow | null; children: LinkRow[];
  checklist: ChecklistItem[]; comments: Comment[]; activity: ActivityEntry[]; run: Run | null; pastRuns: Run[];
}

export interface DeletedRow { id: Uuid; number: number; key: string; title: string; position: string; deletedAt: string; goesAt: string }
export interface SearchHit { task: { id: Uuid; number: number; key: string; title: string; position: string; archivedAt: string }; snippet: string }

export interface Attachment {
  id: Uuid; taskId: Uuid; uploaderId: Uuid; name: string; mime: string; size: number;
  width: number | null; height: number | null; createdAt: string; url: string;
}
export interface ChangelogEntry {
  optionId: Uuid; propertyId: Uuid; propertyName: string; name: string; shippedAt: string; note: string | null;
  tasks: { id: Uuid; key: string; title: string }[];
}
export interface Webhook { id: Uuid; url: string; kinds: string[]; enabled: boolean; secretPrefix: string; createdAt: string; lastDelivery: Delivery | null }
export interface Delivery { id: Uuid; kind: string; taskKey: string | null; status: 'pending' | 'delivered' | 'dropped'; tries: number; lastCode: number | null; lastError: string | null; createdAt: string; nextTryAt: string | null; deliveredAt: string | null }
export interface Token { id: Uuid; agentId: Uuid; prefix: string; createdAt: string; lastUsedAt: string | null }
export interface Rules { text: string; hash: string; updatedAt: string | null }

export interface TaskList { id: Uuid; name: string; count: number; createdAt: string }
export interface ListTask extends BoardTask { projectId: Uuid; projectKey: string; archived: boolean }
export type ChartKind = 'burnup' | 'flow' | 'throughput';
export interface Chart { id: Uuid; name: string; kind: ChartKind; projectIds: Uuid[]; propertyId: Uuid | null; createdAt: string }
export interface ChartData { chart: Chart; from: string; to: string; days: string[]; series: { key: string; name: string; values: number[] }[] }

export interface ChangeEvent { projectId: Uuid; scope: 'board' | 'task' | 'project'; taskId?: Uuid; clientId: string | null }
export interface PresenceEvent { projectId: Uuid; kind: 'presence'; clientId: string; userId: Uuid; taskId: Uuid | null; field: string | null }

export const AVATAR_COLOURS = ['#e0574d', '#d1913a', '#4f8a5b', '#3fb0c8', '#4b8fbe', '#6d5bd0', '#c2557a', '#b6763f', '#2f9e7a', '#7a8a2f', '#3d7fc1'];
export const NONE = '__none__';
