/**
 * The answer and body types the helpers use, read off `paths` by route (the contract's stable
 * names) rather than by component name, so they survive the regeneration of schema.d.ts from the
 * service's own document, whatever it calls its schemas.
 */
import type { paths } from './schema';

type Methods<P extends keyof paths> = Exclude<keyof paths[P], 'parameters'>;

/** The JSON answer of a route and status. */
export type Answer<P extends keyof paths, M extends Methods<P>, S extends number = 200> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

/** The JSON body a route takes. */
export type BodyOf<P extends keyof paths, M extends Methods<P>> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer T } } } ? T : never;

export type User = Answer<'/api/auth/me', 'get'>['user'];
export type AgentMe = Answer<'/api/agent/me', 'get'>;
export type Board = Answer<'/api/projects/{projectId}/board', 'get'>;
export type Task = Answer<'/api/tasks/{taskId}', 'get'>['task'];
export type Comment = Answer<'/api/tasks/{taskId}/comments', 'post', 201>['comment'];
export type Rules = Answer<'/api/projects/{projectId}/rules', 'get'>['rules'];
export type Run = Answer<'/api/runs/{runId}', 'get'>['run'];
export type RunStatus = Run['status'];
export type ReportAnswer = Answer<'/api/runs/{runId}', 'patch'>;
export type ControlWord = NonNullable<ReportAnswer['control']>;
export type ClaimBody = BodyOf<'/api/tasks/{taskId}/run', 'post'>;
export type ReportBody = BodyOf<'/api/runs/{runId}', 'patch'>;
export type NextBody = BodyOf<'/api/projects/{projectId}/runs/next', 'post'>;
/** A claimed `{ run, task }`, or `{ run: null, task: null }` when nothing is left in the queue. */
export type NextAnswer = Answer<'/api/projects/{projectId}/runs/next', 'post', 201> | { run: null; task: null };
export type RunQuestion = NonNullable<Run['question']>;
export type AnswerBody = BodyOf<'/api/runs/{runId}/answer', 'post'>;
export type Usage = Answer<'/api/projects/{projectId}/usage', 'get'>;
