// The page's names for the service's answers, each read off the service's own generated types
// (libs/client/src/schema.d.ts, `npm run client:types`), never declared here by hand:
// test/architecture/web-types.test.ts fails if a shape is written out again.
import type { components, paths } from '../../../../libs/client/src/schema';

type S = components['schemas'];
type Methods<P extends keyof paths> = Exclude<keyof paths[P], 'parameters'>;
/** The JSON answer of a route and status (as libs/client/src/types.ts reads it). */
export type Answer<P extends keyof paths, M extends Methods<P>, C extends number = 200> = paths[P][M] extends {
  responses: { [K in C]: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export type Uuid = S['User']['id'];
export type Role = S['Member']['role'];

export type User = S['User'];
/** What the sign-in screen offers: sign-up, the single sign-on button, reset links by mail. */
export type SignInOptions = Answer<'/api/auth/config', 'get'>;
export type Person = S['Avatar'];
/** One of a person's notifications (extensions.md § 2). */
export type AppNotification = S['Notification'];
export type Inbox = Answer<'/api/notifications', 'get'>;

export type DoneWhen = NonNullable<S['DoneWhen']>;
export type Project = S['Project'] & Gap['Project'];
export type Invite = S['Invite'];
/** The invite an add made: whether its mail went out, and the sign-up link to hand over when not. */
export type InviteAdded = S['InviteAdded'];
export type Member = S['Member'];

export type PropertyType = S['Property']['type'];
export const PROPERTY_TYPES: PropertyType[] = ['select', 'multi_select', 'iteration', 'person', 'text', 'number', 'date', 'checkbox', 'link'];
export type Option = S['Option'];
export type Property = Omit<S['Property'], 'config' | 'options'> & { config: S['Property']['config']; options: Option[] };

export type FilterRule = S['View']['filters']['rules'][number];
export type FilterOp = FilterRule['op'];
export type Sort = NonNullable<S['Sort']>;
export type View = S['View'];
export type ViewKind = View['kind'];
export type CardView = S['CardView'];
export type CardRow = CardView['rows'][string];

export type BoardTask = S['TaskItem'];
export type Values = BoardTask['values'];
export type ArchivedTask = S['ArchivedTask'];

export type RunStatus = S['RunStatus'];
export type Run = S['Run'];
export type RunStep = NonNullable<S['Run']['steps']>[number];
export type RunLog = NonNullable<S['Run']['log']>[number];
export type PastRun = S['PastRun'];
export type RunQuestion = S['RunQuestion'];
export type RunLink = S['RunLink'];
export type RunUsage = S['RunUsage'];
/** A project's usage by agent and day (GET /api/projects/{projectId}/usage). */
export type Usage = S['Usage'];

export type Board = Omit<S['Board'], 'project' | 'properties' | 'views' | 'runs'> & { project: Project; properties: Property[]; views: View[]; runs: Run[] };

export type LinkRow = S['TaskRow'];
export type ChecklistItem = S['ChecklistItem'];
export type Comment = S['Comment'];
export type ActivityEntry = S['ActivityEntry'];
/** A line of the project's feed: the entry and the task it names. */
export type FeedEntry = Answer<'/api/projects/{projectId}/activity', 'get'>['activity'][number];
export type FullTask = Omit<S['Task'], 'checklist' | 'activity' | 'run'> & { checklist: ChecklistItem[]; activity: ActivityEntry[]; run: Run | null };

export type DeletedRow = S['DeletedTask'];
export type SearchHit = S['SearchHit'];
/** A hit of `GET /api/search` (every project of the caller). */
export type TaskSearchHit = S['TaskSearchHit'];
export type TaskSearchAnswer = Answer<'/api/search', 'get'>;

export type Attachment = S['Attachment'];
export type ChangelogEntry = S['ChangelogEntry'];
export type Webhook = S['Webhook'];
export type Delivery = S['Delivery'];
export type Token = S['Token'];
export type Rules = S['AgentRules'];

export type TaskList = S['List'];
export type ListTask = S['ListTask'];
export type Chart = S['Chart'];
export type ChartKind = Chart['kind'];
export type ChartData = S['ChartData'];

export type ChangeEvent = S['ChangeEvent'];
export type PresenceEvent = S['PresenceEvent'];

// GAPS:START — fields the service sends that its document (apps/api OpenAPI) leaves out or types
// as `never`/`unknown`. Each is a fault of the document, reported to the lead; remove an entry
// once `npm run client:types` carries the field (test/architecture/web-types.test.ts checks that
// no entry names a field the generated type already has).
interface Gap {
  /** GET /api/projects: `taskCount` on each project (the document lists it on `ProjectListed` only). */
  Project: { taskCount?: number };
}
// GAPS:END

export const AVATAR_COLOURS = ['#e0574d', '#d1913a', '#4f8a5b', '#3fb0c8', '#4b8fbe', '#6d5bd0', '#c2557a', '#b6763f', '#2f9e7a', '#7a8a2f', '#3d7fc1'];
export const NONE = '__none__';

/** Answers of the writes the settings and extra pages read back. */
export type CreatedList = Answer<'/api/lists', 'post', 201>;
export type Shipped = Answer<'/api/options/{optionId}/ship', 'post'>;
export type NewAgent = Answer<'/api/projects/{projectId}/agents', 'post', 201>;
export type NewToken = Answer<'/api/projects/{projectId}/agents/{agentId}/tokens', 'post', 201>;
export type ResetLink = Answer<'/api/projects/{projectId}/members/{userId}/reset', 'post'>;
export type NewWebhook = Answer<'/api/projects/{projectId}/webhooks', 'post', 201>;
export type ChangedWebhook = Answer<'/api/projects/{projectId}/webhooks/{webhookId}', 'patch'>;
