import type { BrowserContext, Page } from 'playwright-core';
import { apiIn, describeBrowser, keepScreenshot, registerIn, seriousViolations, startHarness, until, watchPage, type BrowserHarness } from './support/page';

// The first hour (issue "The first hour", points 1, 2 and 12): what a newcomer meets on the page.
jest.setTimeout(120_000);

interface Prop {
  id: string;
  name: string;
  options: { id: string; name: string; color: string }[];
}

describeBrowser('board page: the first hour', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startHarness();
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });

  async function signedIn(name: string, key: string, template?: 'team') {
    const context = await h.newContext();
    const user = await registerIn(context, h.origin, name);
    const page = await context.newPage();
    const problems = watchPage(page);
    const { project } = await apiIn(context, h.origin, 'POST', '/projects', { name: `Project ${key}`, key, ...(template ? { template } : {}) });
    return { context, page, user, problems, project };
  }
  const board = (context: BrowserContext, projectId: string) => apiIn(context, h.origin, 'GET', `/projects/${projectId}/board`);
  const propsOf = async (context: BrowserContext, projectId: string) =>
    Object.fromEntries(((await board(context, projectId)).properties as Prop[]).map((p) => [p.name, p]));
  const option = (p: Prop, name: string) => p.options.find((o) => o.name === name)!.id;
  const column = (page: Page, name: string) => page.locator(`section.column[data-column="${name}"]`);

  it('a card added in a column takes that column\'s value and shows in it', async () => {
    const { context, page, problems, project } = await signedIn('Cara', 'COLS');
    const { Status } = await propsOf(context, project.id);
    await page.goto(`/p/${project.id}`);
    await page.getByRole('button', { name: 'Add a card to In progress' }).click();
    await page.getByLabel('New task title in In progress').fill('Started already');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await column(page, 'In progress').getByText('Started already').waitFor();
    await until(() => board(context, project.id), (b) => {
      const task = b.tasks.find((t) => t.title === 'Started already');
      expect(task?.values[Status.id]).toBe(option(Status, 'In progress'));
    });
    // The no-value column still takes tasks that hold nothing.
    await page.getByRole('button', { name: 'Add a card to No Status' }).click();
    await page.getByLabel('New task title in No Status').fill('Unsorted');
    await page.getByLabel('New task title in No Status').press('Enter');
    await column(page, 'No Status').getByText('Unsorted').waitFor();
    expect(await column(page, 'In progress').getByText('Unsorted').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('settings show the project\'s releases and sprints as they are, and change them', async () => {
    const { context, page, problems, project } = await signedIn('Rel', 'RELS');
    await apiIn(context, h.origin, 'PATCH', `/projects/${project.id}`, { releases: true });
    await page.goto(`/p/${project.id}/settings`);
    const releases = page.getByRole('checkbox', { name: 'Releases', exact: true });
    const sprints = page.getByRole('checkbox', { name: 'Sprints', exact: true });
    await until(async () => releases.isChecked(), (checked) => expect(checked).toBe(true));
    expect(await sprints.isChecked()).toBe(false);
    await sprints.click();
    await until(() => apiIn(context, h.origin, 'GET', '/projects'), (b) => {
      expect(b.projects.find((p: { id: string }) => p.id === project.id)).toMatchObject({ releases: true, sprints: true });
    });
    await until(async () => sprints.isChecked(), (checked) => expect(checked).toBe(true));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the header box puts a new task in the view\'s first real column, not in "No Status"', async () => {
    const { context, page, problems, project } = await signedIn('Hed', 'HEAD');
    const { Status } = await propsOf(context, project.id);
    await page.goto(`/p/${project.id}`);
    await page.getByLabel('New task title').fill('From the header');
    await page.getByRole('button', { name: 'Add task' }).click();
    await column(page, 'To do').getByText('From the header').waitFor();
    await until(() => board(context, project.id), (b) => {
      expect(b.tasks.find((t) => t.title === 'From the header')?.values[Status.id]).toBe(option(Status, 'To do'));
    });
    expect(await column(page, 'No Status').getByText('From the header').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a past due date is marked overdue on the card unless the task is done; colour bars are named', async () => {
    const { context, page, problems, project } = await signedIn('Dee', 'LATE', 'team');
    const { Status, Due } = await propsOf(context, project.id);
    const make = (title: string, values: Record<string, unknown>) => apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title, values });
    await make('Late one', { [Status.id]: option(Status, 'To do'), [Due.id]: '2020-01-15' });
    await make('Future one', { [Status.id]: option(Status, 'To do'), [Due.id]: '2099-01-15' });
    await make('Done late', { [Status.id]: option(Status, 'Done'), [Due.id]: '2020-01-15' });
    await page.goto(`/p/${project.id}`);
    const card = (title: string) => page.locator('.card').filter({ hasText: title });
    await card('Late one').waitFor();
    expect(await card('Late one').locator('.overdue').textContent()).toBe('2020-01-15 overdue');
    expect(await card('Future one').locator('.overdue').count()).toBe(0);
    expect(await card('Future one').getByText('2099-01-15').count()).toBe(1);
    expect(await card('Done late').locator('.overdue').count()).toBe(0);
    // The Status bar says what it is, to the eye (tooltip) and to a screen reader.
    const bar = card('Late one').locator('.colour-bar').first();
    expect(await bar.getAttribute('title')).toBe('Status: To do');
    expect(await bar.getAttribute('aria-label')).toBe('Status: To do');
    expect(await card('Late one').locator('.bar-label').count()).toBe(0);
    // Two bars side by side: each also shows its option's name.
    const { Priority } = await propsOf(context, project.id);
    await apiIn(context, h.origin, 'PUT', `/tasks/${(await board(context, project.id)).tasks.find((t) => t.title === 'Late one')!.id}/values/${Priority.id}`, { value: option(Priority, 'High') });
    await apiIn(context, h.origin, 'PATCH', `/projects/${project.id}/card-view`, { rows: { [Priority.id]: { place: 'headerL', mode: 'colour' } } });
    await page.reload();
    await until(() => card('Late one').locator('.bar-label').allTextContents(), (labels) => expect(labels).toEqual(['To do', 'High']));
    expect(await card('Late one').locator('.colour-bar').nth(1).getAttribute('aria-label')).toBe('Priority: High');
    await keepScreenshot(page, 'first-hour-two-bars');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a new project may start from the team template: its card shows assignee, due date and priority', async () => {
    const context = await h.newContext();
    const user = await registerIn(context, h.origin, 'Tess');
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.goto('/');
    const form = page.getByRole('form', { name: 'New project' });
    await form.getByLabel('Project name').fill('Team start');
    await form.getByRole('radio', { name: /Team/ }).check();
    await keepScreenshot(page, 'first-hour-new-project');
    await form.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/p\/[0-9a-f-]{36}$/);
    const projectId = page.url().split('/p/')[1];
    const props = await propsOf(context, projectId);
    expect(Object.keys(props)).toEqual(['Status', 'Assignee', 'Due', 'Priority', 'Labels']);
    await apiIn(context, h.origin, 'POST', `/projects/${projectId}/tasks`, {
      title: 'Write the plan',
      values: {
        [props.Status.id]: option(props.Status, 'In progress'),
        [props.Assignee.id]: user.id,
        [props.Due.id]: '2099-03-01',
        [props.Priority.id]: option(props.Priority, 'High'),
        [props.Labels.id]: [option(props.Labels, 'Feature')],
      },
    });
    const card = page.locator('.card').filter({ hasText: 'Write the plan' });
    await card.waitFor();
    await card.getByTitle('Assignee: Tess').waitFor();
    expect(await card.getByText('2099-03-01').count()).toBe(1);
    expect(await card.getByText('High').count()).toBe(1);
    expect(await card.getByText('Feature').count()).toBe(1);
    await apiIn(context, h.origin, 'POST', `/projects/${projectId}/tasks`, {
      title: 'Fix the overdue bug',
      values: { [props.Status.id]: option(props.Status, 'To do'), [props.Due.id]: '2020-03-01', [props.Priority.id]: option(props.Priority, 'Urgent'), [props.Labels.id]: [option(props.Labels, 'Bug')] },
    });
    await page.locator('.card').filter({ hasText: 'Fix the overdue bug' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await keepScreenshot(page, 'first-hour-team-board');
    await page.emulateMedia({ colorScheme: 'dark' });
    await keepScreenshot(page, 'first-hour-team-board-dark');
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByRole('button', { name: 'Add a card to To do' }).click();
    await keepScreenshot(page, 'first-hour-team-board-375px');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('view tabs read "All (list)", and a name that says its kind gets no second kind', async () => {
    const { context, page, problems, project } = await signedIn('Vic', 'TABS');
    await apiIn(context, h.origin, 'POST', `/projects/${project.id}/views`, { name: 'All', kind: 'list' });
    await apiIn(context, h.origin, 'POST', `/projects/${project.id}/views`, { name: 'All as list', kind: 'list' });
    await page.goto(`/p/${project.id}`);
    const tabs = page.getByRole('tablist', { name: 'Views' }).getByRole('tab');
    await until(() => tabs.allTextContents(), (names) => expect(names).toEqual(['Board', 'All (list)', 'All as list']));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the Activity tab reads newest first and says which checklist item changed', async () => {
    const { context, page, problems, project } = await signedIn('Ada', 'ACTS');
    const { task } = await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title: 'Plan' });
    const { item } = await apiIn(context, h.origin, 'POST', `/tasks/${task.id}/checklist`, { text: 'Write the tests' });
    await apiIn(context, h.origin, 'PATCH', `/checklist/${item.id}`, { done: true });
    await apiIn(context, h.origin, 'PATCH', `/checklist/${item.id}`, { text: 'Write more tests' });
    await page.goto(`/p/${project.id}/activity`);
    const feed = page.getByRole('list', { name: 'Activity' });
    await feed.locator('li').first().waitFor();
    const lines = (await feed.locator('li').allTextContents()).map((l) => l.replace(/^.*?Ada /, ''));
    expect(lines).toEqual([
      'changed a checklist item to “Write more tests” · ACTS-1',
      'ticked “Write the tests” on the checklist · ACTS-1',
      'added “Write the tests” to the checklist · ACTS-1',
      'created the task · ACTS-1',
    ]);
    await keepScreenshot(page, 'first-hour-activity');
    // The task's own activity says the same.
    await feed.getByRole('button', { name: 'ACTS-1' }).first().click();
    const own = page.getByRole('dialog').getByRole('region', { name: 'Activity' });
    await own.getByText('ticked “Write the tests” on the checklist').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a flow chart draws each option in its own colour', async () => {
    const { context, page, problems, project } = await signedIn('Cora', 'CHRT');
    const { Status } = await propsOf(context, project.id);
    await apiIn(context, h.origin, 'POST', '/charts', { name: 'Flow of work', kind: 'flow', projectIds: [project.id], propertyId: Status.id });
    await page.goto('/charts');
    const legend = page.getByRole('article', { name: /Flow of work/ }).locator('.legend');
    await legend.getByText('To do').waitFor();
    const dots = await legend.locator('.chip-dot').evaluateAll((els) => els.map((e) => (e as unknown as { style: { background: string } }).style.background));
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
    expect(dots.slice(0, 3)).toEqual(Status.options.map((o) => rgb(o.color)));
    // "No Status" takes a colour no option uses.
    expect(dots.slice(0, 3)).not.toContain(dots[3]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the new screens at 375 px in the dark scheme: no sideways scroll, axe passes', async () => {
    const context = await h.newContext({ width: 375, height: 740 });
    await registerIn(context, h.origin, 'Nia');
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    await page.goto('/');
    const form = page.getByRole('form', { name: 'New project' });
    await form.getByLabel('Project name').fill('Narrow team');
    await form.getByRole('radio', { name: /Team/ }).check();
    expect(await overflow()).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await keepScreenshot(page, 'first-hour-new-project-375px-dark');
    await form.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/p\/[0-9a-f-]{36}$/);
    const projectId = page.url().split('/p/')[1];
    const { task } = await apiIn(context, h.origin, 'POST', `/projects/${projectId}/tasks`, { title: 'Narrow task' });
    await apiIn(context, h.origin, 'POST', `/tasks/${task.id}/checklist`, { text: 'A rather long checklist item that has to wrap on a phone' });
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('list', { name: 'Activity' }).getByText(/A rather long checklist item/).waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await keepScreenshot(page, 'first-hour-activity-375px-dark');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('drag announcements name the task by key and title, never by id', async () => {
    const { context, page, problems, project } = await signedIn('Dora', 'DRAG');
    const { Status } = await propsOf(context, project.id);
    const { task } = await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title: 'Move me', values: { [Status.id]: option(Status, 'To do') } });
    await page.goto(`/p/${project.id}`);
    const card = page.locator('.card').filter({ hasText: 'Move me' });
    await card.waitFor();
    // Every line the live region says, in order (it replaces its text line by line).
    await page.evaluate(`(() => {
      const said = (window.said = []);
      const region = document.querySelector('[id^="DndLiveRegion"]');
      new MutationObserver(() => said.push(region.textContent || '')).observe(region, { childList: true, characterData: true, subtree: true });
    })()`);
    const said = () => page.evaluate<string[]>('window.said');
    const from = (await card.boundingBox())!;
    const to = (await column(page, 'In progress').boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2, { steps: 3 });
    await until(said, (lines) => expect(lines).toContain(`Picked up ${task.key} Move me.`));
    await page.mouse.move(to.x + to.width / 2, to.y + 60, { steps: 10 });
    await until(said, (lines) => expect(lines).toContain(`${task.key} Move me is over the column In progress.`));
    await page.mouse.up();
    await until(said, (lines) => expect(lines).toContain(`${task.key} Move me was dropped on the column In progress.`));
    expect((await said()).join(' ')).not.toContain(task.id);
    await until(() => board(context, project.id), (b) => expect(b.tasks[0].values[Status.id]).toBe(option(Status, 'In progress')));
    expect(problems).toEqual([]);
    await context.close();
  });
});
