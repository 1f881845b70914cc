/**
 * Feed lines, webhook outbox rows and stream notices are written in one place: the unit of work,
 * from the events a write declares (`withEvents(result, feedLine(…), notice(…))` or `silent`).
 * Application code may not reach the recorder, the announcer or the notice channels directly, so
 * a write cannot leave a feed line without its outbox rows, or ring the stream by hand.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const APP = join(ROOT, 'apps', 'api', 'src');

/** What only the unit of work's adapter may use. */
const FORBIDDEN: { pattern: RegExp; why: string }[] = [
  { pattern: /\bActivityRecorder\b|\bPgActivityRecorder\b/, why: 'the recorder (declare feedLine events instead)' },
  { pattern: /\bChangeAnnouncer\b|\bPgChangeAnnouncer\b/, why: 'the announcer (declare notice events instead)' },
  { pattern: /\.record(Many|RingingOnce)?\(|\.announce\(\s*\{/, why: 'a direct record/announce call' },
  // Presence (who edits which field) is no change of the project: its own channel, no feed line.
  { pattern: /\bCHANGE_CHANNEL\b|\bWEBHOOK_CHANNEL\b|\.notify\((?!PRESENCE_CHANNEL\b)/, why: 'a notice sent by hand' },
  { pattern: /\buow\.run\(/, why: 'a transaction that declares no events (use uow.write)' },
];

/** The offences of one source text, as `line: why`. */
export function offences(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const { pattern, why } of FORBIDDEN) if (pattern.test(line)) found.push(`${i + 1}: ${why}`);
  });
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('write events', () => {
  it('catches a write that records, announces or notifies by hand (fixture)', () => {
    const breach = [
      "import { ActivityRecorder, UnitOfWork } from '@board/kernel';",
      '  constructor(private readonly activity: ActivityRecorder, private readonly changes: ChangeAnnouncer) {}',
      "    await this.activity.record({ projectId, taskId, actorId, kind: 'comment', data });",
      "    await this.changes.announce({ projectId, scope: 'task', taskId, clientId });",
      '    await this.db.notify(WEBHOOK_CHANNEL, projectId);',
      '    await this.uow.run(async () => {',
    ].join('\n');
    expect(offences(breach).map((o) => o.split(':')[0])).toEqual(['1', '2', '2', '3', '4', '5', '6']);
    // A declared write passes.
    const declared = "    return this.uow.write(async () => withEvents(undefined, feedLine(line), notice({ projectId, scope: 'board', clientId })));";
    expect(offences(declared)).toEqual([]);
  });

  it('apps/api leaves feed lines and notices to the unit of work', () => {
    const files = sources(APP);
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((path) => offences(readFileSync(path, 'utf8')).map((o) => `${relative(ROOT, path)}:${o}`));
    expect(found).toEqual([]);
  });
});
