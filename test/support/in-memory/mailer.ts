import { Mailer, MailMessage } from '@board/kernel';

/** A mailer that keeps what it was asked to send; `configured` as the spec sets it. */
export class RecordingMailer extends Mailer {
  readonly sent: MailMessage[] = [];

  constructor(readonly configured = true) {
    super();
  }

  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
}
