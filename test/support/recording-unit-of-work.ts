import { UnitOfWork, UnitOfWorkOptions, WriteEvent, Written } from '@board/kernel';

/**
 * A unit of work for service specs: runs the work, keeps the events it declared and the options it
 * was given (a project lock), and answers the work's result. A work that throws records nothing,
 * as a rolled-back transaction leaves nothing.
 */
export class RecordingUnitOfWork extends UnitOfWork {
  /** Every declared event of the committed writes, in order. */
  readonly events: WriteEvent[] = [];
  /** The options of every write that committed, in order. */
  readonly writes: (UnitOfWorkOptions | undefined)[] = [];

  async write<W extends Written<unknown>>(work: () => Promise<W>, options?: UnitOfWorkOptions): Promise<W['result']> {
    const written = await work();
    this.events.push(...written.events);
    this.writes.push(options);
    return written.result;
  }
}
