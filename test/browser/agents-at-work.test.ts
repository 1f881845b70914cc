import type { BrowserContext, Page } from 'playwright-core';
import { agentIn, apiIn, describeBrowser, type AgentApi, keepScreenshot, registerIn, seriousViolations, startHarness, until, watchPage, type BrowserHarness } from './support/page';

// extensions.md § 1, point 6: what the page shows of an agent's run (its question, links and
// usage), the Usage page and the daily budget, in Debian's Chromium against a real instance.
jest.setTimeout(120_000);

describeBrowser('agents at work on the page', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startHarness();
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });

  const card = (page: Page, key: string) => page.locator(`[data-task-key="${key}"]`);

  /** A person signed in, a project with tasks, and an agent `Robo` speaking with its own token. */
  async function setUp(key: string, titles: string[], size?: { width: number; height: number }) {
    const context = await h.newContext(size);
    const user = await registerIn(context, h.origin, 'Ada');
    const page = await context.newPage();
    const problems = watchPage(page);
    const { project } = await apiIn(context, h.origin, 'POST', '/projects', { name: `Agents ${key}`, key });
    const tasks: { id: string; key: string }[] = [];
    for (const title of titles) tasks.push((await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title })).task);
    const robo = await agentOf(context, project.id, 'Robo');
    return { context, page, problems, user, project, tasks, robo };
  }

  const agentOf = (context: BrowserContext, projectId: string, name: string): Promise<AgentApi> => agentIn(h, context, projectId, name);

  async function ask(robo: AgentApi, taskId: string, question: Record<string, unknown>): Promise<string> {
    const claimed = await robo('POST', `/tasks/${taskId}/run`, { goal: 'Ship the parser' });
    expect(claimed.status).toBe(201);
    const runId = claimed.body.run.id as string;
    const asked = await robo('PATCH', `/runs/${runId}`, { status: 'waiting', question });
    expect(asked.status).toBe(200);
    return runId;
  }

  it('shows a question on the card; a click on an option answers it and the agent reads resume', async () => {
    const { context, page, problems, project, tasks, robo } = await setUp('ASK', ['Pick a branch', 'Other work']);
    await page.goto(`/p/${project.id}`);
    await card(page, 'ASK-1').waitFor();
    const runId = await ask(robo, tasks[0].id, { text: 'Which branch?', options: ['main', 'develop'] });
    // The stream's change re-reads the board: the question appears without a reload.
    const strip = page.getByRole('group', { name: 'Robo asks: Which branch?' });
    await strip.getByText('Robo asks:').waitFor();
    await keepScreenshot(page, 'agents-card-question');
    expect(await seriousViolations(page)).toEqual([]);
    await strip.getByRole('button', { name: 'develop' }).click();
    await page.getByText('Ada answered').waitFor();
    // The click answered; it did not open the task panel (the card's own click).
    expect(await page.getByRole('dialog').count()).toBe(0);
    const beat = await robo('PATCH', `/runs/${runId}`, { beat: true });
    expect(beat.body.control).toBe('resume');
    const read = await robo('GET', `/runs/${runId}`);
    expect(read.body.run.question.answer).toMatchObject({ text: 'develop', choices: ['develop'], by: { name: 'Ada' } });
    // Once the agent works again the card drops the question; the panel keeps who answered what.
    await robo('PATCH', `/runs/${runId}`, { status: 'running', step: 'Rebasing on develop' });
    await card(page, 'ASK-1').getByText('Rebasing on develop').waitFor();
    await until(() => page.getByText('Ada answered').count(), (n) => expect(n).toBe(0));
    await card(page, 'ASK-1').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Robo asked:').waitFor();
    await dialog.locator('.answered').getByText('Ada').waitFor();
    expect(await dialog.locator('.answered q').textContent()).toBe('develop');
    await robo.close();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('answers a multiple-choice question with two checkboxes in the task panel, and a free one in the text box', async () => {
    const { context, page, problems, project, tasks, robo } = await setUp('MUL', ['Choose targets', 'Explain']);
    const many = await ask(robo, tasks[0].id, { text: 'Which targets?', options: ['linux', 'mac', 'windows', 'bsd'], multiple: true });
    await page.goto(`/p/${project.id}`);
    // Several choices are too many for the card: it offers the panel.
    const strip = page.getByRole('group', { name: 'Robo asks: Which targets?' });
    await strip.getByRole('button', { name: 'Answer…' }).click();
    const dialog = page.getByRole('dialog');
    const question = dialog.getByRole('group', { name: /Robo asks: Which targets\?/ });
    await question.getByLabel('windows').check();
    await question.getByLabel('linux').check();
    await question.getByRole('button', { name: 'Send' }).click();
    await dialog.locator('.answered').getByText('Ada').waitFor();
    // The choices in the order offered, as the service keeps them.
    expect(await dialog.locator('.answered q').textContent()).toBe('linux, windows');
    expect((await robo('GET', `/runs/${many}`)).body.run.question.answer.choices).toEqual(['linux', 'windows']);
    expect((await robo('PATCH', `/runs/${many}`, { beat: true })).body.control).toBe('resume');
    await dialog.getByRole('button', { name: 'Close task' }).click();

    const free = await ask(robo, tasks[1].id, { text: 'Why does the login fail?' });
    await page.getByRole('group', { name: 'Robo asks: Why does the login fail?' }).getByRole('button', { name: 'Answer…' }).click();
    const box = page.getByRole('dialog').getByLabel('Your answer');
    // Only spaces: the service's refusal is shown as the page shows errors.
    await box.fill('   ');
    await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
    await page.getByRole('dialog').getByRole('alert').filter({ hasText: 'Answer cannot be empty.' }).waitFor();
    await box.fill('The cookie is set for the wrong domain.');
    await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
    await page.getByRole('dialog').locator('.answered').getByText('Ada').waitFor();
    expect(await page.getByRole('dialog').getByRole('alert').count()).toBe(0);
    expect((await robo('GET', `/runs/${free}`)).body.run.question.answer).toMatchObject({ text: 'The cookie is set for the wrong domain.', choices: null });
    await robo.close();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the run’s links and usage in the run section and on past runs; links open in a new tab', async () => {
    const { context, page, problems, project, tasks, robo } = await setUp('LNK', ['Fix the parser']);
    const runId = await ask(robo, tasks[0].id, { text: 'Merge now or after the review?', options: ['Now', 'After the review'] });
    const reported = await robo('PATCH', `/runs/${runId}`, {
      step: 'Waiting for a decision',
      links: [{ url: 'https://git.example.com/web/pull/42', title: 'Fix the parser', kind: 'pr' }, { url: 'https://preview.example.com/42', kind: 'preview' }],
      usage: { inputTokens: 12400, outputTokens: 3100, costMicros: 125_000, model: 'big-model' },
    });
    expect(reported.status).toBe(200);
    await page.goto(`/p/${project.id}?task=${tasks[0].id}`);
    const dialog = page.getByRole('dialog');
    const links = dialog.getByRole('list', { name: 'Run links' });
    const pr = links.getByRole('link', { name: 'Fix the parser' });
    await pr.waitFor();
    expect(await pr.getAttribute('href')).toBe('https://git.example.com/web/pull/42');
    expect(await pr.getAttribute('target')).toBe('_blank');
    expect(await pr.getAttribute('rel')).toBe('noopener noreferrer');
    // No title: the address stands for it.
    expect(await links.getByRole('link', { name: 'https://preview.example.com/42' }).getAttribute('rel')).toBe('noopener noreferrer');
    expect(await links.locator('.kind-label').allTextContents()).toEqual(['PR', 'preview']);
    const usage = dialog.locator('.run-box .run .run-usage');
    expect(await usage.textContent()).toBe('12,400 tokens in · 3,100 out · cost 0.125 · big-model');
    await dialog.getByText('Robo asks:').waitFor();
    await keepScreenshot(page, 'agents-run-section');
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 375, height: 740 });
    await dialog.locator('.run-box').scrollIntoViewIfNeeded();
    await keepScreenshot(page, 'agents-run-section-dark-375');
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
    // The service only keeps http(s) links; a task read that carried another scheme still gets no link.
    await page.route('**/api/tasks/*', async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      body.task?.run?.links.push({ url: 'javascript:alert(1)', title: 'Sneaky', kind: 'other', at: new Date().toISOString() });
      await route.fulfill({ response: res, json: body });
    });
    await page.reload();
    await links.getByText('Sneaky').waitFor();
    expect(await links.getByRole('link', { name: 'Sneaky' }).count()).toBe(0);
    expect(await links.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await links.locator('.kind-label').allTextContents()).toEqual(['PR', 'preview', 'link']);
    await page.unroute('**/api/tasks/*');
    // The run ends: its row under Past runs keeps what it produced and cost.
    expect((await robo('PATCH', `/runs/${runId}`, { status: 'done' })).status).toBe(200);
    await dialog.getByText('No run open.').waitFor();
    await dialog.getByText(/Past runs \(1\)/).click();
    const past = dialog.locator('.past-runs li').first();
    expect(await past.getByRole('link', { name: 'Fix the parser' }).getAttribute('rel')).toBe('noopener noreferrer');
    expect(await past.locator('.run-usage').textContent()).toBe('12,400 tokens in · 3,100 out · cost 0.125 · big-model');
    await robo.close();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('draws the Usage page: totals, a row per agent and a bar chart; the budget is set in settings and its refusal shown', async () => {
    const { context, page, problems, project, tasks, robo } = await setUp('USE', ['One', 'Two']);
    const lint = await agentOf(context, project.id, 'Linter');
    const a = (await robo('POST', `/tasks/${tasks[0].id}/run`, {})).body.run.id;
    const b = (await lint('POST', `/tasks/${tasks[1].id}/run`, {})).body.run.id;
    expect((await robo('PATCH', `/runs/${a}`, { usage: { inputTokens: 20000, outputTokens: 5000, costMicros: 1_500_000, model: 'big-model' } })).status).toBe(200);
    expect((await lint('PATCH', `/runs/${b}`, { usage: { inputTokens: 800, outputTokens: 100, costMicros: 2_500 } })).status).toBe(200);

    await page.goto(`/p/${project.id}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Usage' }).click();
    const table = page.locator('table#usage-agents');
    await table.waitFor();
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    // Highest cost first.
    const row = async (i: number) => [await rows.nth(i).locator('th .usage-agent-name').innerText(), ...(await rows.nth(i).locator('td').allInnerTexts())].map((x) => x.trim());
    expect(await row(0)).toEqual(['Robo', '20,000', '5,000', '1.50', '1']);
    expect(await row(1)).toEqual(['Linter', '800', '100', '0.0025', '1']);
    const chart = page.getByRole('img', { name: /^Cost per day by agent/ });
    await chart.waitFor();
    expect(await chart.locator('rect').count()).toBe(2);
    expect(await page.locator('.usage-totals').innerText()).toContain('1.5025');
    await page.getByText('No daily budget.').waitFor();
    await page.getByLabel('Range').selectOption('7');
    await until(() => page.locator('table#usage-agents caption').textContent(), (t) => expect(t).toMatch(/^By agent, \d{4}-\d\d-\d\d to/));
    expect(await seriousViolations(page)).toEqual([]);

    // The budget: 0 is refused with the decided sentence; 2.5 units are 2,500,000 micros.
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Settings' }).click();
    const budget = page.getByLabel('Daily budget for agents');
    await budget.fill('0');
    await page.getByRole('button', { name: 'Save budget' }).click();
    await page.getByRole('alert').filter({ hasText: 'The daily budget is a whole number above zero, or null.' }).waitFor();
    expect((await apiIn(context, h.origin, 'GET', '/projects')).projects.find((p) => p.id === project.id)?.dailyBudgetMicros).toBeNull();
    await budget.fill('2.5');
    await page.getByRole('button', { name: 'Save budget' }).click();
    await until(async () => (await apiIn(context, h.origin, 'GET', '/projects')).projects.find((p) => p.id === project.id)?.dailyBudgetMicros, (v) => expect(v).toBe(2_500_000));
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Usage' }).click();
    await page.getByText('of the daily budget 2.50 used (60%)').waitFor();
    await page.getByLabel('Range').selectOption('30');
    await keepScreenshot(page, 'agents-usage');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 375, height: 740 });
    // The wide table scrolls in its own box; the page itself never scrolls sideways.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
    await keepScreenshot(page, 'agents-usage-dark-375');
    expect(await seriousViolations(page)).toEqual([]);
    // An empty field takes the budget away.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Settings' }).click();
    await expect(budget.inputValue()).resolves.toBe('2.5');
    await budget.fill('');
    await page.getByRole('button', { name: 'Save budget' }).click();
    await until(async () => (await apiIn(context, h.origin, 'GET', '/projects')).projects.find((p) => p.id === project.id)?.dailyBudgetMicros, (v) => expect(v).toBeNull());
    await robo.close();
    await lint.close();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the card with a question at 375 px in the dark scheme', async () => {
    const { context, page, problems, project, tasks, robo } = await setUp('SML', ['Pick a branch']);
    await ask(robo, tasks[0].id, { text: 'Keep the old redirect for API clients?', options: ['Yes', 'No', 'Only for v1'] });
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`/p/${project.id}`);
    const strip = page.getByRole('group', { name: 'Robo asks: Keep the old redirect for API clients?' });
    await strip.getByRole('button', { name: 'Only for v1' }).waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await keepScreenshot(page, 'agents-card-question-dark-375');
    expect(await seriousViolations(page)).toEqual([]);
    await robo.close();
    expect(problems).toEqual([]);
    await context.close();
  });
});
