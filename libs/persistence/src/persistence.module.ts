import { DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ResetTokenRepository, SessionRepository, ThrottleStore, UserRepository } from '@board/accounts';
import { UnitOfWork } from '@board/kernel';
import { AgentTokenRepository, MemberRepository, ProjectRepository } from '@board/projects';
import { Database } from './database';
import { TypeormUserRepository } from './accounts/typeorm-user.repository';
import { TypeormSessionRepository } from './accounts/typeorm-session.repository';
import { TypeormResetTokenRepository } from './accounts/typeorm-reset-token.repository';
import { TypeormThrottleStore } from './accounts/typeorm-throttle.store';
import { TypeormProjectRepository } from './projects/typeorm-project.repository';
import { TypeormMemberRepository } from './projects/typeorm-member.repository';
import { TypeormAgentTokenRepository } from './projects/typeorm-agent-token.repository';
import { ProjectQueries } from './projects/project.queries';
import { PgActivityRecorder } from './activity/pg-activity.recorder';
import { CredentialQueries } from './accounts/credential.queries';
import { StreamAccessQueries } from './accounts/stream-access.queries';
import { PgChangeAnnouncer } from './activity/pg-change.announcer';
import { PgUnitOfWork } from './activity/pg-unit-of-work';
import { PropertyDefsQuery } from './properties/property-defs.query';
import { ViewRepository } from '@board/views';
import { PgViewRepository } from './views/pg-view.repository';
import { PropertyRepository } from '@board/properties';
import { ShipRepository } from '@board/shipping';
import { PgPropertyRepository } from './properties/pg-property.repository';
import { PgShipRepository } from './properties/pg-ship.repository';
import { DatabaseHealthQuery } from './system/health.query';

/** Binds every storage port to its TypeORM/PostgreSQL adapter over one open DataSource. */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(dataSource: DataSource): DynamicModule {
    const providers = [
      { provide: DataSource, useValue: dataSource },
      Database,
      { provide: UnitOfWork, useClass: PgUnitOfWork },
      { provide: UserRepository, useClass: TypeormUserRepository },
      { provide: SessionRepository, useClass: TypeormSessionRepository },
      { provide: ResetTokenRepository, useClass: TypeormResetTokenRepository },
      TypeormThrottleStore,
      { provide: ThrottleStore, useExisting: TypeormThrottleStore },
      { provide: ProjectRepository, useClass: TypeormProjectRepository },
      { provide: MemberRepository, useClass: TypeormMemberRepository },
      { provide: AgentTokenRepository, useClass: TypeormAgentTokenRepository },
      ProjectQueries,
      CredentialQueries,
      StreamAccessQueries,
      PropertyDefsQuery,
      { provide: ViewRepository, useClass: PgViewRepository },
      { provide: PropertyRepository, useClass: PgPropertyRepository },
      { provide: ShipRepository, useClass: PgShipRepository },
      DatabaseHealthQuery,
    ];
    // The unit of work's own adapters: application code declares events, it never records or announces.
    const internal = [PgActivityRecorder, PgChangeAnnouncer];
    return { module: PersistenceModule, providers: [...providers, ...internal], exports: providers.map((p) => ('provide' in p ? p.provide : p)) };
  }
}
