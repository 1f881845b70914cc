import { CanActivate, Injectable } from '@nestjs/common';
import { AccountsService } from './accounts.service';

/** Closed sign-up answers before anything of the request is read, even a body that does not parse. */
@Injectable()
export class SignupOpenGuard implements CanActivate {
  constructor(private readonly accounts: AccountsService) {}

  canActivate(): boolean {
    this.accounts.assertSignupOpen();
    return true;
  }
}
