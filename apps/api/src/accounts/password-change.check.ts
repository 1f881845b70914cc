import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { BeforeBody } from '../http/before-body';
import { bodyObject } from '../http/json-body';
import { AccountsService } from './accounts.service';

/**
 * A person with a password sends it beside the new one (the contract's first sentence when either
 * is missing, before the new one's length); a person without one yet (single sign-on) sends the
 * new one alone. Which of the two depends on the stored account, so it is checked before the body.
 */
@Injectable()
export class PasswordChangeCheck extends BeforeBody {
  constructor(private readonly accounts: AccountsService) {
    super();
  }

  protected async check(request: FastifyRequest): Promise<void> {
    const body = bodyObject(request.body);
    const { auth } = request;
    if (!auth) throw new Error('PasswordChangeCheck runs behind the access guard');
    await this.accounts.assertPasswordChangeComplete(auth.caller.id, body);
  }
}
