/**
 * Task create has two paths: at the top or the end, one statement around `board_create_task`
 * (TaskCreateRepository); after a named task, under the project lock in TypeScript (createLocked).
 * For random titles, descriptions and values (valid and not), both paths answer the same: the same
 * refusal, or the same task (apart from its id, number, key and rank), the same task read, and the
 * same `created` feed line.
 */
import fc from 'fast-check';
import { aProject } from '../support/builders';
import { Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const SEED = Number(process.env.CREATE_PATHS_SEED ?? Date.now() % 2 ** 31);

/** What the two paths may differ in: which task it is and where it sits. */
const OWN = new Set(['id', 'number', 'key', 'position', 'createdAt', 'updatedAt']);
const comparable = (task: Record<string, unknown>) => Object.fromEntries(Object.entries(task).filter(([k]) => !OWN.has(k)));

describe('task create: the edge path (SQL function) and the locked path (TypeScript) agree', () => {
  let t: TestApp;
  let owner: Person;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Olive');
  });
  afterAll(() => t.close());

  it('answers the same task, read and feed line, or the same refusal', async () => {
    const { project, props } = await aProject(owner.client, {
      key: 'PATH',
      properties: { Pick: ['select', ['A', 'B']], Tags: ['multi_select', ['X', 'Y']], Points: ['number'], Note: ['text'], Done: ['checkbox'] },
    });
    const c = owner.client;
    const first = await c.post(`/projects/${project.id}/tasks`, { title: 'anchor' });
    let last = (first.body as { task: { id: string } }).task.id;
    const opt = (name: string) => props[name].options.map((o) => o.id);
    const valueArb = fc.record(
      {
        [props.Pick.id]: fc.oneof(fc.constantFrom(...opt('Pick')), fc.constant(null), fc.constant('nope'), fc.constant(7)),
        [props.Tags.id]: fc.oneof(fc.subarray(opt('Tags')), fc.constant(['bad'])),
        [props.Points.id]: fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ noNaN: true }), fc.constant('12')),
        [props.Note.id]: fc.oneof(fc.string({ maxLength: 20 }), fc.constant(3)),
        [props.Done.id]: fc.oneof(fc.boolean(), fc.constant('yes')),
      },
      { requiredKeys: [] },
    );
    const bodyArb = fc.record({ title: fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.constant('  ')), description: fc.string({ maxLength: 30 }), values: valueArb });

    await fc.assert(
      fc.asyncProperty(bodyArb, async (body) => {
        const atEdge = await c.post(`/projects/${project.id}/tasks`, body);
        const locked = await c.post(`/projects/${project.id}/tasks`, { ...body, afterId: last });
        expect(locked.status).toBe(atEdge.status);
        if (atEdge.status !== 201) {
          expect(locked.body).toEqual(atEdge.body);
          return;
        }
        const a = (atEdge.body as { task: Record<string, unknown> }).task;
        const b = (locked.body as { task: Record<string, unknown> }).task;
        expect(comparable(b)).toEqual(comparable(a));
        const [readA, readB] = await Promise.all([c.get(`/tasks/${a.id}`), c.get(`/tasks/${b.id}`)]);
        const strip = (r: { body: unknown }) => {
          const task = { ...(r.body as { task: Record<string, unknown> }).task };
          const activity = (task.activity as { kind: string; data: unknown }[] | undefined)?.map((line) => ({ kind: line.kind, data: line.data }));
          return { ...comparable(task), activity };
        };
        expect(strip(readB)).toEqual(strip(readA));
        last = b.id as string;
      }),
      { numRuns: 25, seed: SEED },
    );
  }, 120_000);
});
