import type { BrowserContext, Page } from 'playwright-core';
import { apiIn, describeBrowser, registerIn, seriousViolations, startHarness, until, watchPage, type BrowserHarness } from './support/page';

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

  it('properties, options and views: reorder, release notes and dates, a when rule of several options, Type defaults', async () => {
    const { context, page, problems, project } = await signedIn('Pat', 'PROP');
    const call = (method: string, path: string, data?: unknown) => apiIn(context, h.origin, method, path, data);
    const type = (await call('POST', `/projects/${project.id}/properties`, { name: 'Type', type: 'select', options: ['Bug', 'Feature', 'Chore'] })).property;
    const prio = (await call('POST', `/projects/${project.id}/properties`, { name: 'Priority', type: 'select', options: ['Low', 'High'] })).property;
    const release = (await call('POST', `/projects/${project.id}/properties`, { name: 'Release', type: 'select', options: ['v1'] })).property;
    await call('PATCH', `/properties/${release.id}`, { dated: true });
    const second = (await call('POST', `/projects/${project.id}/views`, { name: 'Second', kind: 'list' })).view;
    const opt = (p: any, n: string) => p.options.find((o: any) => o.name === n).id;
    const prop = async (id: string) => (await board(context, project.id)).properties.find((p: any) => p.id === id);

    await page.goto(`/p/${project.id}/settings`);
    const props = section(page, 'Properties');
    // Priority moves above Type; High above Low.
    await props.getByRole('button', { name: 'Move Priority up', exact: true }).click();
    await until(() => board(context, project.id), (b) => expect(b.properties.map((p: any) => p.name)).toEqual(['Status', 'Priority', 'Type', 'Release']));
    await props.getByRole('button', { name: 'Move option High up' }).click();
    await until(() => prop(prio.id), (p) => expect(p.options.map((o: any) => o.name)).toEqual(['High', 'Low']));
    await props.getByRole('button', { name: 'Move option Bug down' }).click();
    await until(() => prop(type.id), (p) => expect(p.options.map((o: any) => o.name)).toEqual(['Feature', 'Bug', 'Chore']));
    // A release's dates and its markdown note.
    await props.getByLabel('Start of v1').fill('2026-12-01');
    await until(() => prop(release.id), (p) => expect(p.options[0].startsOn).toBe('2026-12-01'));
    await props.getByLabel('Target of v1').fill('2026-12-24');
    await until(() => prop(release.id), (p) => expect(p.options[0].targetOn).toBe('2026-12-24'));
    await props.getByRole('button', { name: 'Add note of v1' }).click();
    await props.getByLabel('Note of v1 (markdown)').fill('**Gifts** for everyone');
    await props.getByRole('button', { name: 'Save note' }).click();
    await until(() => prop(release.id), (p) => expect(p.options[0].note).toBe('**Gifts** for everyone'));
    await props.getByRole('button', { name: 'Edit note of v1' }).waitFor();
    // Priority shows when Type is Bug or Chore.
    await props.getByLabel('Show Priority').selectOption({ label: 'when Type is one of…' });
    const rule = props.getByRole('group', { name: 'Priority shows when Type is' });
    await rule.getByLabel('Bug', { exact: true }).check();
    await until(() => prop(prio.id), (p) => expect(p.config.when).toEqual({ propertyId: type.id, optionIds: [opt(type, 'Bug')] }));
    await rule.getByLabel('Chore', { exact: true }).check();
    await until(() => prop(prio.id), (p) => expect(p.config.when).toEqual({ propertyId: type.id, optionIds: [opt(type, 'Bug'), opt(type, 'Chore')] }));
    // Type defaults: a Bug is High unless the create says otherwise.
    await props.getByText('Defaults of Priority by Type').click();
    await props.getByLabel('Default of Priority for Bug').selectOption({ label: 'High' });
    await until(() => prop(prio.id), (p) => expect(p.config.defaults).toEqual({ [opt(type, 'Bug')]: opt(prio, 'High') }));
    const made = (await call('POST', `/projects/${project.id}/tasks`, { title: 'Crash', values: { [type.id]: opt(type, 'Bug') } })).task;
    expect(made.values[prio.id]).toBe(opt(prio, 'High'));
    expect(await seriousViolations(page)).toEqual([]);
    // A view moves left of the main one.
    await page.goto(`/p/${project.id}?view=${second.id}`);
    await page.getByRole('button', { name: 'View settings' }).click();
    await page.getByRole('button', { name: 'Move view Second left' }).click();
    await until(() => board(context, project.id), (b) => expect(b.views.map((v: any) => v.name)[0]).toBe('Second'));
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
    const read = async () => (await board(context, project.id)).members.find((m: any) => m.id === agent.id);
    expect(await read()).toMatchObject({ name: 'Robo Two', color: '#6d5bd0', emoji: '🤖' });
    // Back to initials.
    await agents.getByRole('button', { name: 'Edit Robo Two' }).click();
    await agents.getByLabel('Agent face (one emoji, empty for initials)').fill('');
    await agents.getByRole('button', { name: 'Save agent' }).click();
    await until(read, (m) => expect(m.emoji).toBeNull());
    expect(problems).toEqual([]);
    await context.close();
  });
});
