import { Injectable } from '@nestjs/common';
import {
  digestOf, newSecret, RESET_LIFETIME_MS, RESET_TOKEN_PREFIX, ResetTokenRepository, resetUrl, Throttle, UserRepository,
} from '@board/accounts';
import { Clock, fail, Mailer } from '@board/kernel';
import { AppConfig } from '../config/app-config';
import { BackgroundMail } from '../mail/background-mail';
import { resetMail } from '../mail/messages';
import { ForgotBody } from './accounts.dto';

export const FORGOT_MESSAGE = 'If an account uses that email, a link to set a new password is on its way. It works once, within 24 hours.';

/**
 * `POST /api/auth/forgot`: a person with a password gets a reset link by mail. The answer is the
 * same for every email and goes out before the email is looked up: the lookup, the link and the
 * mail run after it (BackgroundMail), so neither the answer nor its timing tells whether an
 * account uses the email.
 */
@Injectable()
export class ForgotService {
  constructor(
    private readonly users: UserRepository,
    private readonly resets: ResetTokenRepository,
    private readonly throttle: Throttle,
    private readonly mailer: Mailer,
    private readonly background: BackgroundMail,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** Mail and the service's address are needed for a link: checked before the body is read (`MailOnCheck`). */
  assertAvailable(): string {
    const serviceUrl = this.config.SERVICE_URL;
    if (!this.available || !serviceUrl) fail('forgot.unavailable');
    return serviceUrl;
  }

  /** Whether a person can be mailed a reset link (what sign-in screens offer). */
  get available(): boolean {
    return this.mailer.configured && Boolean(this.config.SERVICE_URL);
  }

  /**
   * Counts the request (per address and per email; every request counts) and answers the work to
   * start once the answer is out.
   */
  async request({ email }: ForgotBody, address: string): Promise<() => void> {
    const serviceUrl = this.assertAvailable();
    await this.throttle.attempt('forgot', [address, email], async () => undefined, { keepSuccess: true });
    return () => this.background.run('A reset link mail', () => this.mailLinks(email, serviceUrl));
  }

  /** A link for each person with a password who uses the email (agents and unknown emails get nothing). */
  private async mailLinks(email: string, serviceUrl: string): Promise<void> {
    const people = (await this.users.findAllByEmail(email)).filter((u) => !u.isAgent && u.passwordHash);
    for (const person of people) {
      const token = newSecret(RESET_TOKEN_PREFIX);
      const expiresAt = new Date(this.clock.now().getTime() + RESET_LIFETIME_MS);
      // Voids the person's older links, member-made ones included: the newest link is the one that works.
      await this.resets.replace(person.id, digestOf(token), expiresAt, null);
      await this.mailer.send(resetMail(email, person.name, resetUrl(serviceUrl, token)));
    }
  }
}
