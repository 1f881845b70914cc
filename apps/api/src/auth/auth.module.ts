import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { EventsModule } from '../events/events.module';
import { AccessGuard } from './access.guard';
import { CredentialCache } from './credential-cache';
import { CredentialsService } from './credentials.service';

/** Who calls: the credential check (its answers kept a few seconds, by notice) and the one global access guard every route goes through. */
@Module({
  imports: [EventsModule],
  providers: [CredentialsService, CredentialCache, { provide: APP_GUARD, useClass: AccessGuard }],
  exports: [CredentialsService],
})
export class AuthModule {}
