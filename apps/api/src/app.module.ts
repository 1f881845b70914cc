import { DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { DataSource } from 'typeorm';
import { Clock } from '@board/kernel';
import { DatabaseLanes, PersistenceModule } from '@board/persistence';
import { AppConfig } from './config/app-config';
import { CoreModule } from './core.module';
import { SystemModule } from './system/system.module';
import { DatabaseLifecycle } from './system/database.lifecycle';
import { PropertiesModule } from './properties/properties.module';
import { ChecklistModule } from './checklist/checklist.module';
import { CommentsModule } from './comments/comments.module';
import { TasksModule } from './tasks/tasks.module';
import { RunsModule } from './runs/runs.module';
import { QueueModule } from './queue/queue.module';
import { UsageModule } from './usage/usage.module';
import { McpModule } from './mcp/mcp.module';
import { EventsModule } from './events/events.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { ViewsModule } from './views/views.module';
import { ImportsModule } from './imports/imports.module';
import { FilesModule } from './files/files.module';
import { ListsModule } from './lists/lists.module';
import { ChartsModule } from './charts/charts.module';
import { SearchModule } from './search/search.module';
import { AuthModule } from './auth/auth.module';
import { AccountsModule } from './accounts/accounts.module';
import { ProjectsModule } from './projects/projects.module';
import { MailModule } from './mail/mail.module';
import { NotificationsModule } from './notifications/notifications.module';
import { ReplicaReadInterceptor } from './http/replica-read.interceptor';

export interface AppModuleOptions {
  config: AppConfig;
  dataSource: DataSource;
  /** The background pool and the heavy reads' statement limit. */
  lanes: DatabaseLanes;
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
        PersistenceModule.forRoot(options.dataSource, options.lanes),
        PropertiesModule,
        TasksModule,
        RunsModule,
        QueueModule,
        UsageModule,
        McpModule,
        EventsModule,
        WebhooksModule,
        ViewsModule,
        ChecklistModule,
        CommentsModule,
        ImportsModule,
        FilesModule,
        ListsModule,
        ChartsModule,
        SearchModule,
        SystemModule,
        AuthModule,
        AccountsModule,
        ProjectsModule,
        MailModule,
        NotificationsModule,
      ],
      // With read replicas, requests run under their caller's write position, and routes declared
      // @ReplicaRead may go to a read replica (docs/operating.md › Read replicas); then routes
      // declared @HeavyRead run in one of their caller's slots (decisions.md › Fair use), on the
      // server the read went to (their interceptor is the route's own, outermost: heavy-read.decorator.ts).
      // Without replicas no interceptor is global: a route without one of its own is called
      // straight, with no RxJS chain per request.
      providers: [DatabaseLifecycle, ...(withReplicas(options) ? [{ provide: APP_INTERCEPTOR, useClass: ReplicaReadInterceptor }] : [])],
    };
  }
}

/** Whether read replicas are on: the lanes' router says; the API document's module tree has no lanes, only the config. */
function withReplicas(options: AppModuleOptions): boolean {
  const lanes = options.lanes as DatabaseLanes | null;
  return lanes ? lanes.replicas.enabled : options.config.DATABASE_READ_URL.length > 0;
}
