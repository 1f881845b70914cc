import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { DataSource } from 'typeorm';
import { Clock } from '@board/kernel';
import { PersistenceModule } from '@board/persistence';
import { AppConfig } from './config/app-config';
import { CoreModule } from './core.module';
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
import { ListsModule } from './lists/lists.module';
import { ChartsModule } from './charts/charts.module';
import { SearchModule } from './search/search.module';
import { AuthModule } from './auth/auth.module';
import { AccountsModule } from './accounts/accounts.module';
import { ProjectsModule } from './projects/projects.module';
import { MailModule } from './mail/mail.module';

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
        SearchModule,
        SystemModule,
        AuthModule,
        AccountsModule,
        ProjectsModule,
        MailModule,
      ],
      providers: [DatabaseLifecycle],
    };
  }
}
