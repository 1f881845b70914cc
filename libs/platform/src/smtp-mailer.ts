import { createTransport, Transporter } from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport';
import { Mailer, MailMessage } from '@board/kernel';

export interface SmtpSettings {
  /** `smtp://user:pass@host:port` or `smtps://…`; unset: mail is off. */
  url?: string;
  /** The sender, e.g. `Task board <board@example.com>`; unset: mail is off. */
  from?: string;
}

/**
 * The Mailer port on nodemailer's SMTP transport. Short timeouts: a mail goes out in the
 * background, and a relay that hangs must not hold a send (and the shutdown that waits for it)
 * for nodemailer's default of minutes.
 */
export class SmtpMailer extends Mailer {
  private readonly transport: Transporter | null;

  constructor(private readonly settings: SmtpSettings) {
    super();
    this.transport =
      settings.url && settings.from
        ? // The transport itself, not createTransport(url): that drops every option beside a URL.
          createTransport(new SMTPTransport({ url: settings.url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }))
        : null;
  }

  get configured(): boolean {
    return this.transport !== null;
  }

  async send(message: MailMessage): Promise<void> {
    if (!this.transport) throw new Error('mail is not configured');
    await this.transport.sendMail({ from: this.settings.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
  }

  close(): void {
    this.transport?.close();
  }
}
