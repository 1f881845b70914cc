/**
 * Heartbeats on a timer that never overlap: the next beat starts `ms` after the last one settled.
 * `setInterval` starts one every `ms` whatever became of the last: when the service is slow (a
 * beat takes longer than the interval), beats pile up, each a write on the run's row waiting for
 * the one before it, until every connection of the instance waits on them and its other requests
 * are answered 503 (seen: three asks beating every 150 ms on a loaded machine left 500 requests
 * queued for one instance's pool). One beat in flight per timer bounds what an agent costs.
 * A beat's failures are its own to handle: a rejected beat is let go and the next one comes.
 */
export function beatEvery(ms: number, beat: () => Promise<unknown>): { stop(): void } {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const next = () => {
    if (!stopped) timer = setTimeout(run, ms);
  };
  const run = () => {
    timer = null;
    void beat().then(next, next);
  };
  next();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
