import { ActivityLine, feedLine, feedLinesRingingOnce, notice, said } from '@board/kernel';
import { mentionProjects, notificationIntents } from './intents';

const base = { projectId: 'p', taskId: 't', actorId: 'actor' };
const line = (over: Partial<ActivityLine>): ActivityLine => ({ ...base, kind: 'value', data: {}, ...over });

describe('notificationIntents', () => {
  it('makes one assigned notice per property that gained people, named by the property', () => {
    const events = [feedLine(line({ assigned: [{ propertyId: 'a', propertyName: 'Assignee', userIds: ['u1'] }, { propertyId: 'b', propertyName: 'Reviewer', userIds: [] }] }))];
    expect(notificationIntents(events)).toEqual([{ ...base, kind: 'assigned', text: 'Assignee', runId: null, recipients: ['u1'] }]);
  });

  it('never tells of an import', () => {
    const lines = [line({ kind: 'import', assigned: [{ propertyId: 'a', propertyName: 'Assignee', userIds: ['u1'] }] })];
    expect(notificationIntents([feedLinesRingingOnce(lines, ['import'])!])).toEqual([]);
  });

  it('tells of a run that ends done, failed or lost, not of other closes', () => {
    const closing = (status: string) => feedLine(line({ kind: 'run', data: { runId: 'r', status } }));
    expect(notificationIntents([closing('done'), closing('failed'), closing('lost')]).map((i) => i.kind)).toEqual(['run_ended', 'run_ended', 'run_ended']);
    expect(notificationIntents([closing('handed_over'), closing('stopped')])).toEqual([]);
    expect(notificationIntents([closing('lost')])[0]).toMatchObject({ runId: 'r', text: null, recipients: null });
  });

  it('tells the task people of a question, with its text', () => {
    expect(notificationIntents([said({ kind: 'question', ...base, text: 'Keep it?' })])).toEqual([
      { ...base, kind: 'question', text: 'Keep it?', runId: null, recipients: null },
    ]);
  });

  it('tells the people a comment newly mentions, never its author, with its first 200 characters', () => {
    const people = [{ id: 'ann', name: 'Ann' }, { id: 'actor', name: 'Me' }, { id: 'bob', name: 'Bob' }];
    const text = `@Ann @Me @Bob ${'x'.repeat(300)}`;
    const [intent] = notificationIntents([said({ kind: 'comment', ...base, text, before: '@Bob' })], () => people);
    expect(intent).toEqual({ ...base, kind: 'mention', text: text.slice(0, 200), runId: null, recipients: ['ann'] });
    expect(notificationIntents([said({ kind: 'comment', ...base, text: 'no one', before: null })], () => people)).toEqual([]);
  });

  it('ignores notices and lines that assign nobody', () => {
    expect(notificationIntents([notice({ projectId: 'p', scope: 'board', clientId: null }), feedLine(line({}))])).toEqual([]);
  });
});

describe('mentionProjects', () => {
  it('names a project only when a comment holds an @', () => {
    expect(mentionProjects([said({ kind: 'comment', ...base, text: 'hi', before: null }), said({ kind: 'comment', ...base, projectId: 'q', text: '@x', before: null })])).toEqual(['q']);
  });
});
