import { ActivityLine, Change, StatementWrite, UnitOfWork, UnitOfWorkOptions, WriteEvent, Written } from '@board/kernel';

/** One write the recording unit of work ran: what it declared, and whether it landed. */
export interface RecordedWrite {
  /** `write` (a transaction) or `statement` (`writeStatement`). */
  form: 'write' | 'statement';
  options: UnitOfWorkOptions | undefined;
  /** The events the work declared (empty while it runs, and when it threw). */
  events: WriteEvent[];
  /** False when the work threw (a refusal: nothing commits) or a statement did not land. */
  landed: boolean;
}

/**
 * A statement write of an in-memory adapter: `run` applies it (or not) and says whether it
 * landed, which is when its events count, as in one PostgreSQL statement.
 */
export class InMemoryStatement<T> extends StatementWrite<T> {
  constructor(readonly run: () => { answer: T; landed: boolean }) {
    super();
  }
}

/**
 * The unit of work of service specs: runs the work at once (no transaction; an in-memory adapter
 * is not rolled back) and records every write's declared events, so a spec asserts what a use
 * case tells (feed lines, notices) and that a refused one tells nothing.
 */
export class RecordingUnitOfWork extends UnitOfWork {
  readonly writes: RecordedWrite[] = [];

  async write<W extends Written<unknown>>(work: () => Promise<W>, options?: UnitOfWorkOptions): Promise<W['result']> {
    const entry: RecordedWrite = { form: 'write', options, events: [], landed: false };
    this.writes.push(entry);
    const { result, events } = await work();
    entry.events = [...events];
    entry.landed = true;
    return result;
  }

  async writeStatement<T>(work: () => Written<StatementWrite<T>>): Promise<T> {
    const { result, events } = work();
    if (!(result instanceof InMemoryStatement)) throw new Error('writeStatement takes a statement of an in-memory adapter (InMemoryStatement)');
    const { answer, landed } = (result as InMemoryStatement<T>).run();
    this.writes.push({ form: 'statement', options: undefined, events: landed ? [...events] : [], landed });
    return answer;
  }

  /** The events of the writes that landed, in order. */
  get events(): WriteEvent[] {
    return this.writes.filter((w) => w.landed).flatMap((w) => w.events);
  }

  /** The feed lines of the writes that landed (lines ringing once included), in order. */
  get lines(): ActivityLine[] {
    return this.events.flatMap((e) => (e.type === 'line' ? [e.line] : e.type === 'lines-ringing-once' ? [...e.lines] : []));
  }

  /** The stream notices of the writes that landed, in order. */
  get notices(): Change[] {
    return this.events.flatMap((e) => (e.type === 'notice' ? [e.change] : []));
  }

  /** Forgets what was recorded (between the set-up and the act of a spec). */
  clear(): void {
    this.writes.length = 0;
  }
}
