/**
 * Read replicas (DATABASE_READ_URL): reads that only show data may be answered by a replica, and a
 * person must still always see their own writes. A request carries the position of the newest
 * write its caller made or was told of (opaque text, from a cookie or a header), and learns the
 * position of what it writes itself, to hand back.
 */
export interface WriteTrack {
  /** The position of the newest write the request committed, as the caller sends it back; null when it wrote nothing. */
  readonly wrote: string | null;
}

export abstract class ReplicaReads {
  /** Whether replicas are configured: without them nothing is tracked, nothing waits, no answer carries a position. */
  abstract readonly enabled: boolean;

  /** A request's track, from the positions its caller sent (the newest counts; one that does not read as a position is ignored). */
  abstract track(sent: ReadonlyArray<string | undefined>): WriteTrack;

  /**
   * Runs a request's `work` under its track; with `replica`, as a read that only shows data,
   * which a replica may answer when it shows the caller's writes and lags within the bound.
   */
  abstract run<T>(track: WriteTrack, replica: boolean, work: () => Promise<T>): Promise<T>;

  /**
   * Resolves once a read started afterwards, by anyone on any instance, shows every write committed
   * before the call — at once without replicas, at most the bound with them. What tells clients to
   * re-read (the stream's `ready`) waits for it.
   */
  abstract settled(): Promise<void>;
}
