/**
 * A real SMTP receiver for the mail tests (npm `smtp-server`), started on a free port by the test:
 * it keeps every mail it accepts, parsed into its headers and its plain-text and HTML parts.
 * `refuse` makes it answer 550 to every recipient, like a relay that will not take the mail;
 * `answerAfterMs` makes it accept each mail that long after it arrived, like a slow relay.
 */
import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string | null;
  html: string | null;
  raw: string;
}

export interface MailCatcher {
  url: string;
  port: number;
  mails: ReceivedMail[];
  /** While true, every recipient is refused with 550. */
  refuse: boolean;
  /** While above 0, a mail is accepted that many ms after it arrived (it is in `mails` at once). */
  answerAfterMs: number;
  /** Resolves once `count` mails have arrived (throws after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: ReceivedMail[] = [];
  const catcher = { refuse: false, answerAfterMs: 0 } as MailCatcher;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (catcher.refuse) {
        const error = new Error('Mailbox refused') as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          ...parseMail(raw),
          raw,
        });
        if (catcher.answerAfterMs > 0) setTimeout(callback, catcher.answerAfterMs);
        else callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return Object.assign(catcher, {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    async waitFor(count: number, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} mails, got ${mails.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return mails.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** Headers (unfolded, names lower-cased) and a body of a MIME entity. */
function splitEntity(entity: string): { headers: Record<string, string>; body: string } {
  const at = entity.search(/\r?\n\r?\n/);
  const head = at < 0 ? entity : entity.slice(0, at);
  const body = at < 0 ? '' : entity.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable': {
      // =XX is one byte; everything else stands for itself. The bytes are read as UTF-8.
      const text = body.replace(/=\r?\n/g, '');
      const bytes: number[] = [];
      for (let i = 0; i < text.length; i++) {
        const hex = text[i] === '=' ? text.slice(i + 1, i + 3) : '';
        if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
          bytes.push(parseInt(hex, 16));
          i += 2;
        } else bytes.push(...Buffer.from(text[i], 'utf8'));
      }
      return Buffer.from(bytes).toString('utf8');
    }
    default:
      return body;
  }
}

/** RFC 2047 encoded words in a header (`=?UTF-8?Q?…?=` / `=?UTF-8?B?…?=`). */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeBody(text.replace(/_/g, ' '), 'quoted-printable'),
    );
}

function parseMail(raw: string): Omit<ReceivedMail, 'from' | 'to' | 'raw'> {
  const { headers, body } = splitEntity(raw);
  const parts: Record<'text' | 'html', string | null> = { text: null, html: null };
  const collect = (entityHeaders: Record<string, string>, entityBody: string) => {
    const type = entityHeaders['content-type'] ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (/^multipart\//i.test(type) && boundary) {
      const pieces = entityBody.split(`--${boundary}`).slice(1);
      for (const piece of pieces) {
        if (piece.startsWith('--')) break;
        const inner = splitEntity(piece.replace(/^\r?\n/, ''));
        collect(inner.headers, inner.body);
      }
      return;
    }
    const decoded = decodeBody(entityBody, entityHeaders['content-transfer-encoding']);
    if (/^text\/html/i.test(type)) parts.html = decoded;
    else if (/^text\/plain/i.test(type)) parts.text = decoded;
  };
  collect(headers, body);
  return { headers, subject: decodeWords(headers.subject ?? ''), ...parts };
}
