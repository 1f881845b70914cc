import type { BrowserContext, Page } from 'playwright-core';
import { apiIn, pageOpen, until, describeBrowser, keepScreenshot, registerIn, seriousViolations, startHarness, watchPage, type BrowserHarness } from './support/page';
import type { CreatedPropertyAnswer, CreatedTaskAnswer } from '../support/answers';

// The board page in Debian's Chromium against a real instance (startTestApp) serving the built page.
jest.setTimeout(120_000);

describeBrowser('board page in a real browser', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startHarness();
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });

  async function signedIn(name = 'Ada', size?: { width: number; height: number }) {
    const context = await h.newContext(size);
    const user = await registerIn(context, h.origin, name);
    const page = await context.newPage();
    const problems = watchPage(page);
    return { context, page, user, problems };
  }

  async function projectWithTasks(context: BrowserContext, titles: string[], key: string) {
    const { project } = await apiIn(context, h.origin, 'POST', '/projects', { name: `Website ${key}`, key });
    const board = await apiIn(context, h.origin, 'GET', `/projects/${project.id}/board`);
    const status = board.properties.find((p) => p.name === 'Status')!;
    const option = (n: string) => status.options.find((o) => o.name === n)!.id;
    const tasks: CreatedTaskAnswer[] = [];
    for (const t of titles.filter(Boolean)) {
      const [title, column] = t.split('@');
      const body: { title: string; values?: Record<string, string> } = { title };
      if (column) body.values = { [status.id]: option(column) };
      tasks.push((await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, body)).task);
    }
    return { project, status, option, tasks };
  }

  const columnKeys = async (context: BrowserContext, projectId: string, statusId: string, optionId: string | null) => {
    const board = await apiIn(context, h.origin, 'GET', `/projects/${projectId}/board`);
    return board.tasks.filter((t) => (t.values[statusId] ?? null) === optionId).map((t) => t.key);
  };
  const card = (page: Page, key: string) => page.locator(`[data-task-key="${key}"]`);

  it('serves the page at / with a CSP and no-store, hashed assets for a year, and keeps the JSON 404 under /api', async () => {
    const root = await fetch(`${h.origin}/`);
    expect(root.status).toBe(200);
    expect(root.headers.get('cache-control')).toBe('no-store');
    expect(root.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await root.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1];
    const js = await fetch(h.origin + asset);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const deep = await fetch(`${h.origin}/p/00000000-0000-0000-0000-000000000000?task=x`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toContain('text/html');
    for (const [method, path] of [['GET', '/api/nope'], ['POST', '/api/nope'], ['GET', '/api'], ['GET', '/assets/missing.js']]) {
      const res = await fetch(h.origin + path, { method });
      expect([path, res.status]).toEqual([path, 404]);
      expect(await res.json()).toEqual({ error: 'Not found.' });
    }
    // The cross-site write check still holds beside the page: a signed-in write from another origin.
    const reg = await fetch(`${h.origin}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `x-${Date.now()}@example.com`, name: 'X', password: 'correct horse' }),
    });
    const cookie = /service_session=[^;]+/.exec(reg.headers.get('set-cookie') ?? '')![0];
    const foreign = await fetch(`${h.origin}/api/projects`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: 'Forged' }),
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({ error: 'Cross-site requests are refused.' });
    const own = await fetch(`${h.origin}/api/projects`, {
      method: 'POST',
      headers: { origin: h.origin, 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: 'Mine' }),
    });
    expect(own.status).toBe(201);
  });

  it('registers, signs out and signs in again through the forms', async () => {
    const context = await h.newContext();
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.goto('/');
    await keepScreenshot(page, 'sign-in');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create an account' }).click();
    const email = `grace-${Date.now()}@example.com`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'That email and password do not match.' }).waitFor();
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('views (list, roadmap), shared filters, the personal lens and promote', async () => {
    const { context, page, problems } = await signedIn('Vic');
    const { project, status, option } = await projectWithTasks(context, ['Red one@To do', 'Blue one@In progress', 'Green one@Done'], 'VUE');
    await page.goto(`/p/${project.id}`);
    await card(page, 'VUE-1').waitFor();
    // A list view.
    await page.getByRole('button', { name: '+ View' }).click();
    await page.getByLabel('View name').fill('Everything');
    await page.getByLabel('Kind').selectOption('list');
    await page.getByRole('button', { name: 'Create view' }).click();
    await page.getByRole('tab', { name: /Everything/, selected: true }).waitFor();
    await page.getByRole('row', { name: /VUE-2/ }).waitFor();
    expect(await page.getByRole('row').count()).toBe(4);
    await keepScreenshot(page, 'list-view');
    expect(await seriousViolations(page)).toEqual([]);
    // My lens: only To do, for me alone (not written to the view).
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('form', { name: 'Add a filter' }).getByLabel('Property').selectOption({ label: 'Status' });
    await page.getByRole('group', { name: 'Values' }).getByLabel('To do').check();
    await page.getByRole('button', { name: 'Add filter' }).click();
    await until(() => page.getByRole('row').count(), (n) => expect(n).toBe(2));
    const views = async () => (await apiIn(context, h.origin, 'GET', `/projects/${project.id}/board`)).views;
    let view = (await views()).find((v) => v.name === 'Everything')!;
    expect(view.filters.rules).toEqual([]);
    expect(view.lens!.rules).toEqual([{ propertyId: status.id, op: 'is', values: [option('To do')] }]);
    // Promote: the lens becomes the view's shared filter.
    await page.getByRole('button', { name: 'Share my filters with everyone' }).click();
    await until(async () => (await views()).find((v) => v.name === 'Everything')!.filters.rules, (r) => expect(r).toEqual([{ propertyId: status.id, op: 'is', values: [option('To do')] }]));
    view = (await views()).find((v) => v.name === 'Everything')!;
    expect(view.lens!.rules).toEqual([]);
    await page.getByRole('button', { name: /Remove filter Status is To do for everyone/ }).click();
    await until(() => page.getByRole('row').count(), (n) => expect(n).toBe(4));
    // A roadmap of the Status options.
    await page.getByRole('button', { name: '+ View' }).click();
    await page.getByLabel('View name').fill('Plan');
    await page.getByLabel('Kind').selectOption('roadmap');
    await page.getByLabel('Group by').selectOption({ label: 'Status' });
    await page.getByRole('button', { name: 'Create view' }).click();
    await page.getByRole('list', { name: 'Status roadmap' }).waitFor();
    await page.getByRole('button', { name: 'VUE-3 Green one' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a live run on its card and in the panel, with pause and take over', async () => {
    const { context, page, problems } = await signedIn('Rui');
    const { project, tasks } = await projectWithTasks(context, ['Agent work@In progress', 'Design the API@To do', 'Fix the login bug@To do', 'Write the docs@Done', 'Plan the launch'], 'RUN');
    // A fuller board for the picture: a checklist, a blocker, parts, a comment, a person.
    const me = (await apiIn(context, h.origin, 'GET', '/auth/me')).user;
    const owner = (await apiIn(context, h.origin, 'POST', `/projects/${project.id}/properties`, { name: 'Owner', type: 'person' })).property;
    for (const [i, text, done] of [[1, 'Sketch the routes', true], [1, 'Review with the team', false]] as [number, string, boolean][]) {
      const { item } = await apiIn(context, h.origin, 'POST', `/tasks/${tasks[i].id}/checklist`, { text });
      if (done) await apiIn(context, h.origin, 'PATCH', `/checklist/${item.id}`, { done: true });
    }
    await apiIn(context, h.origin, 'PUT', `/tasks/${tasks[1].id}/values/${owner.id}`, { value: me.id });
    await apiIn(context, h.origin, 'POST', `/tasks/${tasks[2].id}/blockers`, { blockerId: tasks[1].id });
    await apiIn(context, h.origin, 'PUT', `/tasks/${tasks[3].id}/parent`, { parentId: tasks[4].id });
    await apiIn(context, h.origin, 'POST', `/tasks/${tasks[3].id}/comments`, { body: 'Done and reviewed.' });
    const { token } = await apiIn(context, h.origin, 'POST', `/projects/${project.id}/agents`, { name: 'Builder' });
    const agent = await h.newContext();
    const asAgent = async (method: string, path: string, data?: unknown) => {
      const res = await agent.request.fetch(`${h.origin}/api${path}`, { method, data, headers: { authorization: `Bearer ${token}` } });
      expect(res.status()).toBeLessThan(300);
      return res.json();
    };
    await page.goto(`/p/${project.id}`);
    await card(page, 'RUN-1').waitFor();
    const { run } = await asAgent('POST', `/tasks/${tasks[0].id}/run`, { goal: 'Ship the parser', steps: ['Read', 'Write', 'Test'] });
    await asAgent('PATCH', `/runs/${run.id}`, { stepIndex: 1, step: 'Writing the parser' });
    await card(page, 'RUN-1').getByText('Writing the parser').waitFor();
    await keepScreenshot(page, 'board');
    await card(page, 'RUN-1').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Goal: Ship the parser').waitFor();
    await dialog.getByRole('list', { name: 'Plan' }).getByText('Write').waitFor();
    await keepScreenshot(page, 'task-run');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Pause' }).click();
    await dialog.getByText('· asked to pause').waitFor();
    expect((await asAgent('PATCH', `/runs/${run.id}`, { beat: true })).control).toBe('pause');
    // Take over asks first: keeping the run sends nothing.
    await dialog.getByRole('button', { name: 'Take over' }).click();
    const ask = dialog.getByRole('group', { name: /Take this task over from/ });
    await ask.waitFor();
    await keepScreenshot(page, 'take-over-confirm');
    await ask.getByRole('button', { name: 'Keep the run' }).click();
    expect(await ask.count()).toBe(0);
    expect((await asAgent('GET', `/runs/${run.id}`)).run.status).not.toBe('taken_over');
    await dialog.getByRole('button', { name: 'Take over' }).click();
    await dialog.getByRole('group', { name: /Take this task over from/ }).getByRole('button', { name: 'Yes, take it over' }).click();
    await dialog.getByText('No run open.').waitFor();
    expect((await asAgent('GET', `/runs/${run.id}`)).run.status).toBe('taken_over');
    await agent.close();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('people, invites, rules, webhooks refusals and the archive search in settings', async () => {
    const { context, page, problems } = await signedIn('Pia');
    const { project, tasks } = await projectWithTasks(context, ['Old idea', 'Current'], 'ADM');
    await apiIn(context, h.origin, 'PATCH', `/tasks/${tasks[0].id}`, { description: 'about the purple elephant' });
    await apiIn(context, h.origin, 'POST', `/tasks/${tasks[0].id}/archive`);
    await page.goto(`/p/${project.id}/settings`);
    await page.getByLabel('Add by email').fill('newcomer@example.com');
    await page.getByRole('button', { name: 'Add person' }).click();
    await page.getByRole('button', { name: 'Withdraw invite' }).waitFor();
    expect((await apiIn(context, h.origin, 'GET', `/projects/${project.id}/board`)).invites.map((i) => i.email)).toEqual(['newcomer@example.com']);
    await page.getByLabel('Project rules (markdown)').fill('Always write tests.');
    await page.getByRole('button', { name: 'Save rules' }).click();
    await until(async () => (await apiIn(context, h.origin, 'GET', `/projects/${project.id}/rules`)).rules.text, (v) => expect(v).toBe('Always write tests.'));
    await page.getByLabel('Webhook URL').fill('http://127.0.0.1:9/hook');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByRole('alert').filter({ hasText: 'That address is private, so a webhook cannot reach it.' }).waitFor();
    await page.goto(`/p/${project.id}/trash`);
    await page.getByLabel('Search archived tasks').fill('purple elephant');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('found in descriptions').waitFor();
    await page.getByRole('button', { name: 'Put back' }).first().click();
    await until(async () => (await apiIn(context, h.origin, 'GET', `/projects/${project.id}/board`)).tasks.length, (n) => expect(n).toBe(2));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('ends the other sessions from the account page', async () => {
    const { context, page, user, problems } = await signedIn('Ola');
    const other = await h.newContext();
    const login = await other.request.post(`${h.origin}/api/auth/login`, { data: { email: user.email, password: 'correct horse' } });
    expect(login.status()).toBe(200);
    await page.goto('/account');
    await page.getByText('You are signed in 1 other time.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'End other sessions' }).click();
    await page.getByText('You are signed in 0 other times.').waitFor();
    expect((await other.request.get(`${h.origin}/api/auth/me`)).status()).toBe(401);
    expect((await context.request.get(`${h.origin}/api/auth/me`)).status()).toBe(200);
    expect(problems).toEqual([]);
    await other.close();
    await context.close();
  });

  it('creates a project and tasks on the page; they are in the service', async () => {
    const { context, page, problems } = await signedIn('Linus');
    await page.goto('/');
    await page.getByLabel('Project name').fill('Kernel work');
    await page.getByLabel('Key (optional)').fill('KRN');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('tab', { name: /Board/ }).waitFor();
    for (const title of ['Write the scheduler', 'Review patches']) {
      await page.getByLabel('New task title').fill(title);
      await page.getByRole('button', { name: 'Add task' }).click();
      await page.getByRole('button', { name: new RegExp(title) }).waitFor();
    }
    const { projects } = await apiIn(context, h.origin, 'GET', '/projects');
    expect(projects.map((p) => p.key)).toEqual(['KRN']);
    const board = await apiIn(context, h.origin, 'GET', `/projects/${projects[0].id}/board`);
    expect(board.tasks.map((t) => `${t.key} ${t.title}`)).toEqual(['KRN-1 Write the scheduler', 'KRN-2 Review patches']);
    await apiIn(context, h.origin, 'POST', '/projects', { name: 'Docs', key: 'DOC' });
    await page.goto('/');
    await page.getByRole('link', { name: /Kernel work/ }).waitFor();
    await page.getByRole('button', { name: 'Move Docs up' }).click();
    await until(async () => (await apiIn(context, h.origin, 'GET', '/projects')).projects.map((p) => p.key), (v) => expect(v).toEqual(['DOC', 'KRN']));
    await until(() => page.locator('.project-key').allTextContents(), (v) => expect(v).toEqual(['DOC', 'KRN']));
    await keepScreenshot(page, 'projects');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a drag lands where it was dropped: one move call, checked through the API', async () => {
    const { context, page, problems } = await signedIn('Dana');
    const { project, status, option } = await projectWithTasks(context, ['Alpha@To do', 'Beta@To do', 'Gamma@In progress', 'Delta'], 'DRG');
    const moves: unknown[] = [];
    page.on('request', (r) => { if (r.url().endsWith('/move')) moves.push(r.postDataJSON()); });
    await page.goto(`/p/${project.id}`);
    await card(page, 'DRG-4').waitFor();
    // Delta (no status) onto the upper half of Beta in To do: between Alpha and Beta.
    const from = (await card(page, 'DRG-4').boundingBox())!;
    const to = (await card(page, 'DRG-2').boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 3 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height * 0.25, { steps: 12 });
    await page.mouse.up();
    await until(() => columnKeys(context, project.id, status.id, option('To do')), (v) => expect(v).toEqual(['DRG-1', 'DRG-4', 'DRG-2']));
    expect(moves).toEqual([{ beforeId: expect.any(String), values: { [status.id]: option('To do') } }]);
    // Gamma below Beta, onto its lower half: after it.
    const g = (await card(page, 'DRG-3').boundingBox())!;
    const b = (await card(page, 'DRG-2').boundingBox())!;
    await page.mouse.move(g.x + g.width / 2, g.y + g.height / 2);
    await page.mouse.down();
    await page.mouse.move(g.x + g.width / 2 - 10, g.y + g.height / 2, { steps: 3 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height * 0.8, { steps: 12 });
    await page.mouse.up();
    await until(() => columnKeys(context, project.id, status.id, option('To do')), (v) => expect(v).toEqual(['DRG-1', 'DRG-4', 'DRG-2', 'DRG-3']));
    expect(await columnKeys(context, project.id, status.id, option('In progress'))).toEqual([]);
    // What the page shows is what the service holds, after a reload too.
    await page.reload();
    const todo = page.locator('section[data-column="To do"] [data-task-key]');
    await until(() => todo.evaluateAll((els) => els.map((e) => (e as unknown as { getAttribute(name: string): string | null }).getAttribute('data-task-key'))), (v) => expect(v).toEqual(['DRG-1', 'DRG-4', 'DRG-2', 'DRG-3']));
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('moves a card with the keyboard, within a column and across columns', async () => {
    const { context, page, problems } = await signedIn('Kim');
    const { project, status, option } = await projectWithTasks(context, ['One@To do', 'Two@To do', 'Three@To do'], 'KBD');
    await page.goto(`/p/${project.id}`);
    await card(page, 'KBD-3').focus();
    await page.keyboard.press('Alt+ArrowUp');
    await until(() => columnKeys(context, project.id, status.id, option('To do')), (v) => expect(v).toEqual(['KBD-1', 'KBD-3', 'KBD-2']));
    await until(() => page.evaluate('document.activeElement && document.activeElement.getAttribute("data-task-key")'), (v) => expect(v).toBe('KBD-3'));
    await page.keyboard.press('Alt+ArrowRight');
    await until(() => columnKeys(context, project.id, status.id, option('In progress')), (v) => expect(v).toEqual(['KBD-3']));
    const focusedKey = () => page.evaluate('document.activeElement && document.activeElement.getAttribute("data-task-key")');
    await until(focusedKey, (v) => expect(v).toBe('KBD-3'));
    await page.keyboard.press('Alt+ArrowLeft');
    await until(() => columnKeys(context, project.id, status.id, option('To do')), (v) => expect(v).toEqual(['KBD-3', 'KBD-1', 'KBD-2']));
    await until(focusedKey, (v) => expect(v).toBe('KBD-3'));
    await page.keyboard.press('Alt+ArrowLeft');
    await until(() => columnKeys(context, project.id, status.id, null), (v) => expect(v).toEqual(['KBD-3']));
    expect(await columnKeys(context, project.id, status.id, option('To do'))).toEqual(['KBD-1', 'KBD-2']);
    await until(focusedKey, (v) => expect(v).toBe('KBD-3'));
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByText('Task KBD-3').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('edits a task in the panel: title, markdown description, every property type, checklist, comments, blockers, parent; shows an edit clash with the current text', async () => {
    const { context, page, problems } = await signedIn('Mia');
    const { project, tasks } = await projectWithTasks(context, ['Draft the plan', 'Blocker', 'Epic'], 'PNL');
    const pid = project.id;
    const props: Record<string, CreatedPropertyAnswer> = {};
    for (const [name, type, options] of [
      ['Labels', 'multi_select', ['ui', 'api']], ['Owner', 'person'], ['Notes', 'text'], ['Points', 'number'],
      ['Due', 'date'], ['Urgent', 'checkbox'], ['Links', 'link'], ['Sprint', 'iteration', ['S1', 'S2']],
    ] as [string, string, string[]?][]) {
      props[name] = (await apiIn(context, h.origin, 'POST', `/projects/${pid}/properties`, { name, type, options })).property;
    }
    const me = (await apiIn(context, h.origin, 'GET', '/auth/me')).user;
    await page.goto(`/p/${pid}?task=${tasks[0].id}`);
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const title = dialog.getByLabel('Title');
    await title.fill('Draft the launch plan');
    await title.press('Enter');
    await dialog.getByRole('button', { name: 'Edit description' }).click();
    await dialog.getByLabel('Description (markdown)').fill('Some **bold** words');
    await dialog.getByRole('button', { name: 'Save description' }).click();
    await dialog.locator('.markdown strong', { hasText: 'bold' }).waitFor();
    await dialog.getByLabel('Status').selectOption({ label: 'In progress' });
    await dialog.getByRole('group', { name: 'Labels' }).getByLabel('api').check();
    await dialog.getByLabel('Owner').selectOption({ label: 'Mia' });
    await dialog.getByLabel('Notes').fill('a note');
    await dialog.getByLabel('Notes').press('Enter');
    await dialog.getByLabel('Points').fill('5');
    await dialog.getByLabel('Points').press('Enter');
    await dialog.getByLabel('Due').fill('2026-12-24');
    await dialog.getByLabel('Urgent').check();
    await dialog.getByLabel('Links').fill('https://example.com/a');
    await dialog.getByLabel('Links').blur();
    await dialog.getByLabel('Sprint').selectOption({ label: 'S2' });
    await dialog.getByLabel('New checklist item').fill('First step');
    await dialog.getByRole('button', { name: 'Add item' }).click();
    await dialog.getByLabel('Done: First step').check();
    await dialog.getByLabel('Write a comment (markdown)').fill('Looks _good_');
    await dialog.getByRole('button', { name: 'Comment', exact: true }).click();
    await dialog.locator('.comment em', { hasText: 'good' }).waitFor();
    await dialog.getByLabel('Add a blocker (key)').fill('PNL-2');
    await dialog.getByRole('button', { name: 'Add blocker' }).click();
    await dialog.getByLabel('Parent task (key)').fill('PNL-3');
    await dialog.getByRole('button', { name: 'Set parent' }).click();
    await dialog.getByRole('button', { name: 'Leave PNL-3' }).waitFor();

    const read = async () => (await apiIn(context, h.origin, 'GET', `/tasks/${tasks[0].id}`)).task;
    await until(async () => (await read()).checklistDone, (v) => expect(v).toBe(1));
    const task = await read();
    const board = await apiIn(context, h.origin, 'GET', `/projects/${pid}/board`);
    const status = board.properties.find((p) => p.name === 'Status')!;
    expect(task.title).toBe('Draft the launch plan');
    expect(task.description).toBe('Some **bold** words');
    expect(task.values).toEqual({
      [status.id]: status.options.find((o) => o.name === 'In progress')!.id,
      [props.Labels.id]: [props.Labels.options[1].id],
      [props.Owner.id]: me.id,
      [props.Notes.id]: 'a note',
      [props.Points.id]: 5,
      [props.Due.id]: '2026-12-24',
      [props.Urgent.id]: true,
      [props.Links.id]: ['https://example.com/a'],
      [props.Sprint.id]: props.Sprint.options[1].id,
    });
    expect(task.checklist.map((i) => [i.text, i.done])).toEqual([['First step', true]]);
    expect(task.comments.map((c) => c.body)).toEqual(['Looks _good_']);
    expect(task.links.blockedBy.map((r) => r.key)).toEqual(['PNL-2']);
    expect(task.parent!.key).toBe('PNL-3');
    await dialog.getByRole('heading', { name: 'Activity' }).waitFor();
    await keepScreenshot(page, 'task-panel');
    expect(await seriousViolations(page)).toEqual([]);

    // Someone else saves the title while this tab types: the clash shows the saved words.
    await title.click();
    await apiIn(context, h.origin, 'PATCH', `/tasks/${tasks[0].id}`, { title: 'Their title' });
    await title.fill('My title');
    await title.press('Enter');
    const clash = dialog.getByRole('alert').filter({ hasText: 'This changed while you typed.' });
    await clash.waitFor();
    await until(() => clash.textContent(), (v) => expect(v).toContain('Their title'));
    expect((await read()).title).toBe('Their title');
    await clash.getByRole('button', { name: 'Keep mine' }).click();
    await until(async () => (await read()).title, (v) => expect(v).toBe('My title'));

    await dialog.getByRole('button', { name: 'Archive' }).click();
    await until(async () => (await read()).archivedAt, (v) => expect(v).not.toBeNull());
    expect(problems).toEqual([]);
    await context.close();
  });

  it('two browsers see each other’s changes live, and who has a task open', async () => {
    const a = await signedIn('Ann');
    const b = await signedIn('Ben');
    const { project, status, option, tasks } = await projectWithTasks(a.context, ['Shared task@To do'], 'LIV');
    await apiIn(a.context, h.origin, 'POST', `/projects/${project.id}/members`, { email: b.user.email });
    await a.page.goto(`/p/${project.id}`);
    await b.page.goto(`/p/${project.id}`);
    await card(b.page, 'LIV-1').waitFor();
    await b.page.locator('.dot.on').waitFor();
    await a.page.locator('.dot.on').waitFor();

    // A creates a task on the page: B's board shows it without a reload.
    await a.page.getByLabel('New task title').fill('Made by Ann');
    await a.page.getByRole('button', { name: 'Add task' }).click();
    await card(b.page, 'LIV-2').waitFor();
    // A moves a card with the keyboard: B sees it in the new column.
    await card(a.page, 'LIV-1').focus();
    await a.page.keyboard.press('Alt+ArrowRight');
    await b.page.locator('section[data-column="In progress"] [data-task-key="LIV-1"]').waitFor();
    expect(await columnKeys(a.context, project.id, status.id, option('In progress'))).toEqual(['LIV-1']);
    // B opens the task: A sees B there; A renames it and B's open panel follows.
    await b.page.goto(`/p/${project.id}?task=${tasks[0].id}`);
    await b.page.getByRole('dialog').waitFor();
    await card(a.page, 'LIV-1').getByRole('img', { name: 'Ben has it open' }).waitFor();
    await b.page.getByRole('dialog').getByLabel('Title').focus();
    await a.page.goto(`/p/${project.id}?task=${tasks[0].id}`);
    await a.page.getByRole('dialog').getByText('Ben is editing the title').waitFor();
    await b.page.getByRole('dialog').getByLabel('Title').blur();
    await a.page.getByRole('dialog').getByLabel('Title').fill('Renamed by Ann');
    await a.page.getByRole('dialog').getByLabel('Title').press('Enter');
    await until(() => b.page.getByRole('dialog').getByLabel('Title').inputValue(), (v) => expect(v).toBe('Renamed by Ann'));
    await a.page.getByRole('dialog').getByLabel('New checklist item').fill('Ann adds this');
    await a.page.getByRole('dialog').getByRole('button', { name: 'Add item' }).click();
    await b.page.getByRole('dialog').getByRole('button', { name: 'Ann adds this', exact: true }).waitFor();

    // Own changes are skipped by clientId: Ann's write makes her page read the task once (its own
    // refresh), never the board again.
    const boardReads: string[] = [];
    a.page.on('request', (r) => { if (/\/board$/.test(r.url())) boardReads.push(r.url()); });
    await a.page.getByRole('dialog').getByLabel('Status').selectOption({ label: 'Done' });
    await b.page.locator('section[data-column="Done"] [data-task-key="LIV-1"]').waitFor();
    await a.page.waitForTimeout(500);
    expect(boardReads).toEqual([]);

    // The streams drop (the server cuts every connection) and a change lands before they are back:
    // the page reconnects and, on `ready`, re-reads what it shows.
    await b.page.getByRole('button', { name: 'Close task' }).click();
    (h.t.app.getHttpServer() as import('node:http').Server).closeAllConnections();
    await apiIn(a.context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title: 'While Ben was away' });
    await b.page.getByText('While Ben was away').waitFor({ timeout: 20_000 });
    await b.page.locator('.dot.on').waitFor();
    expect(a.problems).toEqual([]);
    expect(b.problems).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  it('opens a board of 5,000 tasks, usable: columns counted, a card opens, a long column scrolls to its end', async () => {
    const { context, page, problems } = await signedIn('Big');
    const { project, status } = await projectWithTasks(context, [], 'BIG');
    await pageOpen.seedBoard(h.t.sql, project.id, status.id, status.options.map((o) => o.id), 5000);
    await page.close();
    // Warm the service's board read once (the bench does likewise), then time the page.
    await apiIn(context, h.origin, 'GET', `/projects/${project.id}/board`);
    const ms = await pageOpen.measureBoardOpen(context, h.origin, null, project.id, 5000);
    // eslint-disable-next-line no-console
    console.log(`board of 5,000 tasks usable after ${ms.toFixed(0)} ms (target 1500 ms on an idle machine; npm run bench measures it)`);
    expect(ms).toBeLessThan(6000);
    const p2 = await context.newPage();
    const more = watchPage(p2);
    await p2.goto(`/p/${project.id}`);
    const done = p2.locator('section[data-column="Done"]');
    await done.locator('[data-task-key]').first().waitFor();
    // Only what is seen is drawn, and scrolling reaches the last card of the column.
    expect(await p2.locator('[data-task-key]').count()).toBeLessThan(200);
    await done.locator('.column-scroll').evaluate((el) => { (el as unknown as { scrollTop: number }).scrollTop = 1e9; });
    await done.locator('[data-task-key="BIG-4999"]').waitFor();
    await done.locator('[data-task-key="BIG-4999"]').click();
    await p2.getByRole('dialog').getByText('Task BIG-4999').waitFor();
    expect([...problems, ...more]).toEqual([]);
    await context.close();
  });

  it('settings, archive and bin, and a narrow screen pass axe; deleted tasks come back', async () => {
    const { context, page, problems } = await signedIn('Sam');
    const { project, tasks } = await projectWithTasks(context, ['Keep me@To do', 'Delete me@To do'], 'SET');
    await apiIn(context, h.origin, 'DELETE', `/tasks/${tasks[1].id}`);
    await page.goto(`/p/${project.id}/settings`);
    await page.getByLabel('New agent name').fill('Robo');
    await page.getByRole('button', { name: 'Add agent' }).click();
    const token = await page.locator('.once code').textContent();
    expect(token).toMatch(/^svc_/);
    await page.getByLabel('Property name').fill('Area');
    await page.getByLabel('Type').selectOption('select');
    await page.getByLabel('Options (comma separated)').fill('Front, Back');
    await page.getByRole('button', { name: 'Add property' }).click();
    await page.getByLabel('Name of Area').waitFor();
    const areaRow = page.locator('li.prop-settings').filter({ has: page.getByLabel('Name of Area') });
    await areaRow.getByLabel('On cards').selectOption('headerR');
    await until(async () => {
      const b = await apiIn(context, h.origin, 'GET', `/projects/${project.id}/board`);
      return b.cardView.rows[b.properties.find((p) => p.name === 'Area')!.id]?.place;
    }, (v) => expect(v).toBe('headerR'));
    await areaRow.getByLabel('On cards').selectOption('off');
    await until(async () => {
      const b = await apiIn(context, h.origin, 'GET', `/projects/${project.id}/board`);
      return b.cardView.rows[b.properties.find((p) => p.name === 'Area')!.id]?.place;
    }, (v) => expect(v).toBe('off'));
    await areaRow.getByLabel('Name of option Front').fill('Frontend');
    await areaRow.getByLabel('Name of option Front').press('Enter');
    await until(async () => {
      const b = await apiIn(context, h.origin, 'GET', `/projects/${project.id}/board`);
      return b.properties.find((p) => p.name === 'Area')!.options.map((o) => o.name);
    }, (v) => expect(v).toEqual(['Frontend', 'Back']));
    await page.evaluate('window.scrollTo(0, 0)');
    await keepScreenshot(page, 'settings');
    expect(await seriousViolations(page)).toEqual([]);
    const board = await apiIn(context, h.origin, 'GET', `/projects/${project.id}/board`);
    expect(board.members.filter((m) => m.kind === 'agent').map((m) => m.name)).toEqual(['Robo']);
    expect(board.properties.find((p) => p.name === 'Area')!.options.map((o) => o.name)).toEqual(['Frontend', 'Back']);

    await page.goto(`/p/${project.id}/trash`);
    await page.getByRole('button', { name: 'Restore SET-2' }).click();
    await until(async () => (await apiIn(context, h.origin, 'GET', `/projects/${project.id}/board`)).tasks.length, (v) => expect(v).toBe(2));
    expect(await seriousViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`/p/${project.id}`);
    await card(page, 'SET-1').waitFor();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await keepScreenshot(page, 'board-375px');
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/p/${project.id}?task=${tasks[0].id}`);
    await page.getByRole('dialog').waitFor();
    await keepScreenshot(page, 'dark-task-panel');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
