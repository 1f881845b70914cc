import { parse } from 'csv-parse/sync';
import { aTeam, optionId, Team } from '../support/builders';
import { createTaskFromBody, expectStatus } from '../support/fixtures';
import { Client, startTestApp, TestApp } from '../support/test-app';
import type { ViewAnswer } from '../support/answers';

/** GET /api/views/:viewId/export.csv (extensions.md § 3.4): what a spreadsheet opens. */
describe('GET /api/views/:viewId/export.csv', () => {
  let t: TestApp;
  let team: Team;
  let view: ViewAnswer;

  const download = async (client = team.owner.client, viewId = view.id) => {
    const answer = await client.get(`/views/${viewId}/export.csv`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const body: unknown = answer.body;
    if (typeof body !== 'string') throw new Error(`not CSV text: ${JSON.stringify(body)}`);
    return { body, headers: answer.headers };
  };
  const rows = (csv: string): string[][] => parse(csv, { relax_column_count: false });

  beforeAll(async () => {
    t = await startTestApp();
    team = await aTeam(t, {
      key: 'CSV',
      properties: { Labels: ['multi_select', ['=red', 'blue']], Owner: ['person'], Points: ['number'], Due: ['date'], Flag: ['checkbox'], Notes: ['text'], Links: ['link'] },
    });
    const { project, status, props } = team;
    const v = (name: string, value: unknown) => [props[name].id, value];
    await createTaskFromBody(team.owner.client, project.id, {
      title: 'Plain, "quoted"\nand two lines',
      values: Object.fromEntries([
        [status.id, optionId(status, 'In progress')],
        v('Labels', [optionId(props.Labels, 'blue'), optionId(props.Labels, '=red')]),
        v('Owner', team.member.user.id),
        v('Points', -3),
        v('Due', '2026-12-24'),
        v('Flag', true),
        v('Notes', '-5'),
        v('Links', ['https://a.example/x', 'https://b.example']),
      ]),
    });
    await createTaskFromBody(team.owner.client, project.id, { title: '=HYPERLINK("https://evil.example")', values: { [status.id]: optionId(status, 'Done') } });
    await createTaskFromBody(team.owner.client, project.id, { title: '@third' });
    const board = await expectStatus(team.owner.client.get(`/projects/${project.id}/board`), 200);
    view = board.views[0];
  });
  afterAll(() => t?.close());

  it('has the decided header and one row per live task in the view order, quoted by RFC 4180', async () => {
    const { body, headers } = await download();
    expect(headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.csv"; filename\*=UTF-8''.+\.csv$/);
    // Records end with CRLF; a line break inside a quoted field stays as it was sent.
    expect(body.endsWith('\r\n')).toBe(true);
    expect(body).toContain('"Plain, ""quoted""\nand two lines"');
    const [header, ...tasks] = rows(body);
    expect(header).toEqual(['Key', 'Title', 'Status', 'Labels', 'Owner', 'Points', 'Due', 'Flag', 'Notes', 'Links', 'Created', 'Updated']);
    expect(tasks.map((r) => r[0])).toEqual(['CSV-1', 'CSV-2', 'CSV-3']);
    const [first] = tasks;
    expect(first.slice(1, 10)).toEqual(['Plain, "quoted"\nand two lines', 'In progress', "blue; =red", 'Milo', '-3', '2026-12-24', 'true', "'-5", 'https://a.example/x; https://b.example']);
    expect(first[10]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(first[11]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('neutralises text cells that a spreadsheet would run as formulas', async () => {
    const [, , second, third] = rows((await download()).body);
    expect(second[1]).toBe('\'=HYPERLINK("https://evil.example")');
    expect(third[1]).toBe("'@third");
    // An unset checkbox reads false; other empty values are empty.
    expect(third.slice(2, 10)).toEqual(['', '', '', '', '', 'false', '', '']);
  });

  it("follows the view's shared filters and sort, never the reader's lens", async () => {
    const { status } = team;
    await expectStatus(team.owner.client.patch(`/views/${view.id}`, { filters: { rules: [{ propertyId: status.id, op: 'is', values: [optionId(status, 'In progress'), optionId(status, 'Done')] }] }, sort: { columnId: '_key', direction: 'desc' } }), 200);
    // The member's own lens keeps only their own task and reverses the order; the file is still the view's.
    await expectStatus(team.member.client.put(`/views/${view.id}/lens`, { filters: { rules: [{ propertyId: team.props.Owner.id, op: 'is', values: ['__me__'] }] }, sort: { columnId: '_key', direction: 'asc' } }), 200);
    const keys = (csv: string) => rows(csv).slice(1).map((r) => r[0]);
    const asMember = keys((await download(team.member.client)).body);
    expect(asMember).toEqual(keys((await download()).body));
    expect(asMember).toEqual(['CSV-2', 'CSV-1']);
    const lensed = await expectStatus(team.member.client.get(`/views/${view.id}/tasks`), 200);
    expect(lensed.tasks.map((x) => x.title)).toEqual([expect.stringMatching(/^Plain/)]);
    await expectStatus(team.member.client.put(`/views/${view.id}/lens`, { filters: { rules: [] }, sort: null }), 200);
    await expectStatus(team.owner.client.patch(`/views/${view.id}`, { filters: { rules: [] }, sort: null }), 200);
  });

  it('leaves out archived and deleted tasks', async () => {
    const board = await expectStatus(team.owner.client.get(`/projects/${team.project.id}/board`), 200);
    const third = board.tasks.find((x) => x.title === '@third')!;
    await expectStatus(team.owner.client.delete(`/tasks/${third.id}`), 200);
    expect(rows((await download()).body).map((r) => r[0])).toEqual(['Key', 'CSV-1', 'CSV-2']);
    await expectStatus(team.owner.client.post(`/tasks/${board.tasks.find((x) => x.title.startsWith('Plain'))!.id}/archive`), 200);
    expect(rows((await download()).body).map((r) => r[0])).toEqual(['Key', 'CSV-2']);
    await expectStatus(team.owner.client.post(`/tasks/${third.id}/restore`), 200);
  });

  it('is open to every member and agent, and refused to others as the contract refuses', async () => {
    await download(team.agent.client);
    const outsider = await team.outsider.client.get(`/views/${view.id}/export.csv`);
    expect([outsider.status, outsider.body]).toEqual([404, { error: 'View not found.' }]);
    const bad = await team.owner.client.get('/views/not-an-id/export.csv');
    expect([bad.status, bad.body]).toEqual([400, { error: 'That is not a view id.' }]);
    const anonymous = await new Client(t.api).get(`/views/${view.id}/export.csv`);
    expect(anonymous.status).toBe(401);
  });
});
