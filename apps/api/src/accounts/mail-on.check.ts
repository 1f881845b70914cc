import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { BeforeBody, refuseNonObjectBody } from '../http/before-body';
import { ForgotService } from './forgot.service';

/** A reset link needs mail and the service's address: without them the route says so before reading the email. */
@Injectable()
export class MailOnCheck extends BeforeBody {
  constructor(private readonly forgotten: ForgotService) {
    super();
  }

  protected async check(request: FastifyRequest): Promise<void> {
    refuseNonObjectBody(request);
    this.forgotten.assertAvailable();
  }
}
