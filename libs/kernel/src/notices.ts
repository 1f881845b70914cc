import type { Observable } from 'rxjs';

/** What an instance hears from every instance (PostgreSQL delivers each notice at commit). */
export type Notice =
  | { type: 'change'; payload: Record<string, unknown> }
  | { type: 'presence'; payload: Record<string, unknown> }
  /** Someone may have lost access: a person or agent (`userId`), in one project or all (`projectId`), or a whole project. */
  | { type: 'access'; payload: { projectId?: string; userId?: string } }
  /**
   * What a credential check answers changed without anyone losing access: a role, a person's name
   * (or email, colour, emoji), a session's expiry, a task gone to the bin. Ids only.
   */
  | { type: 'credentials'; payload: { projectId?: string; userId?: string } }
  /** A person was told something (a notification committed): their personal streams and the mail senders hear it. */
  | { type: 'notification'; payload: { userId: string; id: string; kind: string; projectId: string; taskId: string } }
  /** New webhook deliveries were committed: wake the workers. */
  | { type: 'webhook' }
  /** The listener lost its connection and is back: what happened meanwhile is unknown, so readers must re-read. */
  | { type: 'reconnected' };

/**
 * The notices of every instance, as one stream per instance (the stream endpoints, the access
 * watch and the delivery workers read it). Its adapter keeps one listening connection.
 */
export abstract class NoticeFeed {
  abstract get stream(): Observable<Notice>;

  /**
   * Whether every notice committed from now on will be heard: false while the listening
   * connection is away, and until subscribers have been told `reconnected` once it is back.
   * What is kept on the strength of notices (the credential cache) is not used meanwhile.
   */
  abstract get listening(): boolean;
}

/** Who has which task (and field) open in a tab: passed to every instance, never stored. */
export interface PresenceSignal {
  projectId: string;
  clientId: string;
  userId: string;
  taskId: string | null;
  field: string | null;
}

/** Sends a presence signal to the streams of every instance. */
export abstract class PresencePublisher {
  abstract publish(signal: PresenceSignal): Promise<void>;
}
