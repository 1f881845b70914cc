import { Injectable } from '@nestjs/common';
import { signUpUrl } from '@board/accounts';
import { Mailer } from '@board/kernel';
import { ProjectRepository } from '@board/projects';
import { AppConfig } from '../config/app-config';
import { BackgroundMail } from '../mail/background-mail';
import { inviteMail } from '../mail/messages';

/**
 * How long adding a member waits for the relay to accept the invite mail. Past it the answer says
 * `mailed: false` (the screen offers the link) while the mail goes on in the background: a slow
 * relay holds the request this long at most, and never fails the add.
 */
export const INVITE_MAIL_WAIT_MS = 10_000;

/** The invite mail: whether one can go (mail and SERVICE_URL set), its link, and the bounded send. */
@Injectable()
export class InviteMailService {
  constructor(
    private readonly mailer: Mailer,
    private readonly projects: ProjectRepository,
    private readonly background: BackgroundMail,
    private readonly config: AppConfig,
  ) {}

  /** Mail goes out only with a relay and the service's address (the link is built from it). */
  get canMail(): boolean {
    return this.mailer.configured && Boolean(this.config.SERVICE_URL);
  }

  /** `<SERVICE_URL>/?invite=<email>`, or null without SERVICE_URL. */
  signupUrl(email: string): string | null {
    return this.config.SERVICE_URL ? signUpUrl(this.config.SERVICE_URL, email) : null;
  }

  /** Sends the invite mail; answers true when the relay accepted it within INVITE_MAIL_WAIT_MS. Never rejects. */
  async send(projectId: string, email: string, inviterName: string): Promise<boolean> {
    const url = this.signupUrl(email);
    if (!this.canMail || !url) return false;
    return this.background.within('An invite mail', INVITE_MAIL_WAIT_MS, async () => {
      const project = await this.projects.findById(projectId);
      if (!project) throw new Error('the project is gone');
      await this.mailer.send(inviteMail(email, inviterName, project.snapshot.name, url));
    });
  }
}
