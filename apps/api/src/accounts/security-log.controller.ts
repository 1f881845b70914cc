import { Controller, Get } from '@nestjs/common';
import { Person } from '../auth/access.decorator';
import { BySession, SessionAuth } from '../auth/auth-context';
import { SecurityLogService } from './security-log.service';

/** People only, like every auth route: a bearer token is ignored here. */
@Controller('auth')
export class SecurityLogController {
  constructor(private readonly log: SecurityLogService) {}

  @Person()
  @Get('me/security')
  security(@BySession() auth: SessionAuth) {
    return this.log.recent(auth.caller.id);
  }
}
