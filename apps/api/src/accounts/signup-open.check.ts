import { Injectable } from '@nestjs/common';
import { BeforeBody } from '../http/before-body';
import { AccountsService } from './accounts.service';

/** Closed sign-up answers before anything of the request is read, even a body that does not parse. */
@Injectable()
export class SignupOpenCheck extends BeforeBody {
  constructor(private readonly accounts: AccountsService) {
    super();
  }

  protected async check(): Promise<void> {
    this.accounts.assertSignupOpen();
  }
}
