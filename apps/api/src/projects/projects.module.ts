import { Module } from '@nestjs/common';
import { PgProjectExportQuery, ProjectExportQuery } from '@board/persistence';
import { MailModule } from '../mail/mail.module';
import { RunsModule } from '../runs/runs.module';
import { AgentsController } from './agents.controller';
import { AgentsService } from './agents.service';
import { InviteMailService } from './invite-mail.service';
import { MembersController } from './members.controller';
import { MembersService } from './members.service';
import { ProjectExportController } from './project-export.controller';
import { ProjectExportService } from './project-export.service';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';

/** Projects, their members and invites, their agents and agent tokens. */
@Module({
  imports: [MailModule, RunsModule],
  controllers: [ProjectsController, MembersController, AgentsController, ProjectExportController],
  providers: [ProjectsService, MembersService, AgentsService, InviteMailService, { provide: ProjectExportQuery, useClass: PgProjectExportQuery }, ProjectExportService],
})
export class ProjectsModule {}
