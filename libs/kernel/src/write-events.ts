import { ActivityKind, ActivityLine } from './activity';
import { Change } from './change';

/**
 * What a write changed, as the rest of the system must hear it. The unit of work turns these into
 * feed lines, webhook outbox rows and stream notices before COMMIT, with one implementation.
 */
export type WriteEvent =
  /** A feed line; each enabled webhook listening to its kind gets an outbox row about it. */
  | { type: 'line'; line: ActivityLine }
  /**
   * Many feed lines of one project that ring each webhook once, about the project (no task): a
   * webhook's ring carries the first of `kinds` it listens to (ship, import).
   */
  | { type: 'lines-ringing-once'; lines: readonly ActivityLine[]; kinds: readonly ActivityKind[] }
  /** A stream notice with no feed line (and so no webhook): properties, views, members… */
  | { type: 'notice'; change: Change }
  /** What people are told that no feed line carries: an agent's question, a comment's words (for mentions). */
  | { type: 'said'; said: Said };

/**
 * Words a write put before people, kept by no feed line: notifications are made from them.
 * `comment.before` is the comment's text before an edit (null for a new one): only mentions it
 * did not hold yet are told.
 */
export type Said =
  | { kind: 'question'; projectId: string; taskId: string; actorId: string; text: string }
  | { kind: 'comment'; projectId: string; taskId: string; actorId: string; text: string; before: string | null };

declare const DECLARED: unique symbol;

/**
 * A write's answer together with its events. Only `withEvents` and `silent` make one, so a unit of
 * work's work function cannot return without saying what it changed (or that it changed nothing
 * anyone hears of).
 */
export interface Written<T> {
  readonly result: T;
  readonly events: readonly WriteEvent[];
  readonly [DECLARED]: true;
}

/** An event, a list of them, or nothing (a branch that changed nothing). */
export type Events = WriteEvent | readonly Events[] | null | undefined | false;

/** The write's answer and what it changed; events are told in the order given. */
export function withEvents<T>(result: T, ...events: Events[]): Written<T> {
  const flat: WriteEvent[] = [];
  const add = (e: Events): void => {
    if (!e) return;
    if (Array.isArray(e)) (e as readonly Events[]).forEach(add);
    else flat.push(e as WriteEvent);
  };
  events.forEach(add);
  return { result, events: flat } as unknown as Written<T>;
}

/** A write that changed nothing anyone is told of (an idempotent no-op, a personal setting). */
export function silent<T>(result: T): Written<T> {
  return withEvents(result);
}

/** One feed line (with its webhook outbox rows). */
export function feedLine(line: ActivityLine): WriteEvent {
  return { type: 'line', line };
}

/** Feed lines in order, each ringing the webhooks listening to its kind. */
export function feedLines(lines: readonly ActivityLine[]): WriteEvent[] {
  return lines.map(feedLine);
}

/** Feed lines that ring each webhook once (see `WriteEvent`); no lines, no event. */
export function feedLinesRingingOnce(lines: readonly ActivityLine[], kinds: readonly ActivityKind[]): WriteEvent | null {
  return lines.length === 0 ? null : { type: 'lines-ringing-once', lines, kinds };
}

/** Words put before people (a question, a comment): the notifications derive from them. */
export function said(words: Said): WriteEvent {
  return { type: 'said', said: words };
}

/** A stream notice: that something changed and where. */
export function notice(change: Change): WriteEvent {
  return { type: 'notice', change };
}
