/**
 * Only http(s) addresses become links. The service refuses any other scheme already, but the page
 * never trusts a scheme it did not check itself (a `javascript:` link would run in our origin).
 */
export function safeHref(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}
