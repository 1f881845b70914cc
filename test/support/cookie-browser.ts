import { recordAnswer } from './contract-recorder';

/**
 * Enough of a browser to walk a sign-in through redirects and HTML forms over real HTTP: cookies
 * kept per host and path (HttpOnly or not, as a browser keeps them), redirects followed one by one
 * so a test can stop at any of them, and a page's form sent as a browser would send it.
 */
interface Cookie {
  name: string;
  value: string;
  path: string;
}

export interface Page {
  url: URL;
  status: number;
  /** Where a redirect points, resolved against the page's address. */
  location: URL | null;
  text: string;
}

export class CookieBrowser {
  private readonly jar = new Map<string, Cookie[]>();

  /** One request; a redirect is answered, not followed. */
  async open(url: string | URL, form?: Record<string, string>): Promise<Page> {
    const target = new URL(url);
    const headers: Record<string, string> = {};
    const cookie = this.cookiesFor(target);
    if (cookie) headers.cookie = cookie;
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(target, { method: form ? 'POST' : 'GET', headers, body: form ? new URLSearchParams(form).toString() : undefined, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) this.keep(target, line);
    const location = res.headers.get('location');
    const text = await res.text();
    // The service's own single sign-on routes (not the provider's pages): for the contract check.
    if (target.pathname.startsWith('/api/auth/oidc')) {
      recordAnswer(form ? 'POST' : 'GET', target.pathname.replace(/^\/api/, '') + target.search, res.status, res.headers.get('content-type'), text ? text : undefined);
    }
    return { url: target, status: res.status, location: location ? new URL(location, target) : null, text };
  }

  /** Follows redirects from `url` until a page that is not one, or until `stop` says so of the next address (not opened then). */
  async follow(url: string | URL, stop: (next: URL) => boolean = () => false, form?: Record<string, string>): Promise<{ page: Page; stoppedAt: URL | null }> {
    let page = await this.open(url, form);
    for (let hops = 0; page.location && hops < 20; hops++) {
      if (stop(page.location)) return { page, stoppedAt: page.location };
      page = await this.open(page.location);
    }
    return { page, stoppedAt: null };
  }

  /** Sends the page's first form: its hidden fields, then `fields`, to its action (POST). */
  async submit(page: Page, fields: Record<string, string> = {}, stop?: (next: URL) => boolean): Promise<{ page: Page; stoppedAt: URL | null }> {
    const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(page.text);
    if (!form) throw new Error(`no form on ${page.url.href}: ${page.text.slice(0, 300)}`);
    const hidden = Object.fromEntries(
      [...form[2].matchAll(/<input[^>]*type="hidden"[^>]*>/gi)].map((input) => [/name="([^"]*)"/.exec(input[0])?.[1] ?? '', /value="([^"]*)"/.exec(input[0])?.[1] ?? '']),
    );
    return this.follow(new URL(decodeEntities(form[1]), page.url), stop, { ...hidden, ...fields });
  }

  /** The value of a cookie this browser holds for `url`, if any. */
  cookie(url: string | URL, name: string): string | undefined {
    const target = new URL(url);
    return this.matching(target).find((c) => c.name === name)?.value;
  }

  /** Sets a cookie as if a server had (a forged or foreign one). */
  plant(url: string | URL, name: string, value: string, path = '/'): void {
    this.keep(new URL(url), `${name}=${value}; Path=${path}`);
  }

  private cookiesFor(url: URL): string {
    return this.matching(url).map((c) => `${c.name}=${c.value}`).join('; ');
  }

  private matching(url: URL): Cookie[] {
    return (this.jar.get(url.host) ?? []).filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`));
  }

  private keep(url: URL, line: string): void {
    const [pair, ...attributes] = line.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const attr = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    // Without a Path, the request's directory (RFC 6265 § 5.1.4).
    const path = attr('path') || url.pathname.replace(/\/[^/]*$/, '') || '/';
    const expires = attr('expires');
    const gone = attr('max-age') === '0' || (expires !== undefined && Date.parse(expires) <= Date.now());
    const kept = (this.jar.get(url.host) ?? []).filter((c) => !(c.name === name && c.path === path));
    this.jar.set(url.host, gone ? kept : [...kept, { name, value, path }]);
  }
}

function decodeEntities(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x2F;/gi, '/').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}
