import { TestOpenIdProvider } from '../support/oidc-provider';
import { describeBrowser, seriousViolations, startHarness, watchPage, type BrowserHarness } from './support/page';

// Single sign-on on the page (extensions.md § 3.2): the sign-in screen offers the provider's
// button (its label from GET /api/auth/config), which leads to the provider and back signed in;
// a refusal comes back as `/?signin_error=<sentence>` and is shown.
jest.setTimeout(120_000);

describeBrowser('board page: single sign-on', () => {
  let h: BrowserHarness;
  let plain: BrowserHarness;
  let provider: TestOpenIdProvider;
  beforeAll(async () => {
    provider = await TestOpenIdProvider.start();
    h = await startHarness(provider.env('Sign in with Example ID'));
    provider.serve([`${h.origin}/api/auth/oidc/callback`]);
    plain = await startHarness();
  }, 300_000);
  afterAll(async () => {
    await h?.close();
    await plain?.close();
    await provider?.close();
  });

  /** At the provider's own pages: its sign-in form, then its consent. */
  async function atProvider(page: import('playwright-core').Page, login: string): Promise<void> {
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  it('shows the button, which leads to the provider and back signed in', async () => {
    const context = await h.newContext();
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.goto('/');
    const button = page.getByRole('link', { name: 'Sign in with Example ID' });
    await button.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const login = provider.account({ email: `ada-${Date.now()}@example.com`, email_verified: true, name: 'Ada Lovelace' });
    await button.click();
    await atProvider(page, login);
    await page.getByRole('link', { name: 'Your account: Ada Lovelace' }).waitFor();
    expect(new URL(page.url()).origin).toBe(h.origin);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a refusal the way back brings, once', async () => {
    const context = await h.newContext();
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('link', { name: 'Sign in with Example ID' }).click();
    await atProvider(page, provider.account({ email: `eve-${Date.now()}@example.com`, email_verified: false }));
    await page.getByRole('alert').filter({ hasText: 'The sign-in provider has not verified your email address. Verify it there, then try again.' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await context.close();
  });

  it('shows no button on a board without a provider', async () => {
    const context = await plain.newContext();
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The options have been read once the button would be there.
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('link', { name: /sign/i }).count()).toBe(0);
    await context.close();
  });
});
