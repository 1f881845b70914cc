import { SingleSignOn } from '@board/accounts';
import { fail } from '@board/kernel';

/** Single sign-on of a server with no provider set: off, whoever asks. */
export class SignOnOff extends SingleSignOn {
  private off(): never {
    return fail('oidc.off');
  }
  start = async () => this.off();
  finish = async () => this.off();
}
