import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { PasswordHasher, Throttle, ThrottleStore } from '@board/accounts';
import { Clock, SystemClock } from '@board/kernel';
import { PersistenceModule } from '@board/persistence';
import { Argon2PasswordHasher } from '@board/platform';
import { AppConfig } from './config/app-config';
import { AccessGuard } from './auth/access.guard';
import { CredentialsService } from './auth/credentials.service';
import { AccountsService } from './accounts/accounts.service';
import { AuthController } from './accounts/auth.controller';
import { ProjectsService } from './projects/projects.service';
import { ProjectsController } from './projects/projects.controller';
import { MembersService } from './projects/members.service';
import { AgentsService } from './projects/agents.service';
import { AgentsController, MembersController } from './projects/members.controller';
import { SystemController } from './system/system.controller';
import { DatabaseLifecycle } from './system/database.lifecycle';

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
      imports: [PersistenceModule.forRoot(options.dataSource)],
      controllers: [SystemController, AuthController, ProjectsController, MembersController, AgentsController],
      providers: [
        { provide: AppConfig, useValue: options.config },
        { provide: Clock, useValue: options.clock ?? new SystemClock() },
        { provide: PasswordHasher, useClass: Argon2PasswordHasher },
        { provide: Throttle, useFactory: (store: ThrottleStore, clock: Clock) => new Throttle(store, clock), inject: [ThrottleStore, Clock] },
        CredentialsService,
        { provide: APP_GUARD, useClass: AccessGuard },
        DatabaseLifecycle,
        AccountsService,
        ProjectsService,
        MembersService,
        AgentsService,
      ],
    };
  }
}
