import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { bodyObject } from '../http/json-body';
import { ForgotService } from './forgot.service';

/** A reset link needs mail and the service's address: without them the route says so before reading the email. */
@Injectable()
export class MailOnGuard implements CanActivate {
  constructor(private readonly forgotten: ForgotService) {}

  canActivate(context: ExecutionContext): boolean {
    // A body that is no JSON object is refused first, as for every route.
    bodyObject(context.switchToHttp().getRequest<FastifyRequest>().body);
    this.forgotten.assertAvailable();
    return true;
  }
}
