import { Body, Controller, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AgentMember } from '../auth/access.decorator';
import { ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { NextRunBody } from './queue.dto';
import { QueueService } from './queue.service';

@Controller('projects/:projectId')
export class QueueController {
  constructor(private readonly queue: QueueService) {}

  /** 201 with the claimed run and its task; 200 with nulls when nothing is eligible. */
  @AgentMember()
  @Post('runs/next')
  async next(@ProjectCallerOf() caller: ProjectCaller, @Body() body: NextRunBody, @Res({ passthrough: true }) reply: FastifyReply) {
    const taken = await this.queue.next(caller, body);
    reply.status(taken.run ? 201 : 200);
    return taken;
  }
}
