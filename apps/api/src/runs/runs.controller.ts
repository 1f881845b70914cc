import { Body, Controller, Get, HttpCode, Patch, Post, Query, UseInterceptors } from '@nestjs/common';
import { AgentMember, HumanMember, Member, RUN, TASK } from '../auth/access.decorator';
import { ResourceId, ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { AnswerRunBody, ClaimRunBody, ControlRunBody, PastRunsQuery, ReportRunBody } from './runs.dto';
import type { VersionedRun } from '@board/runs';
import { CheckedRun, RunReporterCheck } from './run-reporter.check';
import { RunsService } from './runs.service';

@Controller()
export class RunsController {
  constructor(private readonly runs: RunsService) {}

  @AgentMember(TASK)
  @Post('tasks/:taskId/run')
  @HttpCode(201)
  async claim(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() taskId: string, @Body() body: ClaimRunBody) {
    return { run: await this.runs.claim(caller, taskId, body) };
  }

  /** The run's gate (its agent, open) comes before the body: the contract's order. */
  @AgentMember(RUN)
  @Patch('runs/:runId')
  @UseInterceptors(RunReporterCheck)
  report(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() runId: string, @Body() body: ReportRunBody, @CheckedRun() checked: VersionedRun | undefined) {
    return this.runs.report(caller, runId, body, checked);
  }

  @HumanMember(RUN)
  @Post('runs/:runId/control')
  @HttpCode(200)
  async control(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() runId: string, @Body() body: ControlRunBody) {
    return { run: await this.runs.control(caller, runId, body) };
  }

  /** A person answers the run's question (any member). */
  @HumanMember(RUN)
  @Post('runs/:runId/answer')
  @HttpCode(200)
  async answer(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() runId: string, @Body() body: AnswerRunBody) {
    return { run: await this.runs.answer(caller, runId, body) };
  }

  @Member(RUN)
  @Get('runs/:runId')
  async read(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() runId: string) {
    return { run: await this.runs.read(caller.projectId, runId) };
  }

  @Member(TASK)
  @Get('tasks/:taskId/runs')
  past(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() taskId: string, @Query() query: PastRunsQuery) {
    return this.runs.past(caller, taskId, query.before);
  }
}
