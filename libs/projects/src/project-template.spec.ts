import { DomainError, isValidRank } from '@board/kernel';
import { projectSeed } from './project-defaults';
import { readProjectTemplate } from './project-template';

function counter(): () => string {
  let n = 0;
  return () => `id-${++n}`;
}

describe('readProjectTemplate', () => {
  it('reads absent and null as empty', () => {
    expect(readProjectTemplate(undefined)).toBe('empty');
    expect(readProjectTemplate(null)).toBe('empty');
  });

  it('reads the two names', () => {
    expect(readProjectTemplate('empty')).toBe('empty');
    expect(readProjectTemplate('team')).toBe('team');
  });

  it.each(['Team', ' team', 'kanban', '', 1, [], {}])('refuses %j', (value) => {
    expect(() => readProjectTemplate(value)).toThrow(DomainError);
    try {
      readProjectTemplate(value);
    } catch (error) {
      expect((error as DomainError).code).toBe('project.template_invalid');
    }
  });
});

describe('projectSeed with a template', () => {
  it('empty adds nothing after Status', () => {
    expect(projectSeed(counter(), 'empty').more).toEqual([]);
  });

  it('team adds Assignee, Due, Priority, Labels after Status in ascending positions', () => {
    const seed = projectSeed(counter(), 'team');
    expect(seed.more.map((p) => [p.name, p.type])).toEqual([
      ['Assignee', 'person'], ['Due', 'date'], ['Priority', 'select'], ['Labels', 'multi_select'],
    ]);
    const positions = [seed.status.position, ...seed.more.map((p) => p.position)];
    expect(positions.every(isValidRank)).toBe(true);
    expect([...positions].sort()).toEqual(positions);
    expect(new Set(positions).size).toBe(5);
    expect(seed.more[2].options.map((o) => o.name)).toEqual(['Urgent', 'High', 'Medium', 'Low']);
    expect(seed.more[3].options.map((o) => o.name)).toEqual(['Bug', 'Feature', 'Chore']);
  });

  it('team shows them on the card and takes every id from newId, each distinct', () => {
    const seed = projectSeed(counter(), 'team');
    for (const p of seed.more) expect(seed.cardView.rows[p.id]).toBeDefined();
    expect(seed.cardView.rows[seed.more[0].id]).toEqual({ place: 'footer', mode: 'avatar' });
    const ids = [seed.status.id, ...seed.status.options.map((o) => o.id), ...seed.more.flatMap((p) => [p.id, ...p.options.map((o) => o.id)]), seed.view.id];
    expect(new Set(ids).size).toBe(ids.length);
  });
});
