/**
 * Imported names are data, never code (decisions › Fair use): a Trello label colour that is not
 * one of Trello's colour names gets the default option colour, and names and ids such as
 * `constructor`, `__proto__`, `toString` or `hasOwnProperty` — of lists, labels, cards, members —
 * come in as the text they are, never as something found on an object's prototype.
 */
import { expectStatus } from '../support/fixtures';
import { propertyNamed } from '../support/builders';
import { createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

const GREY = '#8b8f98';
const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

describe('imported names are data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** Written as JSON text: a `__proto__` key in an object literal would set the prototype instead. */
  function hostileExport(): string {
    const lists = NAMES.map((name, i) => ({ id: name, name, closed: false, pos: i }));
    const labels = [
      ...NAMES.map((name) => ({ id: `label-${name}`, name, color: name })),
      ...NAMES.map((name) => ({ id: `unnamed-${name}`, name: '', color: name })),
      { id: 'green', name: 'Green one', color: 'green' },
    ];
    const cards = NAMES.map((name, i) => ({
      id: name,
      name,
      desc: name,
      closed: false,
      pos: i,
      idList: name,
      idLabels: [`label-${name}`, `unnamed-${name}`, 'green'],
    }));
    const checklists = NAMES.map((name, i) => ({ id: `check-${name}`, idCard: name, pos: i, checkItems: [{ id: `item-${name}`, name, state: 'complete', pos: 1 }] }));
    const actions = NAMES.map((name, i) => ({
      id: `action-${i}`,
      type: 'commentCard',
      date: '2024-01-02T03:04:05.000Z',
      data: { text: `said ${name}`, card: { id: name } },
      memberCreator: { fullName: name, username: name },
    }));
    return JSON.stringify({ name: 'Hostile', lists, labels, cards, checklists, actions });
  }

  it('gives a label colour that is not a Trello colour the default option colour, and keeps every name as text', async () => {
    const owner = await registerPerson(t);
    const project = await createProject(owner.client);
    const raw = hostileExport();
    const preview = await expectStatus(owner.client.post(`/projects/${project.id}/import/preview`, undefined, { raw }), 200);
    expect(preview).toMatchObject({ preview: { tasks: NAMES.length, lists: NAMES.length, labels: NAMES.length * 2 + 1, comments: NAMES.length } });
    expect(await expectStatus(owner.client.post(`/projects/${project.id}/import`, undefined, { raw }), 200)).toEqual({ imported: NAMES.length, skipped: [] });

    const labels = await propertyNamed(owner.client, project.id, 'Labels');
    const colors = Object.fromEntries(labels.options.map((o) => [o.name, o.color]));
    for (const name of NAMES) expect(colors[name]).toBe(GREY);
    // An unnamed label takes its colour's name, as text (`__proto__` reads "Proto"); only the
    // Trello colour is not grey.
    expect(labels.options.map((o) => o.name)).toContain('Proto');
    expect(colors['Green one']).toBe('#4f8a5b');
    for (const option of labels.options) expect(option.color).toBe(option.name === 'Green one' ? '#4f8a5b' : GREY);

    const status = await propertyNamed(owner.client, project.id, 'Status');
    for (const name of NAMES) expect(status.options.map((o) => o.name)).toContain(name);
    for (const option of status.options) expect(option.color).toMatch(/^#[0-9a-f]{6}$/);

    const { rows } = await t.sql.query<{ title: string; description: string; items: string[]; comments: string[] }>(
      `SELECT t.title, t.description,
              ARRAY(SELECT text FROM checklist_items c WHERE c.task_id = t.id) AS items,
              ARRAY(SELECT body FROM comments m WHERE m.task_id = t.id) AS comments
         FROM tasks t WHERE t.project_id = $1 ORDER BY t.number`,
      [project.id],
    );
    expect(rows.map((r) => r.title)).toEqual(NAMES);
    rows.forEach((row, i) => {
      expect(row.description).toBe(NAMES[i]);
      expect(row.items).toEqual([NAMES[i]]);
      expect(row.comments).toHaveLength(1);
      expect(row.comments[0]).toContain(NAMES[i]);
      expect(row.comments[0]).not.toContain('native code');
    });
  });

  it('refuses an entry whose field is missing even when a prototype would have one', async () => {
    const owner = await registerPerson(t);
    const project = await createProject(owner.client);
    // A card without a name of its own: `toString` and friends are not names.
    const raw = JSON.stringify({ lists: [{ id: 'l', name: 'L' }], cards: [{ id: 'c', idList: 'l', desc: '' }] }).replace('"desc":""', '"desc":"","__proto__":{"name":"Injected"}');
    const res = await owner.client.post(`/projects/${project.id}/import/preview`, undefined, { raw });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain('Injected');
  });
});
