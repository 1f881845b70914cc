/**
 * The shapes the API answers, as the contract describes them (interface.md › Resources), for the
 * test helpers to answer typed values instead of `any`. Only what tests read; a JSON value the
 * contract leaves open is `unknown`.
 */
import type { components } from '../../libs/client/src/schema';
import type { RouteAnswer } from './routes';

/** A value as stored: text, number, boolean, an id, a list of ids or links, or a date. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** User (auth answers). */
export interface UserAnswer {
  id: string;
  email: string;
  name: string;
  color: string;
  emoji: string | null;
}

/** Project (create answer and board read). */
export interface ProjectAnswer {
  id: string;
  name: string;
  key: string;
  ownerId: string;
  role?: string;
  doneWhen?: { propertyId: string; optionIds: string[] } | null;
}

/** Member (people and agents). */
export interface MemberAnswer {
  id: string;
  name: string;
  email: string | null;
  color: string;
  emoji: string | null;
  role: string;
  kind: 'human' | 'agent';
}

/** Option of a select, multi_select or iteration. */
export interface OptionAnswer {
  id: string;
  propertyId?: string;
  name: string;
  color?: string;
  position?: string;
}

/** Property, with its options. */
export interface PropertyAnswer {
  id: string;
  projectId?: string;
  name: string;
  type: string;
  position?: string;
  config?: Record<string, unknown>;
  options: OptionAnswer[];
  createdAt?: string;
}

/** Task (board read item; the create answer adds projectId and createdBy). */
export interface TaskAnswer {
  id: string;
  number: number;
  key: string;
  title: string;
  description: string;
  position: string;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  values: Record<string, JsonValue>;
  checklistTotal?: number;
  checklistDone?: number;
  commentCount?: number;
  blockedBy?: string[];
  parts?: { done: number; total: number } | null;
  projectId?: string;
  createdBy?: string;
}

/** A feed line as `feedLines` reads it from the `activity` table (the columns asked for; kind and data by default). */
export interface FeedRow {
  kind: string;
  data: Record<string, unknown>;
  actor_id?: string | null;
  task_id?: string | null;
  project_id?: string;
}

/** A `board_changes` notice (what the stream relays). */
export interface ChangeNotice {
  projectId?: string;
  scope?: string;
  taskId?: string | null;
  clientId?: string | null;
  [key: string]: unknown;
}

/** The data of a stream event: a change (`ready` sends `{}`) or a presence. */
export interface StreamData extends ChangeNotice {
  kind?: string;
  userId?: string;
  field?: string | null;
}

// ---------------------------------------------------------------------------------------------
// Answers read off the API document by route (see routes.ts), for a call whose path the types
// cannot read (a query string from a variable, a path from a helper) or a refusal's body.

/** Every refusal: `{ error }`. */
export type ErrorAnswer = components['schemas']['Error'];
/** GET /projects/:projectId/board. */
export type BoardAnswer = RouteAnswer<'get', `/projects/${string}/board`>;
/** GET /views/:viewId/tasks. */
export type ViewTasksAnswer = RouteAnswer<'get', `/views/${string}/tasks`>;
/** A view (create answer). */
export type ViewAnswer = RouteAnswer<'post', `/projects/${string}/views`>['view'];
/** A task as `POST /projects/:projectId/tasks` answers it. */
export type CreatedTaskAnswer = RouteAnswer<'post', `/projects/${string}/tasks`>['task'];
/** GET /projects/:projectId/activity. */
export type FeedAnswer = RouteAnswer<'get', `/projects/${string}/activity`>;
/** A webhook (create answer, with its secret). */
export type WebhookCreatedAnswer = RouteAnswer<'post', `/projects/${string}/webhooks`>;
/** GET /charts/:chartId/data. */
export type ChartDataAnswer = RouteAnswer<'get', `/charts/${string}/data`>;
/** GET /projects/:projectId/search. */
export type SearchAnswer = RouteAnswer<'get', `/projects/${string}/search`>;
/** A delivery as `GET /projects/:projectId/webhooks/:webhookId/deliveries` lists it. */
export type DeliveryAnswer = RouteAnswer<'get', `/projects/${string}/webhooks/${string}/deliveries`>['deliveries'][number];
/** The JSON body the service posts to a webhook. */
export type WebhookDeliveryBody = components['schemas']['WebhookDelivery'];
/** `PATCH /checklist/:itemId` with text or done: the item (a move answers `{ ok }`). */
export type ChecklistItemAnswer = Extract<RouteAnswer<'patch', `/checklist/${string}`>, { item: unknown }>;
/** A property (create answer). */
export type CreatedPropertyAnswer = RouteAnswer<'post', `/projects/${string}/properties`>['property'];
/** A checklist item (add answer). */
export type ChecklistAddedAnswer = RouteAnswer<'post', `/tasks/${string}/checklist`>['item'];
/** A comment (add answer). */
export type CommentAnswer = RouteAnswer<'post', `/tasks/${string}/comments`>['comment'];
/** A task as the board lists it. */
export type BoardTaskAnswer = BoardAnswer['tasks'][number];
