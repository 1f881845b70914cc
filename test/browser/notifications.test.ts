import { agentIn, apiIn, describeBrowser, keepScreenshot, registerIn, seriousViolations, startHarness, until, watchPage, type BrowserHarness } from './support/page';

// extensions.md § 2 on the page: the bell's unread count live from the personal stream, the panel
// that answers an agent's question, mark read, and the mail setting in the profile.
jest.setTimeout(120_000);

describeBrowser('notifications on the page', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startHarness();
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });

  it('an agent asks: the bell counts it without a reload, the panel answers it, and the agent reads the answer', async () => {
    const context = await h.newContext();
    await registerIn(context, h.origin, 'Ada');
    const page = await context.newPage();
    const problems = watchPage(page);
    const { project } = await apiIn(context, h.origin, 'POST', '/projects', { name: 'Bells', key: 'BEL' });
    const { task } = await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title: 'Pick a branch' });
    const robo = await agentIn(h, context, project.id, 'Robo');
    await page.goto('/');
    const bell = page.getByRole('button', { name: /^Notifications, \d+ unread$/ });
    await bell.waitFor();
    expect(await bell.getAttribute('aria-label')).toBe('Notifications, 0 unread');

    const claimed = await robo('POST', `/tasks/${task.id}/run`, { goal: 'Ship the parser' });
    const runId = claimed.body.run.id as string;
    expect((await robo('PATCH', `/runs/${runId}`, { status: 'waiting', question: { text: 'Which branch?', options: ['main', 'develop'] } })).status).toBe(200);
    // The personal stream rings: the count changes with no reload.
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();

    await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await panel.getByText('Which branch?').first().waitFor();
    await keepScreenshot(page, 'notifications-panel');
    expect(await seriousViolations(page)).toEqual([]);
    await panel.getByRole('button', { name: 'develop' }).click();
    await until(() => robo('GET', `/runs/${runId}`), (r) => expect(r.body.run.question.answer).toMatchObject({ text: 'develop' }));
    // The agent's next report reads the answer.
    const beat = await robo('PATCH', `/runs/${runId}`, { beat: true });
    expect(beat.body.control).toBe('resume');
    const next = await robo('PATCH', `/runs/${runId}`, { status: 'running', step: 'Rebasing on develop' });
    expect(next.body.run.question.answer).toMatchObject({ text: 'develop', choices: ['develop'], by: { name: 'Ada' } });

    await panel.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByRole('button', { name: 'Notifications, 0 unread' }).waitFor();

    // The item opens the task (the panel is still open).
    await page.getByRole('dialog', { name: 'Notifications' }).getByRole('button', { name: /Robo asks BEL-1/ }).click();
    await until(() => page.url(), (url) => expect(url).toContain(`/p/${project.id}?task=${task.id}`));
    await page.getByRole('dialog').getByText('Pick a branch').first().waitFor();
    await robo.close();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('turns mail notifications off and on in the profile', async () => {
    const context = await h.newContext();
    await registerIn(context, h.origin, 'Mia');
    const page = await context.newPage();
    await page.goto('/account');
    const box = page.getByRole('checkbox', { name: 'Mail me when an agent asks me or someone mentions me' });
    await box.waitFor();
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await until(() => apiIn<{ user: { mailNotifications: boolean } }>(context, h.origin, 'GET', '/auth/me'), (a) => expect(a.user.mailNotifications).toBe(false));
    await page.reload();
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
    await context.close();
  });
});
