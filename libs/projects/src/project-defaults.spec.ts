import { isValidRank, OPTION_COLORS } from '@board/kernel';
import { projectSeed } from './project-defaults';

function counter(): () => string {
  let n = 0;
  return () => `id-${++n}`;
}

describe('projectSeed', () => {
  it('holds a select Status with To do, In progress, Done, in that order', () => {
    const seed = projectSeed(counter());
    expect(seed.status.name).toBe('Status');
    expect(seed.status.type).toBe('select');
    expect(seed.status.config).toEqual({});
    expect(seed.status.options.map((o) => o.name)).toEqual(['To do', 'In progress', 'Done']);
  });

  it('gives the options distinct colours of the option palette and ascending positions', () => {
    const { options } = projectSeed(counter()).status;
    expect(options.map((o) => o.color)).toEqual([OPTION_COLORS[0], OPTION_COLORS[1], OPTION_COLORS[2]]);
    expect(options.map((o) => o.color)).toEqual(['#e0574d', '#d1913a', '#4f8a5b']);
    const positions = options.map((o) => o.position);
    expect(positions.every(isValidRank)).toBe(true);
    expect(positions[0] < positions[1] && positions[1] < positions[2]).toBe(true);
  });

  it('makes Done the doneWhen option', () => {
    const seed = projectSeed(counter());
    const done = seed.status.options.find((o) => o.name === 'Done')!;
    expect(seed.doneOptionId).toBe(done.id);
  });

  it('adds a main board view grouped by Status', () => {
    const seed = projectSeed(counter());
    expect(seed.view).toEqual({
      id: seed.view.id,
      name: 'Board',
      kind: 'board',
      groupById: seed.status.id,
      position: seed.view.position,
      isDefault: true,
    });
    expect(isValidRank(seed.view.position)).toBe(true);
    expect(isValidRank(seed.status.position)).toBe(true);
  });

  it('adds the default card view: the title, and Status as a colour in the header', () => {
    const seed = projectSeed(counter());
    expect(seed.cardView).toEqual({
      rows: {
        _title: { place: 'title', mode: 'fixed' },
        [seed.status.id]: { place: 'headerL', mode: 'colour' },
      },
    });
  });

  it('takes every id from newId, each distinct', () => {
    const seed = projectSeed(counter());
    const ids = [...seed.status.options.map((o) => o.id), seed.status.id, seed.view.id];
    expect(new Set(ids).size).toBe(5);
    expect(ids.every((id) => /^id-[1-5]$/.test(id))).toBe(true);
  });
});
