import { ActivityLine, feedLine, feedLinesRingingOnce, notice, WriteEvent } from '@board/kernel';
import { eventWrites, lineValues } from './event-writes';

const line = (projectId: string, kind: ActivityLine['kind'], extra: Partial<ActivityLine> = {}): ActivityLine => ({ projectId, taskId: null, actorId: null, kind, data: { n: kind }, ...extra });

describe('eventWrites: what a write’s events come to, for both forms of the unit of work', () => {
  it('joins consecutive lines of one project into one batch, keeps order, and collects the notices', () => {
    const change = { projectId: 'p', scope: 'board' as const, clientId: null };
    const writes = eventWrites([feedLine(line('p', 'title')), notice(change), feedLine(line('p', 'value')), feedLine(line('q', 'value')), feedLinesRingingOnce([line('q', 'import')], ['import']) as WriteEvent]);
    expect(writes.batches.map((b) => [b.projectId, b.lines.map((l) => l.kind), b.ringOnce])).toEqual([
      ['p', ['title', 'value'], null],
      ['q', ['value'], null],
      ['q', ['import'], ['import']],
    ]);
    expect(writes.notices).toEqual([change]);
  });

  it('lines become parallel arrays with ascending ids; who was assigned is not stored', () => {
    const values = lineValues({ projectId: 'p', lines: [line('p', 'value', { assigned: [{ propertyId: 'w', propertyName: 'Who', userIds: ['u'] }] }), line('p', 'title')] });
    expect(values.ids).toEqual([...values.ids].sort());
    expect(values.kinds).toEqual(['value', 'title']);
    expect(values.data).toEqual([JSON.stringify({ n: 'value' }), JSON.stringify({ n: 'title' })]);
    expect(JSON.stringify(values)).not.toContain('Who');
  });
});
