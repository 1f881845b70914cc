import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccessGuard } from './access.guard';
import { CredentialsService } from './credentials.service';

/** Who calls: the credential check and the one global access guard every route goes through. */
@Module({
  providers: [CredentialsService, { provide: APP_GUARD, useClass: AccessGuard }],
  exports: [CredentialsService],
})
export class AuthModule {}
