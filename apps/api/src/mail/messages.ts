import { MailMessage } from '@board/kernel';

/** Text for an HTML part: names and project names are the users' own words. */
const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * The same few paragraphs as plain text and as simple HTML, with the link as a button-like anchor.
 * A paragraph's own line breaks stay lines (`<br>` in HTML).
 */
function message(to: string, subject: string, paragraphs: string[], link: { url: string; label: string } | null, after: string[]): MailMessage {
  const text = [...paragraphs, ...(link ? [link.url] : []), ...after].join('\n\n') + '\n';
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s).replace(/\n/g, '<br>')}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#1f2328">',
    ...paragraphs.map(p),
    ...(link
      ? [
          `<p style="margin:0 0 16px"><a href="${escapeHtml(link.url)}" style="display:inline-block;padding:10px 16px;background:#3f6fd8;color:#ffffff;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>`,
          p(`Or open this address: ${link.url}`),
        ]
      : []),
    ...after.map(p),
    '</body></html>',
  ].join('\n');
  // One line: a name with a line break must not start a header of its own.
  return { to, subject: subject.replace(/\s+/g, ' ').trim(), text, html };
}

/** Every kind of line break (CR, LF, VT, FF, NEL, the Unicode line and paragraph separators). */
const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;

/** A person's own words on one line: each line break becomes a space. */
export const oneLine = (s: string): string => s.replace(LINE_BREAKS, ' ');

export function resetMail(to: string, name: string, url: string): MailMessage {
  return message(
    to,
    'A link to set a new password',
    [`Hello ${name},`, 'Somebody, hopefully you, asked for a link to set a new password for your task board account. It works once, within 24 hours:'],
    { url, label: 'Set a new password' },
    ['If it was not you, ignore this mail: your password stays as it is.'],
  );
}

/**
 * An invite goes to a person who never asked the board for anything, so it carries none of the
 * inviter's words but the two names, each on a line of its own after a label, line breaks made
 * spaces (decisions.md › Fair use): a project named like a warning reads as a name, never as the
 * board speaking. The subject is the board's own.
 */
export function inviteMail(to: string, inviter: string, project: string, url: string): MailMessage {
  return message(
    to,
    'You are invited to a project on a task board',
    [
      'Hello,',
      'Somebody invited this email address to a project on their task board.',
      `Project: ${oneLine(project)}\nInvited by: ${oneLine(inviter)}`,
      'Make your account with this email address to join:',
    ],
    { url, label: 'Make your account' },
    ['If you did not expect this, ignore this mail.'],
  );
}

/**
 * A notification's mail (extensions.md § 2): the decided subject, the question or the comment's
 * words, and with `SERVICE_URL` a link to the task. Subjects hold names on one line.
 */
export function notificationMail(
  to: string,
  n: { kind: 'question' | 'mention'; text: string; actorName: string; taskKey: string },
  url: string | null,
): MailMessage {
  const actor = oneLine(n.actorName);
  const subject = n.kind === 'question' ? `${n.taskKey}: ${actor} asks` : `${actor} mentioned you on ${n.taskKey}`;
  const lead = n.kind === 'question' ? `${actor} asks on ${n.taskKey}:` : `${actor} mentioned you on ${n.taskKey}:`;
  return message(to, subject, [lead, n.text], url ? { url, label: `Open ${n.taskKey}` } : null, [
    'You get these mails because mail notifications are on in your profile on the task board.',
  ]);
}
