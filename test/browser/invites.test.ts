/**
 * Invites on the page (decisions.md › Fair use, extensions.md § 5): settings says an invite was
 * mailed, or shows the sign-up link to copy when no mail went out; the link opens the sign-up
 * with the invited email filled in, and signing up there joins the project.
 */
import { createServer } from 'node:net';
import { startMailCatcher, type MailCatcher } from '../support/smtp';
import { apiIn, describeBrowser, seriousViolations, startHarness, watchPage, type BrowserHarness } from './support/page';

jest.setTimeout(120_000);

/** A port free now, for an app whose SERVICE_URL (the links it makes, the origin it trusts) must name it. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describeBrowser('board page: invites say what happened', () => {
  let h: BrowserHarness;
  let catcher: MailCatcher;
  let serviceUrl: string;
  beforeAll(async () => {
    catcher = await startMailCatcher();
    const port = await freePort();
    serviceUrl = `http://127.0.0.1:${port}`;
    h = await startHarness({ SMTP_URL: catcher.url, MAIL_FROM: 'Board <board@example.test>', SERVICE_URL: serviceUrl }, { port });
  }, 300_000);
  afterAll(async () => {
    await h?.close();
    await catcher?.close();
  });

  it('shows "mailed", or the link to copy when the mail did not go out; the link opens sign-up with the email', async () => {
    const context = await h.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.origin });
    const owner = `olga-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await context.request.post(`${h.origin}/api/auth/register`, { data: { email: owner, name: 'Olga', password: 'correct horse' } });
    const { project } = await apiIn(context, h.origin, 'POST', '/projects', { name: 'Invites', key: 'INV' });
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.goto(`/p/${project.id}/settings`);
    const people = page.getByRole('region', { name: 'People' });

    // The relay takes it: "mailed".
    await people.getByLabel('Add by email').fill('mailed@example.com');
    await people.getByRole('button', { name: 'Add person' }).click();
    await people.getByRole('status').filter({ hasText: 'Invited mailed@example.com: mailed a sign-up link.' }).waitFor();
    expect(catcher.mails.map((m) => m.to)).toEqual([['mailed@example.com']]);
    expect(await people.getByRole('button', { name: 'Copy link' }).count()).toBe(0);

    // The relay refuses it: the link to hand over, copied with one click.
    catcher.refuse = true;
    const email = 'no.mail+x@example.com';
    const link = `${serviceUrl}/?invite=${encodeURIComponent(email)}`;
    await people.getByLabel('Add by email').fill(email);
    await people.getByRole('button', { name: 'Add person' }).click();
    const offer = people.getByRole('status').filter({ hasText: `Invited ${email}, but no mail went out.` });
    await offer.waitFor();
    expect(await offer.locator('code').textContent()).toBe(link);
    await offer.getByRole('button', { name: 'Copy link' }).click();
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(link);
    expect(await people.getByText('mailed a sign-up link').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);

    // The link opens the sign-up with the email; signing up there joins the project.
    const guest = await h.newContext();
    const signup = await guest.newPage();
    const guestProblems = watchPage(signup);
    await signup.goto(link);
    await signup.getByRole('heading', { name: 'Create an account' }).waitFor();
    expect(await signup.getByLabel('Email').inputValue()).toBe(email);
    await signup.getByLabel('Name').fill('Nomi');
    await signup.getByLabel('Password').fill('correct horse');
    await signup.getByRole('button', { name: 'Create account' }).click();
    await signup.getByText('Invites').first().waitFor();
    const mine = await apiIn(guest, h.origin, 'GET', '/projects');
    expect(mine.projects.map((p) => p.id)).toContain(project.id);
    expect(guestProblems).toEqual([]);
    await guest.close();
    await context.close();
  });
});
