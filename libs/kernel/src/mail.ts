/** One mail: a plain-text part and an HTML part that say the same thing. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Outgoing mail, a port: SMTP in production (libs/platform). `configured` is false when the
 * server has no transport or sender, and then nothing may be sent.
 */
export abstract class Mailer {
  abstract readonly configured: boolean;
  /** Resolves once the relay accepted the mail; rejects when it could not be handed over. */
  abstract send(message: MailMessage): Promise<void>;
}
