import { randomUUID } from 'node:crypto';
import { createProperty, createTaskFromBody, expectError, expectStatus } from '../support/fixtures';
import { boardOf, liveTasks, readTask, taskFeed, valuesOf } from '../support/builders-b';
import { Agent, aTeam, optionId, Prop } from '../support/builders';
import type { ProjectAnswer, TaskAnswer } from '../support/answers';
import { addMember, Client, createAgent, createProject, Person, startTestApp, TestApp } from '../support/test-app';

describe('task values', () => {
  let t: TestApp;
  let owner: Person;
  let member: Person;
  let outsider: Person;
  let agent: Agent;
  let project: ProjectAnswer;
  let otherProject: ProjectAnswer;
  let status: Prop;
  let tags: Prop;
  let owners: Prop;
  let notes: Prop;
  let points: Prop;
  let due: Prop;
  let flag: Prop;
  let links: Prop;
  let foreignProp: Prop;

  const optOf = optionId;

  const newTask = (body: Record<string, unknown>, as: Client = owner.client, projectId: string = project.id): Promise<TaskAnswer> =>
    createTaskFromBody(as, projectId, body);
  const storedValues = (taskId: string) => valuesOf(owner.client, taskId);
  const feed = (taskId: string, kind = 'value') => taskFeed(owner.client, taskId, kind);
  const put = (taskId: string, propertyId: string, body: unknown, as: Client = owner.client) => as.put(`/tasks/${taskId}/values/${propertyId}`, body);

  /** `when` through the property PATCH (a member may set it); a refusal fails the test. */
  async function setWhen(propertyId: string, when: { propertyId: string; optionIds: string[] }) {
    await expectStatus(member.client.patch(`/properties/${propertyId}`, { when }), 200);
  }

  /** `defaults` through the property PATCH (owner); a refusal fails the test. */
  async function setDefaults(propertyId: string, defaults: Record<string, unknown>) {
    await expectStatus(owner.client.patch(`/properties/${propertyId}`, { defaults }), 200);
  }

  beforeAll(async () => {
    t = await startTestApp();
    const team = await aTeam(t, {
      name: 'Values',
      key: 'VAL',
      properties: {
        Tags: ['multi_select', ['Red', 'Green', 'Blue']],
        Owner: ['person'],
        Notes: ['text'],
        Points: ['number'],
        Due: ['date'],
        Flag: ['checkbox'],
        Links: ['link'],
      },
    });
    ({ owner, member, outsider, project, otherProject, agent, status, foreignStatus: foreignProp } = team);
    ({ Tags: tags, Owner: owners, Notes: notes, Points: points, Due: due, Flag: flag, Links: links } = team.props);
  });
  afterAll(() => t.close());

  const longLink = (n: number) => 'https://example.com/' + 'a'.repeat(n - 'https://example.com/'.length);

  /** [label, property, sent, stored] — the value table's normalisations. */
  const accepted = (): [string, Prop, unknown, unknown][] => [
    ['select option', status, optOf(status, 'Done'), optOf(status, 'Done')],
    ['select option in upper case', status, optOf(status, 'Done').toUpperCase(), optOf(status, 'Done')],
    ['multi-select list, non-strings dropped, deduplicated', tags, [optOf(tags, 'Red'), 5, null, optOf(tags, 'Blue'), optOf(tags, 'Red'), { x: 1 }], [optOf(tags, 'Red'), optOf(tags, 'Blue')]],
    ['multi-select keeps the order sent', tags, [optOf(tags, 'Blue'), optOf(tags, 'Green')], [optOf(tags, 'Blue'), optOf(tags, 'Green')]],
    ['person: a member', owners, member.user.id, member.user.id],
    ['person: an agent', owners, agent.agent.id, agent.agent.id],
    ['person: upper-case id', owners, owner.user.id.toUpperCase(), owner.user.id],
    ['text', notes, 'Some words', 'Some words'],
    ['text truncated at 2000', notes, 'é'.repeat(2500), 'é'.repeat(2000)],
    ['number', points, 42, 42],
    ['number from a string', points, '42', 42],
    ['negative fraction', points, -1.5, -1.5],
    ['zero', points, 0, 0],
    ['date', due, '2024-02-29', '2024-02-29'],
    ['date in an early year', due, '0050-06-01', '0050-06-01'],
    ['date: first day', due, '0001-01-01', '0001-01-01'],
    ['checkbox true', flag, true, true],
    ['checkbox "true"', flag, 'true', true],
    ['checkbox false', flag, false, false],
    ['checkbox "yes" is false', flag, 'yes', false],
    ['checkbox 1 is false', flag, 1, false],
    ['link: a single string is a list of one', links, 'https://example.com', ['https://example.com']],
    [
      'links: blanks dropped, fragment and trailing-slash twins dropped',
      links,
      ['https://a.example/x', '  ', '', 'https://a.example/x/', 'https://a.example/x#part', 'http://b.example/'],
      ['https://a.example/x', 'http://b.example/'],
    ],
    ['links: 20 links', links, Array.from({ length: 20 }, (_, i) => `https://example.com/${i}`), Array.from({ length: 20 }, (_, i) => `https://example.com/${i}`)],
    ['links: 21 sent with one twin is 20', links, [...Array.from({ length: 20 }, (_, i) => `https://example.com/${i}`), 'https://example.com/0/'], Array.from({ length: 20 }, (_, i) => `https://example.com/${i}`)],
    ['link of 2000 characters', links, [longLink(2000)], [longLink(2000)]],
  ];

  /** [label, property, sent, message] — every refusal of the value table. */
  const refused = (): [string, Prop, unknown, string][] => [
    ['select: a number', status, 5, 'Status needs one option.'],
    ['select: a list', status, [optOf(status, 'Done')], 'Status needs one option.'],
    ['select: unknown option', status, randomUUID(), 'One of the options does not exist any more.'],
    ['select: another property’s option', status, optOf(tags, 'Red'), 'One of the options does not exist any more.'],
    ['select: not an id', status, 'Done', 'One of the options does not exist any more.'],
    ['multi-select: a string', tags, optOf(tags, 'Red'), 'Tags needs a list of options.'],
    ['multi-select: an object', tags, { a: 1 }, 'Tags needs a list of options.'],
    ['multi-select: unknown option', tags, [optOf(tags, 'Red'), randomUUID()], 'One of the options does not exist any more.'],
    ['person: a number', owners, 7, 'Owner needs one member.'],
    ['person: not a member', owners, outsider.user.id, 'That person is not a member of this project.'],
    ['person: nobody', owners, randomUUID(), 'That person is not a member of this project.'],
    ['text: a number', notes, 12, 'Notes needs text.'],
    ['text: a list', notes, ['x'], 'Notes needs text.'],
    ['number: words', points, 'abc', 'Points needs a number.'],
    ['number: true', points, true, 'Points needs a number.'],
    ['number: a list', points, [1], 'Points needs a number.'],
    ['number: blank string', points, '   ', 'Points needs a number.'],
    ['date: impossible day', due, '2024-02-30', 'Due needs a date like YYYY-MM-DD.'],
    ['date: with a time', due, '2024-02-28T10:00:00Z', 'Due needs a date like YYYY-MM-DD.'],
    ['date: other format', due, '28/02/2024', 'Due needs a date like YYYY-MM-DD.'],
    ['date: a number', due, 20240228, 'Due needs a date like YYYY-MM-DD.'],
    ['date: month 13', due, '2024-13-01', 'Due needs a date like YYYY-MM-DD.'],
    ['date: 29 February of a common year', due, '2023-02-29', 'Due needs a date like YYYY-MM-DD.'],
    ['date: impossible day in an early year', due, '0050-02-30', 'Due needs a date like YYYY-MM-DD.'],
    ['date: day zero', due, '2024-01-00', 'Due needs a date like YYYY-MM-DD.'],
    ['link: ftp', links, 'ftp://example.com/file', 'Links takes only http and https links.'],
    ['link: not a URL', links, ['just words'], 'Links takes only http and https links.'],
    ['link: javascript', links, ['javascript:alert(1)'], 'Links takes only http and https links.'],
    ['links: 21', links, Array.from({ length: 21 }, (_, i) => `https://example.com/${i}`), 'Links holds at most 20 links.'],
    ['link of 2001 characters', links, [longLink(2001)], 'Links takes links of at most 2000 characters.'],
    ['link: a number', links, 5, 'Links needs a list of links.'],
    ['link: a number in the list', links, ['https://example.com', 5], 'Links needs a list of links.'],
  ];

  describe('on create', () => {
    it('stores every accepted value as the table says', async () => {
      for (const [label, prop, sent, stored] of accepted()) {
        const res = await owner.client.post(`/projects/${project.id}/tasks`, { title: label, values: { [prop.id]: sent } });
        expect({ label, status: res.status }).toEqual({ label, status: 201 });
        expect({ label, value: res.body.task.values[prop.id] }).toEqual({ label, value: stored });
        expect({ label, value: (await storedValues(res.body.task.id))[prop.id] }).toEqual({ label, value: stored });
      }
    });

    it('refuses every bad value with its message and creates nothing', async () => {
      const count = async () => (await liveTasks(owner.client, project.id)).length;
      const last = await newTask({ title: 'Before the refusals' });
      const before = await count();
      for (const [label, prop, sent, error] of refused()) {
        const res = await owner.client.post(`/projects/${project.id}/tasks`, { title: label, values: { [prop.id]: sent } });
        expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 400, body: { error } });
      }
      expect(await count()).toBe(before);
      // A refused create hands out no number: the next create takes the one after the last.
      expect((await newTask({ title: 'After the refusals' })).number).toBe(last.number + 1);
    });

    it('refuses a number that does not fit (1e309) sent as raw JSON', async () => {
      const raw = `{"title":"Huge","values":{"${points.id}":1e309}}`;
      const res = await owner.client.post(`/projects/${project.id}/tasks`, undefined, { raw });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Points needs a number.' });
      const neg = await owner.client.post(`/projects/${project.id}/tasks`, undefined, { raw: `{"title":"Huge","values":{"${points.id}":"-1e309"}}` });
      expect(neg.status).toBe(400);
      expect(neg.body).toEqual({ error: 'Points needs a number.' });
    });

    it('stores nothing for cleared values: null, "" and []', async () => {
      const task = await newTask({
        title: 'Cleared',
        values: { [status.id]: null, [notes.id]: '', [tags.id]: [], [links.id]: [], [points.id]: '', [due.id]: null, [owners.id]: null },
      });
      expect(task.values).toEqual({});
      expect(await storedValues(task.id)).toEqual({});
    });

    it('refuses a property of another project and a key that is not an id', async () => {
      const other = await owner.client.post(`/projects/${project.id}/tasks`, { title: 'x', values: { [foreignProp.id]: foreignProp.options[0].id } });
      expect(other.status).toBe(400);
      expect(other.body).toEqual({ error: 'That property is not in this project.' });
      const unknown = await owner.client.post(`/projects/${project.id}/tasks`, { title: 'x', values: { [randomUUID()]: 'x' } });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ error: 'That property is not in this project.' });
      const notId = await owner.client.post(`/projects/${project.id}/tasks`, { title: 'x', values: { Status: optOf(status, 'Done') } });
      expect(notId.status).toBe(400);
      expect(notId.body).toEqual({ error: 'That is not a property id.' });
    });

    it('reads a property id key in upper case as the same property', async () => {
      const task = await newTask({ title: 'Loud key', values: { [status.id.toUpperCase()]: optOf(status, 'Done') } });
      expect(task.values).toEqual({ [status.id]: optOf(status, 'Done') });
      expect(await storedValues(task.id)).toEqual({ [status.id]: optOf(status, 'Done') });
    });

    it('lets an agent create a task with values', async () => {
      const res = await agent.client.post(`/projects/${project.id}/tasks`, { title: 'Robot', values: { [owners.id]: agent.agent.id, [points.id]: '3' } });
      expect(res.status).toBe(201);
      expect(res.body.task.values).toEqual({ [owners.id]: agent.agent.id, [points.id]: 3 });
      expect(res.body.task.createdBy).toBe(agent.agent.id);
    });
  });

  describe('PUT /api/tasks/:taskId/values/:propertyId', () => {
    it('answers { value, dropped: [] } with the normalised value and stores it', async () => {
      const task = await newTask({ title: 'Target' });
      for (const [label, prop, sent, stored] of accepted()) {
        const res = await put(task.id, prop.id, { value: sent });
        expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 200, body: { value: stored, dropped: [] } });
        expect({ label, value: (await storedValues(task.id))[prop.id] }).toEqual({ label, value: stored });
      }
    });

    it('refuses every bad value with its message and writes nothing', async () => {
      const task = await newTask({ title: 'Refuser', values: { [status.id]: optOf(status, 'To do'), [tags.id]: [optOf(tags, 'Green')], [points.id]: 1, [due.id]: '2020-01-01', [links.id]: 'https://keep.example', [notes.id]: 'keep', [owners.id]: owner.user.id } });
      const before = await storedValues(task.id);
      for (const [label, prop, sent, error] of refused()) {
        const res = await put(task.id, prop.id, { value: sent });
        expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 400, body: { error } });
      }
      expect(await storedValues(task.id)).toEqual(before);
      expect(await feed(task.id)).toEqual([]);
      const raw = await owner.client.put(`/tasks/${task.id}/values/${points.id}`, undefined, { raw: '{"value":1e309}' });
      expect(raw.status).toBe(400);
      expect(raw.body).toEqual({ error: 'Points needs a number.' });
    });

    it('clears with null, "", [] or no value: null stored as nothing, [] answered for lists', async () => {
      const full = {
        [status.id]: optOf(status, 'Done'),
        [tags.id]: [optOf(tags, 'Red')],
        [owners.id]: member.user.id,
        [notes.id]: 'words',
        [points.id]: 4,
        [due.id]: '2024-01-01',
        [flag.id]: true,
        [links.id]: ['https://example.com'],
      };
      const cases: [Prop, unknown, unknown][] = [
        [status, { value: null }, null],
        [tags, { value: [] }, []],
        [owners, { value: '' }, null],
        [notes, { value: '' }, null],
        [points, {}, null],
        [due, { value: null }, null],
        [flag, { value: null }, null],
        [links, { value: null }, []],
      ];
      const task = await newTask({ title: 'Full', values: full });
      expect(Object.keys(await storedValues(task.id)).sort()).toEqual(Object.keys(full).sort());
      for (const [prop, body, answered] of cases) {
        const res = await put(task.id, prop.id, body);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ value: answered, dropped: [] });
        expect(prop.id in (await storedValues(task.id))).toBe(false);
      }
      expect(await storedValues(task.id)).toEqual({});
      const board = (await owner.client.get(`/projects/${project.id}/board`)).body;
      expect(board.tasks.find((x) => x.id === task.id)!.values).toEqual({});
    });

    it('writes one value line with the property and value names per change, none for the same value', async () => {
      const task = await newTask({ title: 'Feed' });
      await put(task.id, status.id, { value: optOf(status, 'In progress') }, member.client);
      await put(task.id, status.id, { value: optOf(status, 'In progress') }, member.client);
      await put(task.id, tags.id, { value: [optOf(tags, 'Blue'), optOf(tags, 'Red')] });
      await put(task.id, owners.id, { value: agent.agent.id });
      await put(task.id, points.id, { value: '8' });
      await put(task.id, points.id, { value: 8 });
      await put(task.id, status.id, { value: null }, agent.client);
      await put(task.id, tags.id, { value: null });
      await put(task.id, tags.id, { value: [] });
      expect(await feed(task.id)).toEqual([
        { kind: 'value', data: { property: 'Status', value: 'In progress', changes: { [status.id]: [null, optOf(status, 'In progress')] } }, actorId: member.user.id },
        { kind: 'value', data: { property: 'Tags', value: ['Blue', 'Red'] }, actorId: owner.user.id },
        { kind: 'value', data: { property: 'Owner', value: 'Robo' }, actorId: owner.user.id },
        { kind: 'value', data: { property: 'Points', value: 8 }, actorId: owner.user.id },
        { kind: 'value', data: { property: 'Status', value: null, changes: { [status.id]: [optOf(status, 'In progress'), null] } }, actorId: agent.agent.id },
        { kind: 'value', data: { property: 'Tags', value: [] }, actorId: owner.user.id },
      ]);
    });

    it('loses no write when values of one task are written at once', async () => {
      const task = await newTask({ title: 'Crowded' });
      const writes: [Prop, unknown][] = [
        [status, optOf(status, 'Done')],
        [tags, [optOf(tags, 'Red')]],
        [owners, member.user.id],
        [notes, 'note'],
        [points, 5],
        [due, '2024-05-05'],
        [flag, true],
        [links, ['https://example.com']],
      ];
      const answers = await Promise.all(writes.map(([prop, value], i) => put(task.id, prop.id, { value }, i % 2 ? member.client : owner.client)));
      for (const a of answers) expect(a.status).toBe(200);
      expect(await storedValues(task.id)).toEqual(Object.fromEntries(writes.map(([prop, value]) => [prop.id, value])));
      expect(await feed(task.id)).toHaveLength(writes.length);
    });

    it('loses no value write racing an archive, an unarchive or a delete of the task', async () => {
      const task = await newTask({ title: 'Racing' });
      let expected = 0;
      for (let i = 1; i <= 30; i++) {
        const other =
          i % 3 === 0
            ? owner.client.delete(`/tasks/${task.id}`)
            : i % 3 === 1
              ? member.client.post(`/tasks/${task.id}/archive`)
              : member.client.delete(`/tasks/${task.id}/archive`);
        const [written] = await Promise.all([put(task.id, points.id, { value: i }), other]);
        // A write that arrives after the delete finds no task; one that got in must stay.
        if (!(i % 3 === 0 && written.status === 404)) {
          expect({ round: i, status: written.status }).toEqual({ round: i, status: 200 });
          expected = i;
        }
        if (i % 3 === 0) {
          expectError(await owner.client.get(`/tasks/${task.id}`), 404, 'Task not found.');
          expect((await owner.client.post(`/tasks/${task.id}/restore`)).status).toBe(200);
        }
        expect({ round: i, value: (await storedValues(task.id))[points.id] }).toEqual({ round: i, value: expected });
      }
    }, 60_000);

    it('stamps updatedAt on a value change', async () => {
      const task = await newTask({ title: 'Stamp' });
      // A forced clock: no call sets a task's updatedAt back, so the table is put back to 2000.
      await t.sql.query(`UPDATE tasks SET updated_at = '2000-01-01' WHERE id = $1`, [task.id]);
      expect(new Date((await readTask(owner.client, task.id)).updatedAt).getTime()).toBeLessThan(Date.UTC(2000, 0, 2));
      await put(task.id, points.id, { value: 1 });
      const at = (await readTask(owner.client, task.id)).updatedAt;
      expect(new Date(at).getUTCFullYear()).toBeGreaterThan(2000);
    });

    it('refuses bad ids and properties of other projects', async () => {
      const task = await newTask({ title: 'Ids' });
      const cases: [string, number, string][] = [
        [`/tasks/nope/values/${status.id}`, 400, 'That is not a task id.'],
        [`/tasks/${task.id}/values/nope`, 400, 'That is not a property id.'],
        [`/tasks/${task.id}/values/${foreignProp.id}`, 400, 'That property is not in this project.'],
        [`/tasks/${task.id}/values/${randomUUID()}`, 400, 'That property is not in this project.'],
        [`/tasks/${randomUUID()}/values/${status.id}`, 404, 'Task not found.'],
      ];
      for (const [path, code, error] of cases) {
        const res = await owner.client.put(path, { value: null });
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: code, body: { error } });
      }
      const res = await outsider.client.put(`/tasks/${task.id}/values/${status.id}`, { value: null });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Task not found.' });
    });
  });

  describe('when rules', () => {
    let p: ProjectAnswer;
    let kind: Prop;
    let severity: Prop;
    let steps: Prop;
    let size: Prop;

    beforeAll(async () => {
      p = await createProject(owner.client, 'Rules', 'RUL');
      await addMember(owner.client, p.id, member);
      kind = await createProperty(owner.client, p.id, 'Kind', 'select', ['Bug', 'Feature', 'Chore']);
      severity = await createProperty(owner.client, p.id, 'Severity', 'select', ['Low', 'High']);
      steps = await createProperty(owner.client, p.id, 'Steps', 'text');
      size = await createProperty(owner.client, p.id, 'Size', 'number');
      // Severity and Steps show for bugs only; Size for features and chores.
      await setWhen(severity.id, { propertyId: kind.id, optionIds: [optOf(kind, 'Bug')] });
      await setWhen(steps.id, { propertyId: kind.id, optionIds: [optOf(kind, 'Bug')] });
      await setWhen(size.id, { propertyId: kind.id, optionIds: [optOf(kind, 'Feature'), optOf(kind, 'Chore')] });
    });

    const create = (values: Record<string, unknown>) => newTask({ title: 'Ruled', values }, owner.client, p.id);

    it('does not store a value the task does not show on create', async () => {
      const task = await create({ [kind.id]: optOf(kind, 'Feature'), [severity.id]: optOf(severity, 'High'), [size.id]: 3 });
      expect(task.values).toEqual({ [kind.id]: optOf(kind, 'Feature'), [size.id]: 3 });
      expect(await storedValues(task.id)).toEqual({ [kind.id]: optOf(kind, 'Feature'), [size.id]: 3 });
      const none = await create({ [steps.id]: 'Repro' });
      expect(none.values).toEqual({});
      const bug = await create({ [kind.id]: optOf(kind, 'Bug'), [severity.id]: optOf(severity, 'High'), [steps.id]: 'Repro', [size.id]: 5 });
      expect(bug.values).toEqual({ [kind.id]: optOf(kind, 'Bug'), [severity.id]: optOf(severity, 'High'), [steps.id]: 'Repro' });
    });

    it('drops the hidden values when the select moves to a non-matching option, and says so', async () => {
      const task = await create({ [kind.id]: optOf(kind, 'Bug'), [severity.id]: optOf(severity, 'High'), [steps.id]: 'Click twice' });
      const res = await put(task.id, kind.id, { value: optOf(kind, 'Chore') }, member.client);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        value: optOf(kind, 'Chore'),
        dropped: [
          { taskId: task.id, propertyId: severity.id, name: 'Severity' },
          { taskId: task.id, propertyId: steps.id, name: 'Steps' },
        ],
      });
      expect(await storedValues(task.id)).toEqual({ [kind.id]: optOf(kind, 'Chore') });
      const lines = await feed(task.id);
      expect(lines).toEqual([
        {
          kind: 'value',
          data: {
            property: 'Kind',
            value: 'Chore',
            changes: { [kind.id]: [optOf(kind, 'Bug'), optOf(kind, 'Chore')], [severity.id]: [optOf(severity, 'High'), null] },
            dropped: ['Severity', 'Steps'],
            propertyIds: [severity.id, steps.id],
            hidBy: optOf(kind, 'Chore'),
          },
          actorId: member.user.id,
        },
      ]);
      // The task read shows the same line.
      const full = (await owner.client.get(`/tasks/${task.id}`)).body.task;
      expect(full.activity[0].data.dropped).toEqual(['Severity', 'Steps']);
      expect(full.values).toEqual({ [kind.id]: optOf(kind, 'Chore') });
    });

    it('drops on clearing the select too, with hidBy null', async () => {
      const task = await create({ [kind.id]: optOf(kind, 'Feature'), [size.id]: 8 });
      const res = await put(task.id, kind.id, { value: null });
      expect(res.body).toEqual({ value: null, dropped: [{ taskId: task.id, propertyId: size.id, name: 'Size' }] });
      expect(await storedValues(task.id)).toEqual({});
      expect((await feed(task.id)).map((l) => l.data)).toEqual([{ property: 'Kind', value: null, changes: { [kind.id]: [optOf(kind, 'Feature'), null] }, dropped: ['Size'], propertyIds: [size.id], hidBy: null }]);
    });

    it('keeps the values a matching option still shows, and writes no dropped keys', async () => {
      const task = await create({ [kind.id]: optOf(kind, 'Feature'), [size.id]: 2 });
      const res = await put(task.id, kind.id, { value: optOf(kind, 'Chore') });
      expect(res.body).toEqual({ value: optOf(kind, 'Chore'), dropped: [] });
      expect(await storedValues(task.id)).toEqual({ [kind.id]: optOf(kind, 'Chore'), [size.id]: 2 });
      expect((await feed(task.id)).map((l) => l.data)).toEqual([{ property: 'Kind', value: 'Chore', changes: { [kind.id]: [optOf(kind, 'Feature'), optOf(kind, 'Chore')] } }]);
    });

    it('accepts a write to a property the task does not show and drops it at once', async () => {
      const task = await create({ [kind.id]: optOf(kind, 'Feature') });
      const res = await put(task.id, severity.id, { value: optOf(severity, 'Low') });
      expect(res.status).toBe(200);
      expect(res.body.dropped).toEqual([{ taskId: task.id, propertyId: severity.id, name: 'Severity' }]);
      expect(await storedValues(task.id)).toEqual({ [kind.id]: optOf(kind, 'Feature') });
      expect(await feed(task.id)).toEqual([]);
      // Still checked: a bad value is refused even though it would be dropped.
      const bad = await put(task.id, severity.id, { value: 'nope' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'One of the options does not exist any more.' });
    });

    it('drops down a chain: a dropped select hides what depends on it', async () => {
      const impact = await createProperty(owner.client, p.id, 'Impact', 'text');
      await setWhen(impact.id, { propertyId: severity.id, optionIds: [optOf(severity, 'High')] });
      const task = await create({ [kind.id]: optOf(kind, 'Bug'), [severity.id]: optOf(severity, 'High'), [impact.id]: 'Everyone' });
      expect(task.values).toEqual({ [kind.id]: optOf(kind, 'Bug'), [severity.id]: optOf(severity, 'High'), [impact.id]: 'Everyone' });
      const low = await put(task.id, severity.id, { value: optOf(severity, 'Low') });
      expect(low.body).toEqual({ value: optOf(severity, 'Low'), dropped: [{ taskId: task.id, propertyId: impact.id, name: 'Impact' }] });
      await put(task.id, severity.id, { value: optOf(severity, 'High') });
      await put(task.id, impact.id, { value: 'Some' });
      const res = await put(task.id, kind.id, { value: optOf(kind, 'Feature') });
      expect(res.body).toEqual({
        value: optOf(kind, 'Feature'),
        dropped: [
          { taskId: task.id, propertyId: severity.id, name: 'Severity' },
          { taskId: task.id, propertyId: impact.id, name: 'Impact' },
        ],
      });
      expect(await storedValues(task.id)).toEqual({ [kind.id]: optOf(kind, 'Feature') });
      const last = (await feed(task.id)).pop();
      expect(last?.data).toEqual({
        property: 'Kind',
        value: 'Feature',
        changes: { [kind.id]: [optOf(kind, 'Bug'), optOf(kind, 'Feature')], [severity.id]: [optOf(severity, 'High'), null] },
        dropped: ['Severity', 'Impact'],
        propertyIds: [severity.id, impact.id],
        hidBy: optOf(kind, 'Feature'),
      });
      await expectStatus(owner.client.delete(`/properties/${impact.id}`), 200);
    });

    it('shows the property again once the select matches, without bringing the old value back', async () => {
      const task = await create({ [kind.id]: optOf(kind, 'Bug'), [steps.id]: 'Old repro' });
      await put(task.id, kind.id, { value: optOf(kind, 'Feature') });
      await put(task.id, kind.id, { value: optOf(kind, 'Bug') });
      expect(await storedValues(task.id)).toEqual({ [kind.id]: optOf(kind, 'Bug') });
      const res = await put(task.id, steps.id, { value: 'New repro' });
      expect(res.body).toEqual({ value: 'New repro', dropped: [] });
      expect(await storedValues(task.id)).toEqual({ [kind.id]: optOf(kind, 'Bug'), [steps.id]: 'New repro' });
    });
  });

  describe('Type defaults on create', () => {
    let p: ProjectAnswer;
    let type: Prop;
    let size: Prop;
    let labels: Prop;
    let summary: Prop;
    let done: Prop;
    let secret: Prop;

    beforeAll(async () => {
      p = await createProject(owner.client, 'Typed', 'TYP');
      await addMember(owner.client, p.id, member);
      type = await createProperty(owner.client, p.id, 'Type', 'select', ['Bug', 'Story']);
      // Case and spaces ignored: a select named " type " is the Type. The API trims names, so
      // such a name is only in the table (from before the trimming) and is written there.
      await t.sql.query(`UPDATE properties SET name = ' tYpE ' WHERE id = $1`, [type.id]);
      size = await createProperty(owner.client, p.id, 'Size', 'number');
      labels = await createProperty(owner.client, p.id, 'Labels', 'multi_select', ['ui', 'api']);
      summary = await createProperty(owner.client, p.id, 'Summary', 'text');
      done = await createProperty(owner.client, p.id, 'Checked', 'checkbox');
      secret = await createProperty(owner.client, p.id, 'Secret', 'number');
      await setDefaults(size.id, { [optOf(type, 'Bug')]: 3, [optOf(type, 'Story')]: 8 });
      await setDefaults(labels.id, { [optOf(type, 'Bug')]: [optOf(labels, 'api')] });
      await setDefaults(summary.id, { [optOf(type, 'Bug')]: 'What broke?' });
      await setDefaults(done.id, { [optOf(type, 'Story')]: true });
      await setDefaults(secret.id, { [optOf(type, 'Bug')]: 99 });
      // Secret shows for stories only, so a bug's default for it is never written.
      await setWhen(secret.id, { propertyId: type.id, optionIds: [optOf(type, 'Story')] });
      const cfg = (await boardOf(owner.client, p.id)).properties.find((x) => x.id === size.id)?.config;
      expect(cfg?.defaults).toEqual({ [optOf(type, 'Bug')]: 3, [optOf(type, 'Story')]: 8 });
    });

    const create = (values: Record<string, unknown>, as: Client = member.client) => newTask({ title: 'Typed', values }, as, p.id);

    it('writes the created type’s defaults for every property not sent', async () => {
      const bug = await create({ [type.id]: optOf(type, 'Bug') });
      expect(bug.values).toEqual({
        [type.id]: optOf(type, 'Bug'),
        [size.id]: 3,
        [labels.id]: [optOf(labels, 'api')],
        [summary.id]: 'What broke?',
      });
      expect(await storedValues(bug.id)).toEqual(bug.values);
      const story = await create({ [type.id]: optOf(type, 'Story') });
      expect(story.values).toEqual({ [type.id]: optOf(type, 'Story'), [size.id]: 8, [done.id]: true });
    });

    it('lets an explicit value win, null included', async () => {
      const task = await create({ [type.id]: optOf(type, 'Bug'), [size.id]: 13, [labels.id]: null, [summary.id]: '' });
      expect(task.values).toEqual({ [type.id]: optOf(type, 'Bug'), [size.id]: 13 });
      const cleared = await create({ [type.id]: optOf(type, 'Story'), [size.id]: null, [done.id]: false });
      expect(cleared.values).toEqual({ [type.id]: optOf(type, 'Story'), [done.id]: false });
    });

    it('writes no defaults without a type', async () => {
      expect((await create({})).values).toEqual({});
      expect((await create({ [type.id]: null })).values).toEqual({});
      expect((await create({ [size.id]: 1 })).values).toEqual({ [size.id]: 1 });
    });

    it('lets an agent create with defaults too', async () => {
      const a = await createAgent(owner.client, p.id, 'Typist');
      const task = await create({ [type.id]: optOf(type, 'Story') }, a.client);
      expect(task.values).toEqual({ [type.id]: optOf(type, 'Story'), [size.id]: 8, [done.id]: true });
    });

    it('takes the first select named Type in display order as the Type', async () => {
      const second = await createProperty(owner.client, p.id, 'TYPE', 'select', ['Bug', 'Story']);
      const first = await create({ [type.id]: optOf(type, 'Bug') });
      expect(first.values[size.id]).toBe(3);
      const other = await create({ [second.id]: optOf(second, 'Bug') });
      expect(other.values).toEqual({ [second.id]: optOf(second, 'Bug') });
      await expectStatus(owner.client.delete(`/properties/${second.id}`), 200);
    });

    it('reads a default naming a deleted option as no default', async () => {
      const gone = labels.options.find((o) => o.name === 'api')!.id;
      await expectStatus(owner.client.delete(`/options/${gone}`), 200);
      const bug = await create({ [type.id]: optOf(type, 'Bug') });
      expect(bug.values).toEqual({ [type.id]: optOf(type, 'Bug'), [size.id]: 3, [summary.id]: 'What broke?' });
    });

    it('writes no default for a type of property that cannot carry one (person, date, link)', async () => {
      const bug = optOf(type, 'Bug');
      const deadline = await createProperty(owner.client, p.id, 'Deadline', 'date');
      const who = await createProperty(owner.client, p.id, 'Who', 'person');
      const refs = await createProperty(owner.client, p.id, 'Refs', 'link');
      const stored: [Prop, unknown][] = [[deadline, '2024-01-01'], [who, owner.user.id], [refs, ['https://example.com']]];
      for (const [prop, value] of stored) {
        // The property PATCH refuses such a default (asserted, so a change of that rule shows
        // here); one can only be in the table, from before the rule, so it is written there.
        expectError(await owner.client.patch(`/properties/${prop.id}`, { defaults: { [bug]: value } }), 400, `${prop.name} cannot carry a default.`);
        await t.sql.query(`UPDATE properties SET config = jsonb_build_object('defaults', jsonb_build_object($2::text, $3::jsonb)) WHERE id = $1`, [
          prop.id, bug, JSON.stringify(value),
        ]);
      }
      const task = await create({ [type.id]: bug });
      expect(task.values).toEqual({ [type.id]: bug, [size.id]: 3, [summary.id]: 'What broke?' });
      for (const [prop] of stored) await expectStatus(owner.client.delete(`/properties/${prop.id}`), 200);
    });
  });
});
