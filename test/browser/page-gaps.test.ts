import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { codeAt } from '@board/accounts';
import { generateTrelloExport } from '../../bench/trello-export';
import { apiIn, describeBrowser, keepScreenshot, registerIn, seriousViolations, startHarness, until, watchPage, type BrowserHarness, type HttpMethod } from './support/page';
import type { FeedAnswer, PropertyAnswer } from '../support/answers';
import type { RouteAnswer } from '../support/routes';

// What a person could not yet do on the page (issue 18 point 2): each flow done in the browser and
// its result read back through the API.
jest.setTimeout(120_000);

describeBrowser('board page: the settings and screens added after the first cut', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startHarness({ SERVICE_WEBHOOK_ALLOW: '127.0.0.1' });
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });

  async function signedIn(name: string, key: string) {
    const context = await h.newContext();
    const user = await registerIn(context, h.origin, name);
    const page = await context.newPage();
    const problems = watchPage(page);
    const { project } = await apiIn(context, h.origin, 'POST', '/projects', { name: `Project ${key}`, key });
    return { context, page, user, problems, project };
  }
  const board = (context: BrowserContext, projectId: string) => apiIn(context, h.origin, 'GET', `/projects/${projectId}/board`);
  const section = (page: Page, name: string) => page.getByRole('region', { name });

  it('webhooks: edit URL and kinds, turn off and on, roll the secret (shown once)', async () => {
    const { context, page, problems, project } = await signedIn('Wes', 'HOOK');
    const made = await apiIn(context, h.origin, 'POST', `/projects/${project.id}/webhooks`, { url: 'http://127.0.0.1:9/first', kinds: ['created'] });
    await page.goto(`/p/${project.id}/settings`);
    const hooks = section(page, 'Webhooks');
    await hooks.getByRole('button', { name: 'Edit' }).click();
    const form = hooks.getByRole('form', { name: 'Edit webhook http://127.0.0.1:9/first' });
    await form.getByLabel('URL of this webhook').fill('http://127.0.0.1:9/second');
    await form.getByLabel('created').uncheck();
    await form.getByLabel('comment').check();
    await form.getByLabel('value').check();
    await form.getByRole('button', { name: 'Save webhook' }).click();
    await hooks.getByText('http://127.0.0.1:9/second').waitFor();
    const read = async () => (await apiIn(context, h.origin, 'GET', `/projects/${project.id}/webhooks`)).webhooks[0];
    expect(await read()).toMatchObject({ url: 'http://127.0.0.1:9/second', kinds: expect.arrayContaining(['value', 'comment']), enabled: true });
    // A refused address shows the service's sentence and keeps the old URL.
    await hooks.getByRole('button', { name: 'Edit' }).click();
    const again = hooks.getByRole('form', { name: 'Edit webhook http://127.0.0.1:9/second' });
    await again.getByLabel('URL of this webhook').fill('http://10.0.0.1/x');
    await again.getByRole('button', { name: 'Save webhook' }).click();
    await hooks.getByRole('alert').filter({ hasText: 'That address is private, so a webhook cannot reach it.' }).waitFor();
    expect((await read()).url).toBe('http://127.0.0.1:9/second');
    await hooks.getByRole('button', { name: 'Cancel' }).click();
    // Off, then on again.
    await hooks.getByLabel('On', { exact: true }).click();
    await until(read, (w) => expect(w.enabled).toBe(false));
    await hooks.getByLabel('On', { exact: true }).click();
    await until(read, (w) => expect(w.enabled).toBe(true));
    // Roll: a new secret shown once, its prefix differs from the first.
    await hooks.getByRole('button', { name: 'Roll secret' }).click();
    const shown = await hooks.locator('.once code.secret').textContent();
    expect(shown).toMatch(/^svcs_/);
    expect(shown).not.toBe(made.secret);
    await until(read, (w) => expect(w.secretPrefix).toBe(shown!.slice(0, 9)));
    await page.reload();
    await section(page, 'Webhooks').getByText('http://127.0.0.1:9/second').waitFor();
    expect(await page.locator('.once').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a view downloads as CSV: the file holds its tasks in its order', async () => {
    const { context, page, problems, project } = await signedIn('Cass', 'CSVP');
    await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title: 'First, with a comma' });
    await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title: '=2+2' });
    await page.goto(`/p/${project.id}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    const file = await download.path();
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('Key,Title,Status,Created,Updated');
    expect(lines[1]).toMatch(/^CSVP-1,"First, with a comma",,/);
    expect(lines[2]).toMatch(/^CSVP-2,'=2\+2,,/);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('settings export the whole project as one JSON file', async () => {
    const { context, page, problems, project } = await signedIn('Exa', 'EXPP');
    await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title: 'Kept in the file' });
    await page.goto(`/p/${project.id}/settings`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export the project' }).click()]);
    expect(download.suggestedFilename()).toBe('EXPP-export.json');
    const doc = JSON.parse(readFileSync(await download.path(), 'utf8')) as { format: string; tasks: { title: string }[] };
    expect(doc.format).toBe('task-board-export');
    expect(doc.tasks.map((x) => x.title)).toEqual(['Kept in the file']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the profile shows the security log', async () => {
    const { page, problems } = await signedIn('Sec', 'SECP');
    await page.goto('/account');
    const log = section(page, 'Security log');
    await log.getByRole('cell', { name: 'Signed in' }).first().waitFor();
    expect(await log.getByRole('row').count()).toBeGreaterThanOrEqual(2);
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('two-step sign-in: set up from a QR code, turn on, keep the recovery codes, sign in with one', async () => {
    const { context, page, problems, user } = await signedIn('Two', 'TWOS');
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Two-step sign-in' });
    await section.getByRole('button', { name: 'Set up two-step sign-in' }).click();
    await section.getByRole('img', { name: 'QR code for your authenticator app' }).locator('svg').waitFor();
    const secret = (await section.locator('code.secret').textContent())!;
    await section.getByLabel('Code from the app').fill(codeAt(secret, new Date()));
    await section.getByRole('button', { name: 'Turn on' }).click();
    const shown = section.getByRole('status', { name: 'Recovery codes' });
    await shown.locator('code').nth(9).waitFor();
    const codes = await shown.locator('code').allTextContents();
    expect(codes).toHaveLength(10);
    expect((await apiIn(context, h.origin, 'GET', '/auth/me')).user.totp).toBe(true);
    // A fresh browser: the password alone is not enough; a recovery code signs in once.
    const other = await h.newContext();
    const second = await other.newPage();
    await second.goto('/');
    await second.getByLabel('Email').fill(user.email);
    await second.getByLabel('Password').fill('correct horse');
    await second.getByRole('button', { name: 'Sign in' }).click();
    await second.getByText('Enter the code from your authenticator app.').waitFor();
    await second.getByLabel('Code from your authenticator app (or a recovery code)').fill(codes[0]);
    await second.getByRole('button', { name: 'Sign in' }).click();
    await second.getByRole('link', { name: /Your account/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await other.close();
    await context.close();
  });

  it('properties, options and views: reorder, release notes and dates, a when rule of several options, Type defaults', async () => {
    const { context, page, problems, project } = await signedIn('Pat', 'PROP');
    const call = <M extends HttpMethod, P extends string>(method: M, path: P, data?: unknown) => apiIn(context, h.origin, method, path, data);
    const type = (await call('POST', `/projects/${project.id}/properties`, { name: 'Type', type: 'select', options: ['Bug', 'Feature', 'Chore'] })).property;
    const prio = (await call('POST', `/projects/${project.id}/properties`, { name: 'Priority', type: 'select', options: ['Low', 'High'] })).property;
    const release = (await call('POST', `/projects/${project.id}/properties`, { name: 'Release', type: 'select', options: ['v1'] })).property;
    await call('PATCH', `/properties/${release.id}`, { dated: true });
    const second = (await call('POST', `/projects/${project.id}/views`, { name: 'Second', kind: 'list' })).view;
    const opt = (p: { options: { id: string; name: string }[] }, n: string) => p.options.find((o) => o.name === n)!.id;
    const prop = async (id: string) => (await board(context, project.id)).properties.find((p) => p.id === id);

    await page.goto(`/p/${project.id}/settings`);
    const props = section(page, 'Properties');
    // Priority moves above Type; High above Low.
    await props.getByRole('button', { name: 'Move Priority up', exact: true }).click();
    await until(() => board(context, project.id), (b) => expect(b.properties.map((p) => p.name)).toEqual(['Status', 'Priority', 'Type', 'Release']));
    await props.getByRole('button', { name: 'Move option High up' }).click();
    await until(() => prop(prio.id), (p) => expect(p!.options.map((o) => o.name)).toEqual(['High', 'Low']));
    await props.getByRole('button', { name: 'Move option Bug down' }).click();
    await until(() => prop(type.id), (p) => expect(p!.options.map((o) => o.name)).toEqual(['Feature', 'Bug', 'Chore']));
    // A release's dates and its markdown note.
    await props.getByLabel('Start of v1').fill('2026-12-01');
    await until(() => prop(release.id), (p) => expect(p!.options[0].startsOn).toBe('2026-12-01'));
    await props.getByLabel('Target of v1').fill('2026-12-24');
    await until(() => prop(release.id), (p) => expect(p!.options[0].targetOn).toBe('2026-12-24'));
    await props.getByRole('button', { name: 'Add note of v1' }).click();
    await props.getByLabel('Note of v1 (markdown)').fill('**Gifts** for everyone');
    await props.getByRole('button', { name: 'Save note' }).click();
    await until(() => prop(release.id), (p) => expect(p!.options[0].note).toBe('**Gifts** for everyone'));
    await props.getByRole('button', { name: 'Edit note of v1' }).waitFor();
    // Priority shows when Type is Bug or Chore.
    await props.getByLabel('Show Priority').selectOption({ label: 'when Type is one of…' });
    const rule = props.getByRole('group', { name: 'Priority shows when Type is' });
    await rule.getByLabel('Bug', { exact: true }).check();
    await until(() => prop(prio.id), (p) => expect(p!.config.when).toEqual({ propertyId: type.id, optionIds: [opt(type, 'Bug')] }));
    await rule.getByLabel('Chore', { exact: true }).check();
    await until(() => prop(prio.id), (p) => expect(p!.config.when).toEqual({ propertyId: type.id, optionIds: [opt(type, 'Bug'), opt(type, 'Chore')] }));
    // Type defaults: a Bug is High unless the create says otherwise.
    await props.getByText('Defaults of Priority by Type').click();
    await props.getByLabel('Default of Priority for Bug').selectOption({ label: 'High' });
    await until(() => prop(prio.id), (p) => expect(p!.config.defaults).toEqual({ [opt(type, 'Bug')]: opt(prio, 'High') }));
    const made = (await call('POST', `/projects/${project.id}/tasks`, { title: 'Crash', values: { [type.id]: opt(type, 'Bug') } })).task;
    expect(made.values[prio.id]).toBe(opt(prio, 'High'));
    expect(await seriousViolations(page)).toEqual([]);
    // A view moves left of the main one.
    await page.goto(`/p/${project.id}?view=${second.id}`);
    await page.getByRole('button', { name: 'View settings' }).click();
    await page.getByRole('button', { name: 'Move view Second left' }).click();
    await until(() => board(context, project.id), (b) => expect(b.views.map((v) => v.name)[0]).toBe('Second'));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('agents: rename, colour and face', async () => {
    const { context, page, problems, project } = await signedIn('Ag', 'AGNT');
    const { agent } = await apiIn(context, h.origin, 'POST', `/projects/${project.id}/agents`, { name: 'Robo' });
    await page.goto(`/p/${project.id}/settings`);
    const agents = section(page, 'Agents and tokens');
    await agents.getByRole('button', { name: 'Edit Robo' }).click();
    const form = agents.getByRole('form', { name: 'Edit agent Robo' });
    await form.getByLabel('Agent name').fill('Robo Two');
    await form.getByLabel('Colour #6d5bd0').check();
    await form.getByLabel('Agent face (one emoji, empty for initials)').fill('🤖');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Save agent' }).click();
    await agents.getByRole('button', { name: 'Edit Robo Two' }).waitFor();
    const read = async () => (await board(context, project.id)).members.find((m) => m.id === agent.id);
    expect(await read()).toMatchObject({ name: 'Robo Two', color: '#6d5bd0', emoji: '🤖' });
    // Back to initials.
    await agents.getByRole('button', { name: 'Edit Robo Two' }).click();
    await agents.getByLabel('Agent face (one emoji, empty for initials)').fill('');
    await agents.getByRole('button', { name: 'Save agent' }).click();
    await until(read, (m) => expect(m!.emoji).toBeNull());
    expect(problems).toEqual([]);
    await context.close();
  });

  it('card view modes beside places, for the project and for one view', async () => {
    const { context, page, problems, project } = await signedIn('Cara', 'CARD');
    const b0 = await board(context, project.id);
    const status = b0.properties.find((p) => p.name === 'Status')!;
    const main = b0.views[0];
    await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title: 'Paint', values: { [status.id]: status.options[0].id } });
    await page.goto(`/p/${project.id}/settings`);
    await section(page, 'Properties').getByLabel('Status drawn as').selectOption('colour');
    await until(() => board(context, project.id), (b) => expect(b.cardView.rows[status.id].mode).toBe('colour'));
    await page.goto(`/p/${project.id}`);
    await page.locator('[data-task-key="CARD-1"] .colour-bar').waitFor();
    // This view alone: Status as a chip in the header's right, fixed colour.
    await page.getByRole('button', { name: 'View settings' }).click();
    await page.getByText('Cards in this view').click();
    await page.getByLabel(`Status in ${main.name}`).selectOption('headerR');
    await until(() => board(context, project.id), (b) => expect(b.views[0].cardView!.rows[status.id]).toEqual({ place: 'headerR', mode: 'colour' }));
    await page.getByLabel(`Status drawn as, in ${main.name}`).selectOption('fixed');
    await until(() => board(context, project.id), (b) => expect(b.views[0].cardView!.rows[status.id]).toEqual({ place: 'headerR', mode: 'fixed' }));
    expect((await board(context, project.id)).cardView.rows[status.id].mode).toBe('colour');
    await page.locator('[data-task-key="CARD-1"] .card-head .chip').filter({ hasText: status.options[0].name }).waitFor();
    expect(await page.locator('[data-task-key="CARD-1"] .colour-bar').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    // Back to the project's cards.
    await page.getByRole('button', { name: 'Use the project’s cards' }).click();
    await until(() => board(context, project.id), (b) => expect(b.views[0].cardView).toBeNull());
    await page.locator('[data-task-key="CARD-1"] .colour-bar').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the project's activity feed, newest first, a page at a time", async () => {
    const { context, page, problems, project } = await signedIn('Fee', 'FEED');
    for (let i = 1; i <= 55; i++) await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title: `Task ${i}` });
    await page.goto(`/p/${project.id}`);
    await page.getByRole('link', { name: 'Activity' }).click();
    const feed = page.getByRole('list', { name: 'Activity' });
    await feed.locator('li').first().waitFor();
    expect(await feed.locator('li').count()).toBe(50);
    await expect(feed.locator('li').first().textContent()).resolves.toContain('FEED-55');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Show older activity' }).click();
    await until(() => feed.locator('li').count(), (n) => expect(n).toBe(55));
    expect(await page.getByRole('button', { name: 'Show older activity' }).count()).toBe(0);
    await expect(feed.locator('li').last().textContent()).resolves.toContain('FEED-1');
    // The same lines, in the same order, as the API's pages.
    const all: FeedAnswer['activity'] = [];
    let next: FeedAnswer['next'] = null;
    do {
      const q: string = `?order=newest${next ? `&after=${encodeURIComponent(next.after)}&afterId=${next.afterId}` : ''}`;
      const a: FeedAnswer = await apiIn<FeedAnswer>(context, h.origin, 'GET', `/projects/${project.id}/activity${q}`);
      all.push(...a.activity);
      next = a.next;
    } while (next);
    await page.evaluate('window.scrollTo(0, 0)');
    await keepScreenshot(page, 'activity');
    expect(all.map((a) => a.taskKey)).toEqual((await feed.locator('li').allTextContents()).map((t) => /FEED-\d+/.exec(t)![0]));
    // A line written elsewhere shows up live.
    await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title: 'Task 56' });
    await feed.getByRole('button', { name: 'FEED-56' }).waitFor();
    await expect(feed.locator('li').first().textContent()).resolves.toContain('FEED-56');
    // A task key opens the task.
    await feed.getByRole('button', { name: 'FEED-55' }).click();
    await page.getByRole('dialog').getByText('Task 55').first().waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('imports a Trello export: upload, preview, import (owner and admins only)', async () => {
    const { context, page, problems, project } = await signedIn('Tre', 'TREL');
    const exported = generateTrelloExport({ cards: 6, lists: 3, labels: 2, checklistItems: 1, comments: 1, closedEvery: 3, seed: 7 });
    const dir = mkdtempSync(join(tmpdir(), 'trello-'));
    const path = join(dir, 'board.json');
    writeFileSync(path, JSON.stringify(exported));
    const expected = (await apiIn(context, h.origin, 'POST', `/projects/${project.id}/import/preview`, exported)).preview;
    await page.goto(`/p/${project.id}/settings`);
    const box = section(page, 'Import from Trello');
    await box.getByLabel('Trello board export (JSON)').setInputFiles(path);
    const preview = box.getByRole('status', { name: 'Import preview' });
    await preview.waitFor();
    expect(await preview.textContent()).toContain(`holds ${expected.tasks} tasks and ${expected.archived} archived`);
    // The preview says what its counts mean.
    expect(await preview.textContent()).toContain('Archived: the cards closed on Trello');
    expect(await preview.textContent()).toContain('Each open list the cards use is a Status column, in Trello’s order');
    expect((await board(context, project.id)).tasks).toHaveLength(0);
    expect(await seriousViolations(page)).toEqual([]);
    await preview.getByRole('button', { name: `Import ${expected.tasks + expected.archived} tasks` }).click();
    await box.getByText(`Imported ${expected.tasks + expected.archived} tasks; skipped 0.`).waitFor();
    const after = await board(context, project.id);
    expect(after.tasks).toHaveLength(expected.tasks);
    expect(after.archived).toHaveLength(expected.archived);
    await page.getByRole('link', { name: 'Board', exact: true }).click();
    await page.locator('[data-task-key]').first().waitFor();
    // A file that is not an export: the service's sentence.
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    writeFileSync(path, JSON.stringify({ hello: 'world' }));
    await section(page, 'Import from Trello').getByLabel('Trello board export (JSON)').setInputFiles(path);
    await section(page, 'Import from Trello').getByRole('alert').filter({ hasText: 'That is not a Trello board export.' }).waitFor();
    // A member is not offered the import.
    const other = await h.newContext();
    const member = await registerIn(other, h.origin, 'Mem');
    await apiIn(context, h.origin, 'POST', `/projects/${project.id}/members`, { email: member.email });
    const memberPage = await other.newPage();
    await memberPage.goto(`/p/${project.id}/settings`);
    await memberPage.getByRole('heading', { name: 'People' }).waitFor();
    expect(await memberPage.getByRole('heading', { name: 'Import from Trello' }).count()).toBe(0);
    expect(problems).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
    await other.close();
    await context.close();
  });

  it('imports a project export beside the Trello import: the preview says it read an export', async () => {
    const { context, page, problems, project } = await signedIn('Exa', 'EXPA');
    for (const title of ['First', 'Second']) await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title });
    const exported = await apiIn(context, h.origin, 'GET', `/projects/${project.id}/export`);
    const { project: fresh } = await apiIn(context, h.origin, 'POST', '/projects', { name: 'Fresh', key: 'EXPB' });
    const dir = mkdtempSync(join(tmpdir(), 'export-'));
    const path = join(dir, 'EXPA-export.json');
    writeFileSync(path, JSON.stringify(exported));
    await page.goto(`/p/${fresh.id}/settings`);
    const box = section(page, 'Import from Trello or a project export');
    await box.getByLabel('Trello board export (JSON) or project export').setInputFiles(path);
    const preview = box.getByRole('status', { name: 'Import preview' });
    await preview.waitFor();
    expect(await preview.textContent()).toContain('EXPA-export.json is a project export: 2 tasks, 0 archived and 0 in the bin');
    expect(await seriousViolations(page)).toEqual([]);
    await preview.getByRole('button', { name: 'Import 2 tasks' }).click();
    await box.getByText('Imported 2 tasks; skipped 0.').waitFor();
    expect((await board(context, fresh.id)).tasks.map((x: { title: string }) => x.title)).toEqual(['First', 'Second']);
    expect(problems).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
    await context.close();
  });

  it('edits a chart after it is made (name, projects, property)', async () => {
    const { context, page, problems, project } = await signedIn('Chu', 'CHRA');
    const { project: second } = await apiIn(context, h.origin, 'POST', '/projects', { name: 'Second CHRB', key: 'CHRB' });
    const statusOf = async (id: string) => (await board(context, id)).properties.find((p) => p.name === 'Status');
    const [sa, sb] = [await statusOf(project.id), await statusOf(second.id)];
    const { chart } = await apiIn(context, h.origin, 'POST', '/charts', { name: 'Flow A', kind: 'flow', projectIds: [project.id], propertyId: sa!.id });
    await page.goto('/charts');
    await page.getByRole('button', { name: 'Edit chart Flow A' }).click();
    const form = page.getByRole('form', { name: 'Edit chart Flow A' });
    await form.getByLabel('Name of the chart').fill('Flow of both');
    await form.getByLabel('Second CHRB').check();
    await form.getByLabel('Property of the chart').selectOption({ label: 'Status (Second CHRB)' });
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Save chart' }).click();
    await page.getByRole('heading', { name: /Flow of both/ }).waitFor();
    const { charts } = await apiIn(context, h.origin, 'GET', '/charts');
    expect(charts).toEqual([expect.objectContaining({ id: chart.id, name: 'Flow of both', projectIds: expect.arrayContaining([project.id, second.id]), propertyId: sb!.id })]);
    expect(charts[0].projectIds).toHaveLength(2);
    await page.locator('svg[role="img"]').first().waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('pages past runs beyond the first twenty', async () => {
    const { context, page, problems, project } = await signedIn('Run', 'RUNS');
    const { token } = await apiIn(context, h.origin, 'POST', `/projects/${project.id}/agents`, { name: 'Bot' });
    const { task } = await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title: 'Busy task' });
    const asAgent = async <M extends HttpMethod, P extends string>(method: M, path: P, body: unknown) => {
      const res = await fetch(`${h.origin}/api${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status >= 400) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as RouteAnswer<Lowercase<M>, P>;
    };
    for (let i = 1; i <= 23; i++) {
      const { run } = await asAgent('POST', `/tasks/${task.id}/run`, { goal: `Attempt ${i}` });
      await asAgent('PATCH', `/runs/${run.id}`, { status: 'done' });
    }
    await page.goto(`/p/${project.id}?task=${task.id}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Past runs (20+)').click();
    expect(await dialog.locator('.past-runs li').count()).toBe(20);
    await dialog.getByRole('button', { name: 'Show earlier runs' }).click();
    await dialog.getByText('Past runs (23)').waitFor();
    const goals = (await dialog.locator('.past-runs li').allTextContents()).map((t) => /Attempt \d+/.exec(t)![0]);
    expect(goals).toEqual(Array.from({ length: 23 }, (_, i) => `Attempt ${23 - i}`));
    expect(await dialog.getByRole('button', { name: 'Show earlier runs' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the new forms and the activity page at 375 px and in the dark scheme: no sideways scroll, axe passes', async () => {
    const { context, page, problems, project } = await signedIn('Nar', 'NARR');
    const call = <M extends HttpMethod, P extends string>(method: M, path: P, data?: unknown) => apiIn(context, h.origin, method, path, data);
    await call('POST', `/projects/${project.id}/properties`, { name: 'Type', type: 'select', options: ['Bug', 'Feature'] });
    const rel = (await call('POST', `/projects/${project.id}/properties`, { name: 'Release', type: 'select', options: ['v1'] })).property;
    await call('PATCH', `/properties/${rel.id}`, { dated: true });
    await call('POST', `/projects/${project.id}/agents`, { name: 'Robo' });
    await call('POST', `/projects/${project.id}/webhooks`, { url: 'http://127.0.0.1:9/narrow' });
    await call('POST', `/projects/${project.id}/tasks`, { title: 'A task with a rather long title to wrap on a phone' });
    await page.setViewportSize({ width: 375, height: 740 });
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`/p/${project.id}/settings`);
      await section(page, 'Webhooks').getByRole('button', { name: 'Edit' }).click();
      await section(page, 'Agents and tokens').getByRole('button', { name: 'Edit Robo' }).click();
      await page.getByText('Defaults of Release by Type').click();
      await page.getByRole('button', { name: 'Add note of v1' }).click();
      await page.getByLabel('Trello board export (JSON)').waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto(`/p/${project.id}/activity`);
      await page.getByRole('list', { name: 'Activity' }).locator('li').first().waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto(`/p/${project.id}`);
      await page.getByRole('button', { name: 'View settings' }).click();
      await page.getByText('Cards in this view').click();
      expect(await overflow()).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a view's kind and grouping changed after it is made; a shipped day taken back", async () => {
    const { context, page, problems, project } = await signedIn('Kay', 'KIND');
    const call = <M extends HttpMethod, P extends string>(method: M, path: P, data?: unknown) => apiIn(context, h.origin, method, path, data);
    const area = (await call('POST', `/projects/${project.id}/properties`, { name: 'Area', type: 'select', options: ['Front', 'Back'] })).property;
    const view = (await call('POST', `/projects/${project.id}/views`, { name: 'Flat', kind: 'list' })).view;
    await page.goto(`/p/${project.id}?view=${view.id}`);
    await page.getByRole('button', { name: 'View settings' }).click();
    await page.getByLabel('Grouped by').selectOption({ label: 'Area' });
    const read = async () => (await board(context, project.id)).views.find((v) => v.id === view.id);
    // The grouping must be saved first: a board without one is refused (the two selects each save at once).
    await until(read, (v) => expect(v).toMatchObject({ kind: 'list', groupById: area.id }));
    await page.getByLabel('Kind of view').selectOption('board');
    await until(read, (v) => expect(v).toMatchObject({ kind: 'board', groupById: area.id }));
    await page.getByRole('region', { name: 'Front' }).or(page.getByText('Front').first()).first().waitFor();
    // Releases on; a dated option with a target ships, then an admin takes the day back.
    await call('PATCH', `/projects/${project.id}`, { releases: true });
    await call('PATCH', `/properties/${area.id}`, { dated: true });
    const front = area.options.find((o) => o.name === 'Front')!;
    await call('PATCH', `/options/${front.id}`, { targetOn: '2026-12-24' });
    await call('POST', `/options/${front.id}/ship`, { rest: 'leave' });
    await page.goto(`/p/${project.id}/settings`);
    await page.getByRole('button', { name: 'Take back the ship of Front' }).click();
    await until(async () => (await board(context, project.id)).properties.find((p) => p.id === area.id)!.options[0].shippedAt, (v) => expect(v).toBeNull());
    expect(problems).toEqual([]);
    await context.close();
  });
});
