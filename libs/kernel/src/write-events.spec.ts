import { feedLine, feedLines, feedLinesRingingOnce, notice, silent, withEvents } from './write-events';
import { ActivityLine } from './activity';

const line = (kind: ActivityLine['kind'], taskId: string | null = 't1'): ActivityLine => ({ projectId: 'p1', taskId, actorId: 'u1', kind, data: {} });

describe('write events', () => {
  it('keeps the events in the order given, flattening lists and dropping branches that changed nothing', () => {
    const ring = notice({ projectId: 'p1', scope: 'board', clientId: null });
    const w = withEvents(7, feedLine(line('title')), false, null, undefined, [feedLines([line('value'), line('archive')]), []], ring);
    expect(w.result).toBe(7);
    expect(w.events.map((e) => (e.type === 'line' ? e.line.kind : e.type))).toEqual(['title', 'value', 'archive', 'notice']);
  });

  it('silent answers with no events; lines ringing once with no lines are no event', () => {
    expect(silent('x')).toEqual({ result: 'x', events: [] });
    expect(feedLinesRingingOnce([], ['import'])).toBeNull();
    expect(feedLinesRingingOnce([line('import', null)], ['import'])).toEqual({ type: 'lines-ringing-once', lines: [line('import', null)], kinds: ['import'] });
  });
});
