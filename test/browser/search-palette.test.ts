import { apiIn, describeBrowser, keepScreenshot, registerIn, seriousViolations, startHarness, watchPage, type BrowserHarness } from './support/page';

// The header's search box and the Ctrl/⌘-K palette (extensions.md § 4) in Debian's Chromium.
jest.setTimeout(120_000);

describeBrowser('search palette in a real browser', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startHarness();
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });

  it('Ctrl-K, type, Enter: the task panel opens on its board', async () => {
    const context = await h.newContext();
    await registerIn(context, h.origin, 'Ada');
    const page = await context.newPage();
    const problems = watchPage(page);
    const { project } = await apiIn(context, h.origin, 'POST', '/projects', { name: 'Café website', key: 'CAFE' });
    const other = (await apiIn(context, h.origin, 'POST', '/projects', { name: 'Ops', key: 'OPS' })).project;
    await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title: 'Write the menu page' });
    const { task } = await apiIn(context, h.origin, 'POST', `/projects/${project.id}/tasks`, { title: 'Fix the Éclair photo', description: 'The photo is blurry on phones.' });

    await page.goto('/');
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Search tasks and projects' });
    const box = dialog.getByRole('combobox', { name: 'Search tasks and projects' });
    await box.waitFor();
    expect(await page.evaluate('document.activeElement && document.activeElement.getAttribute("role")')).toBe('combobox');
    await box.fill('eclair');
    const option = dialog.getByRole('option', { name: /CAFE-2 Fix the Éclair photo/ });
    await option.waitFor();
    expect(await option.getAttribute('aria-selected')).toBe('true');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await option.getAttribute('id'));
    await keepScreenshot(page, 'search-palette');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');

    // The palette is gone, the board is open and the task panel shows the task.
    await dialog.waitFor({ state: 'detached' });
    await page.waitForURL(`**/p/${project.id}?task=${task.id}`);
    const panel = page.getByRole('dialog');
    await panel.getByText(`Task ${task.key}`).waitFor();

    // Esc closes the panel; the palette finds projects by name and moves with the arrows.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await page.keyboard.press('Control+k');
    await box.fill('ops');
    await dialog.getByRole('option', { name: /OPS Ops project/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/p/${other.id}`);

    // Escape closes the palette without going anywhere.
    await page.keyboard.press('Control+k');
    await box.fill('menu');
    await dialog.getByRole('option', { name: /CAFE-1 Write the menu page/ }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/p/${other.id}`);

    // The header's box opens the palette with what was typed; a description match shows its snippet.
    await page.getByRole('searchbox', { name: /Search tasks and projects/ }).fill('blurry');
    await dialog.getByRole('option', { name: /CAFE-2 Fix the Éclair photo.*blurry on phones/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByText(`Task ${task.key}`).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
