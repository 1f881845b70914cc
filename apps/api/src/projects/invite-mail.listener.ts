import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { signUpUrl } from '@board/accounts';
import { Mailer } from '@board/kernel';
import { ProjectRepository } from '@board/projects';
import { AppConfig } from '../config/app-config';
import { BackgroundMail } from '../mail/background-mail';
import { inviteMail } from '../mail/messages';
import { InviteMade } from './invite-made.event';

/**
 * When mail is configured (and SERVICE_URL, which the link is built from), an invite mails its
 * person a sign-up link. An event rather than a call from MembersService: adding a member stays
 * about membership, and a mail that fails is logged without touching the answer.
 */
@Injectable()
export class InviteMailListener {
  constructor(
    private readonly mailer: Mailer,
    private readonly projects: ProjectRepository,
    private readonly background: BackgroundMail,
    private readonly config: AppConfig,
  ) {}

  @OnEvent(InviteMade.NAME)
  onInviteMade(event: InviteMade): void {
    const serviceUrl = this.config.SERVICE_URL;
    if (!this.mailer.configured || !serviceUrl) return;
    this.background.run('An invite mail', async () => {
      const project = await this.projects.findById(event.projectId);
      if (!project) return;
      await this.mailer.send(inviteMail(event.email, event.inviterName, project.snapshot.name, signUpUrl(serviceUrl, event.email)));
    });
  }
}
