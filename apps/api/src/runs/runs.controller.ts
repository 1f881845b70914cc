import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { AgentMember, HumanMember, Member, RUN, TASK } from '../auth/access.decorator';
import { ResourceId, Writer, WriterOf } from '../auth/auth-context';
import { bodyObject } from '../http/json-body';
import { RunsService } from './runs.service';

@Controller()
export class RunsController {
  constructor(private readonly runs: RunsService) {}

  @AgentMember(TASK)
  @Post('tasks/:taskId/run')
  @HttpCode(201)
  async claim(@WriterOf() writer: Writer, @ResourceId() taskId: string, @Body() body: unknown) {
    return { run: await this.runs.claim(writer, taskId, bodyObject(body)) };
  }

  @AgentMember(RUN)
  @Patch('runs/:runId')
  report(@WriterOf() writer: Writer, @ResourceId() runId: string, @Body() body: unknown) {
    return this.runs.report(writer, runId, bodyObject(body));
  }

  @HumanMember(RUN)
  @Post('runs/:runId/control')
  @HttpCode(200)
  async control(@WriterOf() writer: Writer, @ResourceId() runId: string, @Body() body: unknown) {
    return { run: await this.runs.control(writer, runId, bodyObject(body)) };
  }

  @Member(RUN)
  @Get('runs/:runId')
  async read(@WriterOf() writer: Writer, @ResourceId() runId: string) {
    return { run: await this.runs.read(writer.projectId, runId) };
  }

  @Member(TASK)
  @Get('tasks/:taskId/runs')
  past(@WriterOf() writer: Writer, @ResourceId() taskId: string, @Query('before') before: unknown) {
    return this.runs.past(writer, taskId, before);
  }
}
