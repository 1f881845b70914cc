import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock, fail, feedLine, notice, parseId, said, silent, UnitOfWork, withEvents, WriteEvent } from '@board/kernel';
import { RunQuery } from '@board/persistence';
import { grew, Run, RunRepository, UsageRepository, VersionedRun } from '@board/runs';
import { ProjectCaller } from '../auth/auth-context';
import { BudgetService, utcDay } from './budget.service';
import type { AnswerRunBody, ClaimRunBody, ControlRunBody, ReportRunBody } from './runs.dto';

export const PAST_RUNS_PAGE = 20;

/** Reads of a run for an unlocked report before it takes the lock (each lost race reads again). */
const OPTIMISTIC_TRIES = 3;
/** reportUnlocked's answer for a report that closes the run or books usage: it takes the lock. */
const TAKES_LOCK = Symbol('takes the lock');

@Injectable()
export class RunsService {
  constructor(
    private readonly runs: RunRepository,
    private readonly queries: RunQuery,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly usage: UsageRepository,
    private readonly budget: BudgetService,
  ) {}

  /** Opens a run on a task; simultaneous claims give one run and 409s (the database keeps one open run per task). */
  async claim(caller: ProjectCaller, taskId: string, body: ClaimRunBody) {
    const run = Run.claim({ id: randomUUID(), projectId: caller.projectId, taskId, agentId: caller.userId, body, now: this.clock.now() });
    await this.uow.write(async () => {
      await this.budget.assertOpen(caller.projectId);
      return this.open(caller, run);
    });
    return this.read(caller.projectId, run.id);
  }

  /**
   * The claim's write, inside a caller's unit of work: the run opens (a handed-over one closes)
   * with the claim's events. `runs/next` opens the task it took with it, so both claim alike.
   */
  async open(caller: ProjectCaller, run: Run) {
    const taskId = run.snapshot.taskId;
    const { handedOverClosed } = await this.runs.open(run);
    return withEvents(
      run,
      handedOverClosed ? this.closingLine(caller.projectId, taskId, handedOverClosed, 'done', caller.userId) : null,
      this.boardNotice(caller.projectId, taskId, caller.clientId),
    );
  }

  /**
   * The report's gate, checked before its body is read (`RunReporterCheck`): the owning agent, an
   * open run. Answers the run as read with its row's version: the report starts from it and writes
   * only while the row is still that version, else reads again (the aggregate has the last word).
   */
  async assertReporter(projectId: string, runId: string, agentId: string): Promise<VersionedRun> {
    const read = await this.runs.findVersioned(projectId, runId);
    if (!read) fail('run.not_found');
    read.run.assertOwnOpen(agentId);
    return read;
  }

  /**
   * A report, or with `beat: true` only a heartbeat. Answers the run and the pending control word.
   * The body is the report as read (`RunReport`): Run.report takes it as it is. `checked`, the
   * run as the gate read it, saves the usual report its own first read.
   */
  async report(caller: ProjectCaller, runId: string, body: ReportRunBody, checked?: VersionedRun) {
    // The usual report (no heartbeat, no question) is one statement, without a transaction of
    // round trips: see reportUnlocked. After a few lost races, or when it closes the run or books
    // usage, the report takes the run's lock below.
    if (!body.beat && (body.question === undefined || body.question === null)) {
      for (let attempt = 0; attempt < OPTIMISTIC_TRIES; attempt++) {
        const done = await this.reportUnlocked(caller, runId, body, attempt === 0 ? checked : undefined);
        if (done === TAKES_LOCK) break;
        if (done) return done;
      }
    }
    const now = this.clock.now();
    return this.uow.write(async () => {
      const run = await this.load(caller.projectId, runId);
      if (body.beat) {
        const control = run.beat(caller.userId, now);
        await this.runs.saveBeat(run);
        return silent({ run: await this.read(caller.projectId, runId), control });
      }
      const { closed, increase } = run.report(caller.userId, body, now);
      const question = body.question !== undefined && body.question !== null ? run.snapshot.question : null;
      // Each increase of the totals is booked on the report's UTC day; reaching the budget pauses
      // the project's running runs, this one included (its answer already says pause).
      let paused: WriteEvent[] = [];
      if (increase && grew(increase)) {
        const cost = await this.usage.book({ projectId: caller.projectId, runId, agentId: run.snapshot.agentId, day: utcDay(now), increase });
        const day = await this.usage.budgetDay(caller.projectId, utcDay(now));
        const crossed = day.budgetMicros !== null && cost >= day.budgetMicros && cost - increase.costMicros < day.budgetMicros;
        if (crossed) {
          run.pauseForBudget(now);
          paused = await this.budget.pauseRunning(caller.projectId, run.id);
        }
      }
      await this.runs.save(run);
      return withEvents(
        { run: await this.read(caller.projectId, runId), control: run.control },
        closed && this.closingLine(caller.projectId, run.snapshot.taskId, run.id, run.status, caller.userId),
        this.boardNotice(caller.projectId, run.snapshot.taskId, caller.clientId),
        paused,
        question && said({ kind: 'question', projectId: caller.projectId, taskId: run.snapshot.taskId, actorId: caller.userId, text: question.text }),
      );
    });
  }

  /**
   * A report read without the lock and written in one statement that lands only while the run's
   * row is still the version read (compare and set), with its events and the run read back by the
   * same statement: the answer is the run as this report left it, as under the lock. A refusal
   * comes from the committed run as read, as it would from the locked one at that moment. Answers
   * null when the row changed meanwhile (nothing written), and TAKES_LOCK for a report that closes
   * the run (see below) or whose usage grew (booking it and the budget's check need the lock).
   */
  private async reportUnlocked(caller: ProjectCaller, runId: string, body: ReportRunBody, checked: VersionedRun | undefined) {
    const now = this.clock.now();
    const read = checked ?? (await this.runs.findVersioned(caller.projectId, runId));
    if (!read) fail('run.not_found');
    const { run, version } = read;
    const { closed, increase } = run.report(caller.userId, body, now);
    // A report that closes the run tells people `<status>: <step>` read from the runs table, which
    // the statement's other parts cannot see written (they all read the rows as they were before it).
    if (closed || (increase && grew(increase))) return TAKES_LOCK;
    const view = await this.uow.writeStatement(() =>
      withEvents(this.queries.saveIfUnchangedReadingFull(run, version), this.boardNotice(caller.projectId, run.snapshot.taskId, caller.clientId)),
    );
    return view && { run: view, control: run.control };
  }

  /** A person answers the run's open question; the agent reads it on its next report, beat or read. */
  async answer(caller: ProjectCaller, runId: string, body: AnswerRunBody) {
    const now = this.clock.now();
    return this.uow.write(async () => {
      const run = await this.load(caller.projectId, runId);
      run.answer(body.answer, { id: caller.userId, name: caller.name }, now);
      await this.runs.save(run);
      return withEvents(await this.read(caller.projectId, runId), this.boardNotice(caller.projectId, run.snapshot.taskId, caller.clientId));
    });
  }

  /** A person asks the run to pause, resume or stop, or takes the task over. */
  async control(caller: ProjectCaller, runId: string, body: ControlRunBody) {
    const now = this.clock.now();
    return this.uow.write(async () => {
      const run = await this.load(caller.projectId, runId);
      const { closed } = run.command(body.control, { id: caller.userId, name: caller.name }, now);
      await this.runs.save(run);
      return withEvents(
        await this.read(caller.projectId, runId),
        closed && this.closingLine(caller.projectId, run.snapshot.taskId, run.id, run.status, caller.userId),
        this.boardNotice(caller.projectId, run.snapshot.taskId, caller.clientId),
      );
    });
  }

  async read(projectId: string, runId: string) {
    const run = await this.queries.full(projectId, runId);
    if (!run) fail('run.not_found');
    return run;
  }

  async past(caller: ProjectCaller, taskId: string, before: string) {
    const start = await this.queries.startOf(caller.projectId, taskId, before);
    if (!start) fail('run.not_found');
    return this.queries.past(caller.projectId, taskId, PAST_RUNS_PAGE, start);
  }

  /**
   * Closes runs past their lease as lost, each with its feed line and a ring. With a project,
   * only that project's (a board read); without, every project (the sweeper). Rows are claimed
   * with SKIP LOCKED so instances sweeping together never close one run twice.
   */
  async expireOverdue(projectId: string | null = null): Promise<number> {
    // Most reads find nothing overdue: a plain look first spares them a transaction.
    if (!(await this.runs.anyOverdue(this.clock.now(), projectId))) return 0;
    let total = 0;
    for (;;) {
      const closed = await this.uow.write(async () => {
        const now = this.clock.now();
        const overdue = await this.runs.overdue(now, projectId, 100);
        const events: WriteEvent[] = [];
        for (const run of overdue) {
          // The row was picked by the same rule; the aggregate has the last word.
          if (!run.expire(now)) continue;
          await this.runs.save(run);
          events.push(
            this.closingLine(run.snapshot.projectId, run.snapshot.taskId, run.id, 'lost', null),
            this.boardNotice(run.snapshot.projectId, run.snapshot.taskId, null),
          );
        }
        return withEvents(overdue.length, events);
      });
      total += closed;
      if (closed < 100) return total;
    }
  }

  /**
   * A person's comment on a task whose open run waits: the agent is asked to resume. Runs inside
   * the comment's write; answers the events it adds to it.
   */
  async answeredInComment(projectId: string, taskId: string, person: { id: string; name: string }): Promise<WriteEvent[]> {
    const run = await this.runs.openOnTask(projectId, taskId, true);
    if (!run || !run.answeredInComment(person, this.clock.now())) return [];
    await this.runs.save(run);
    return [this.boardNotice(projectId, taskId, null)];
  }

  private async load(projectId: string, runId: string, lock = true): Promise<Run> {
    const run = await this.runs.find(projectId, runId, lock);
    if (!run) fail('run.not_found');
    return run;
  }

  private closingLine(projectId: string, taskId: string, runId: string, status: string, actorId: string | null): WriteEvent {
    return feedLine({ projectId, taskId, actorId, kind: 'run', data: { runId, status } });
  }

  private boardNotice(projectId: string, taskId: string, clientId: string | null): WriteEvent {
    return notice({ projectId, scope: 'board', taskId, clientId });
  }
}
