/** `work`'s answer if it comes within `ms`, else `late` (the work itself goes on; its answer is dropped). */
export function within<T>(work: Promise<T>, ms: number, late: T): Promise<T> {
  return Promise.race([work, new Promise<T>((resolve) => setTimeout(resolve, ms, late).unref())]);
}
