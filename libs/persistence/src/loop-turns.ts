import { performance } from 'node:perf_hooks';

/**
 * Lets a long piece of synchronous work give the event loop a turn once it has run for
 * `budgetMs`: building the lists of a 50,000-task board in one go blocked an instance for
 * seconds, and every other request on it waited (decisions.md › Fair use: no request blocks the
 * loop for more than 100 ms). `due()` is a clock read, cheap enough to call per item; only when
 * it answers true does the caller `await next()`, which resumes after pending I/O (setImmediate).
 */
export class LoopTurns {
  private started = performance.now();

  constructor(private readonly budgetMs = 10) {}

  due(): boolean {
    return performance.now() - this.started >= this.budgetMs;
  }

  async next(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}
