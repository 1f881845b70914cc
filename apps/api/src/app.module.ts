import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { DataSource } from 'typeorm';
import { Clock } from '@board/kernel';
import { PersistenceModule } from '@board/persistence';
import { AppConfig } from './config/app-config';
import { CoreModule } from './core.module';
import { AccessGuard } from './auth/access.guard';
import { CredentialsService } from './auth/credentials.service';
import { AccountsService } from './accounts/accounts.service';
import { AuthController } from './accounts/auth.controller';
import { ProjectsService } from './projects/projects.service';
import { ProjectsController } from './projects/projects.controller';
import { MembersService } from './projects/members.service';
import { AgentsService } from './projects/agents.service';
import { AgentsController, MembersController } from './projects/members.controller';
import { SystemModule } from './system/system.module';
import { DatabaseLifecycle } from './system/database.lifecycle';
import { PropertiesModule } from './properties/properties.module';
import { ChecklistModule } from './checklist/checklist.module';
import { CommentsModule } from './comments/comments.module';
import { TasksModule } from './tasks/tasks.module';
import { RunsModule } from './runs/runs.module';
import { EventsModule } from './events/events.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { ViewsModule } from './views/views.module';
import { ImportsModule } from './imports/imports.module';
import { FilesModule } from './files/files.module';
import { ForgotService } from './accounts/forgot.service';
import { BackgroundMail } from './mail/background-mail';
import { InviteMailListener } from './projects/invite-mail.listener';
import { ListsModule } from './lists/lists.module';
import { ChartsModule } from './charts/charts.module';

export interface AppModuleOptions {
  config: AppConfig;
  dataSource: DataSource;
  /** Tests swap the clock for a fake one. */
  clock?: Clock;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(options.config, options.clock),
        ScheduleModule.forRoot(),
        EventEmitterModule.forRoot(),
        PersistenceModule.forRoot(options.dataSource),
        PropertiesModule,
        TasksModule,
        RunsModule,
        EventsModule,
        WebhooksModule,
        ViewsModule,
        ChecklistModule,
        CommentsModule,
        ImportsModule,
        FilesModule,
        ListsModule,
        ChartsModule,
        SystemModule,
      ],
      controllers: [AuthController, ProjectsController, MembersController, AgentsController],
      providers: [
        CredentialsService,
        { provide: APP_GUARD, useClass: AccessGuard },
        DatabaseLifecycle,
        AccountsService,
        ProjectsService,
        MembersService,
        AgentsService,
        // mail (issue 12): forgot-password links and invite mails, sent in the background
        ForgotService,
        BackgroundMail,
        InviteMailListener,
      ],
    };
  }
}
