/** The credential an open stream was opened with: a session or an agent token, by digest (never the secret). */
export interface StreamCredential {
  /** null: a person's own stream (notifications), open while the session lasts. */
  projectId: string | null;
  via: 'session' | 'token';
  digest: string;
}

/**
 * Re-checks the credentials of open streams, all at once: a stream stays open while its session is
 * unexpired (or its token still exists for that project) and its person or agent is still a member
 * of the project (a deleted project has no members); a person's own stream (no project) while the
 * session lasts.
 */
export abstract class StreamAccessQuery {
  /** The positions in `streams` that still have access at `now`, with the session's expiry (null for a token). */
  abstract stillAllowed(streams: readonly StreamCredential[], now: Date): Promise<Map<number, Date | null>>;
}
