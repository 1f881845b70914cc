import { DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LinkedIdentityRepository, ResetTokenRepository, SecurityLog, SessionRepository, ThrottleRepository, TotpRepository, UserRepository } from '@board/accounts';
import { BackgroundWork, HeavyReads, InstanceRegistry, ReplicaReads, UnitOfWork } from '@board/kernel';
import { AgentTokenRepository, InviteMailRepository, MemberRepository, ProjectRepository } from '@board/projects';
import { Database } from './database';
import { PgUserRepository } from './accounts/pg-user.repository';
import { PgSessionRepository } from './accounts/pg-session.repository';
import { PgSecurityLog } from './accounts/pg-security-log';
import { PgTotpRepository } from './accounts/pg-totp.repository';
import { PgLinkedIdentityRepository } from './accounts/pg-linked-identity.repository';
import { PgResetTokenRepository } from './accounts/pg-reset-token.repository';
import { PgThrottleRepository } from './accounts/pg-throttle.repository';
import { PgProjectRepository } from './projects/pg-project.repository';
import { PgMemberRepository } from './projects/pg-member.repository';
import { PgAgentTokenRepository } from './projects/pg-agent-token.repository';
import { PgInviteMailRepository } from './projects/pg-invite-mail.repository';
import { ProjectQuery } from './projects/project.query';
import { PgProjectQuery } from './projects/pg-project.query';
import { PgActivityRecorder } from './activity/pg-activity.recorder';
import { CredentialQuery } from './auth/credential.query';
import { PgCredentialQuery } from './auth/pg-credential.query';
import { CredentialChanges } from './auth/credential-changes';
import { PgCredentialChanges } from './auth/pg-credential-changes';
import { StreamAccessQuery } from './events/stream-access.query';
import { PgStreamAccessQuery } from './events/pg-stream-access.query';
import { PgChangeAnnouncer } from './activity/pg-change.announcer';
import { PgUnitOfWork } from './activity/pg-unit-of-work';
import { NotificationMailOutbox, NotificationRepository } from '@board/notifications';
import { NotificationInboxQuery, PgNotificationInboxQuery, PgNotificationMailOutbox, PgNotificationRepository, PgNotificationWriter } from './notifications';
import { PropertyDefsQuery } from './properties/property-defs.query';
import { PgPropertyDefsQuery } from './properties/pg-property-defs.query';
import { ViewRepository } from '@board/views';
import { PgViewRepository } from './views/pg-view.repository';
import { PropertyRepository } from '@board/properties';
import { ShipRepository } from '@board/shipping';
import { PgPropertyRepository } from './properties/pg-property.repository';
import { PgShipRepository } from './shipping/pg-ship.repository';
import { DatabaseHealthQuery } from './system/health.query';
import { PgDatabaseHealthQuery } from './system/pg-health.query';
import { PoolUseQuery } from './system/pool-use.query';
import { PgPoolUseQuery } from './system/pg-pool-use.query';
import { DeliveryBacklogQuery } from './webhooks/delivery-backlog.query';
import { PgDeliveryBacklogQuery } from './webhooks/pg-delivery-backlog.query';
import { PgHeavyReads } from './system/pg-heavy-reads';
import { PgReplicaReads } from './system/pg-replica-reads';
import { PgBackgroundWork } from './system/pg-background-work';
import { PgInstanceRegistry } from './system/pg-instance-registry';
import { DatabaseLanes } from './lanes';
import { RunRepository, UsageRepository, WorkQueue } from '@board/runs';
import { PgRunRepository, PgUsageRepository } from './runs';
import { PgWorkQueue } from './queue';
import { PgUsageQuery, UsageQuery } from './usage';

/**
 * Binds every storage port to its TypeORM/PostgreSQL adapter over one open DataSource (the
 * requests' pool) and the lanes beside it (the background pool, the heavy reads' limit).
 */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(dataSource: DataSource, lanes: DatabaseLanes): DynamicModule {
    const providers = [
      { provide: DataSource, useValue: dataSource },
      { provide: DatabaseLanes, useValue: lanes },
      Database,
      { provide: HeavyReads, useClass: PgHeavyReads },
      { provide: ReplicaReads, useClass: PgReplicaReads },
      { provide: BackgroundWork, useClass: PgBackgroundWork },
      { provide: InstanceRegistry, useClass: PgInstanceRegistry },
      { provide: UnitOfWork, useClass: PgUnitOfWork },
      { provide: UserRepository, useClass: PgUserRepository },
      { provide: SessionRepository, useClass: PgSessionRepository },
      { provide: SecurityLog, useClass: PgSecurityLog },
      { provide: TotpRepository, useClass: PgTotpRepository },
      { provide: LinkedIdentityRepository, useClass: PgLinkedIdentityRepository },
      { provide: ResetTokenRepository, useClass: PgResetTokenRepository },
      PgThrottleRepository,
      { provide: ThrottleRepository, useExisting: PgThrottleRepository },
      { provide: ProjectRepository, useClass: PgProjectRepository },
      { provide: MemberRepository, useClass: PgMemberRepository },
      { provide: AgentTokenRepository, useClass: PgAgentTokenRepository },
      { provide: InviteMailRepository, useClass: PgInviteMailRepository },
      { provide: ProjectQuery, useClass: PgProjectQuery },
      { provide: CredentialQuery, useClass: PgCredentialQuery },
      { provide: CredentialChanges, useClass: PgCredentialChanges },
      { provide: StreamAccessQuery, useClass: PgStreamAccessQuery },
      { provide: PropertyDefsQuery, useClass: PgPropertyDefsQuery },
      { provide: ViewRepository, useClass: PgViewRepository },
      { provide: PropertyRepository, useClass: PgPropertyRepository },
      { provide: ShipRepository, useClass: PgShipRepository },
      { provide: DatabaseHealthQuery, useClass: PgDatabaseHealthQuery },
      { provide: PoolUseQuery, useClass: PgPoolUseQuery },
      { provide: DeliveryBacklogQuery, useClass: PgDeliveryBacklogQuery },
      { provide: RunRepository, useClass: PgRunRepository },
      { provide: WorkQueue, useClass: PgWorkQueue },
      { provide: UsageRepository, useClass: PgUsageRepository },
      { provide: UsageQuery, useClass: PgUsageQuery },
      { provide: NotificationRepository, useClass: PgNotificationRepository },
      { provide: NotificationMailOutbox, useClass: PgNotificationMailOutbox },
      { provide: NotificationInboxQuery, useClass: PgNotificationInboxQuery },
    ];
    // The unit of work's own adapters: application code declares events, it never records or announces.
    const internal = [PgActivityRecorder, PgChangeAnnouncer, PgNotificationWriter];
    return { module: PersistenceModule, providers: [...providers, ...internal], exports: providers.map((p) => ('provide' in p ? p.provide : p)) };
  }
}
