import { createTask, expectError, expectStatus } from '../support/fixtures';
import { addMember, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

/**
 * The gates that need stored state (or a path id) are checked before a route's body is read,
 * whatever the body holds: the order of refusals of the routes whose body the DTO pipe reads after
 * a BeforeBody check (comments, charts, lists).
 */
describe('checks before the body', () => {
  let t: TestApp;
  let pat: Person;
  let sam: Person;
  let projectId: string;

  beforeAll(async () => {
    t = await startTestApp();
    pat = await registerPerson(t, 'Pat');
    sam = await registerPerson(t, 'Sam');
    projectId = (await createProject(pat.client, 'Checks', 'CK')).id;
    await addMember(pat.client, projectId, sam);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('a body that is not a JSON object first, then a malformed list id, then a malformed task id, then the fields', async () => {
    const list = (await expectStatus(pat.client.post('/lists', { name: 'Mine' }), 201)).list;
    expectError(await pat.client.patch('/lists/nope', undefined, { raw: '[1]' }), 400, 'The request body must be JSON.');
    expectError(await pat.client.patch('/lists/nope', { name: '' }), 400, 'That is not a list id.');
    expectError(await pat.client.put('/lists/nope/tasks/nope', { afterId: 1 }), 400, 'That is not a list id.');
    expectError(await pat.client.put(`/lists/${list.id}/tasks/nope`, {}), 400, 'That is not a task id.');
    expectError(await pat.client.patch(`/lists/${list.id}`, { name: '' }), 400, 'Name cannot be empty.');
  });

  it('somebody else’s chart is not found before its change or its query is read', async () => {
    const chart = (await expectStatus(pat.client.post('/charts', { name: 'Burn', kind: 'burnup', projectIds: [projectId] }), 201)).chart;
    expectError(await sam.client.patch(`/charts/${chart.id}`, { name: 5 }), 404, 'Chart not found.');
    expectError(await sam.client.get(`/charts/${chart.id}/data?to=someday`), 404, 'Chart not found.');
    expectError(await sam.client.patch(`/charts/${chart.id}`, undefined, { raw: '"text"' }), 400, 'The request body must be JSON.');
    expectError(await pat.client.patch(`/charts/${chart.id}`, { name: 5 }), 400, 'Name must be text.');
    expectError(await pat.client.get(`/charts/${chart.id}/data?to=someday`), 400, 'To needs a date like YYYY-MM-DD.');
  });

  it('only the author edits a comment, whatever the edit holds', async () => {
    const taskId = (await createTask(pat.client, projectId, 'Talked about')).id;
    const comment = (await expectStatus(pat.client.post(`/tasks/${taskId}/comments`, { body: 'Mine' }), 201)).comment;
    expectError(await sam.client.patch(`/comments/${comment.id}`, { body: 12 }), 403, 'You can only edit your own comments.');
    expectError(await sam.client.patch(`/comments/${comment.id}`, undefined, { raw: '[1]' }), 400, 'The request body must be JSON.');
    expectError(await pat.client.patch(`/comments/${comment.id}`, { body: 12 }), 400, 'Body must be text.');
  });
});
