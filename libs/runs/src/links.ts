import { fail } from '@board/kernel';

export const LINK_KINDS = ['pr', 'branch', 'commit', 'preview', 'session', 'doc', 'other'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];
export const LINKS_KEPT = 20;
export const LINK_URL_MAX = 2000;
export const LINK_TITLE_MAX = 200;

export interface LinkSent {
  url: string;
  title: string | null;
  kind: LinkKind;
}

export interface RunLink extends LinkSent {
  at: string;
}

function readUrl(value: unknown): string {
  if (typeof value !== 'string') fail('run.link_invalid');
  const url = value.trim();
  if (url.length === 0 || url.length > LINK_URL_MAX) fail('run.link_invalid');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('run.link_invalid');
  }
  // Only http(s): a javascript: or data: address would run or render on the page that shows it.
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) fail('run.link_invalid');
  return url;
}

/** `links: [{ url, title?, kind? }]` of a report: at most 20 at once. */
export function readLinks(value: unknown): LinkSent[] {
  if (!Array.isArray(value)) fail('run.link_invalid');
  const list = value as unknown[];
  if (list.length > LINKS_KEPT) fail('run.links_too_many');
  return list.map((item) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) fail('run.link_invalid');
    const link = item as Record<string, unknown>;
    const url = readUrl(link.url);
    let title: string | null = null;
    if (link.title !== undefined && link.title !== null) {
      if (typeof link.title !== 'string' || [...link.title.trim()].length > LINK_TITLE_MAX) fail('run.link_title');
      title = link.title.trim() || null;
    }
    let kind: LinkKind = 'other';
    if (link.kind !== undefined && link.kind !== null) {
      if (typeof link.kind !== 'string' || !(LINK_KINDS as readonly string[]).includes(link.kind)) fail('run.link_kind');
      kind = link.kind as LinkKind;
    }
    return { url, title, kind };
  });
}

/**
 * The run's links after a report: new ones appended in the order first sent, a link whose url is
 * already kept replaces that one in place; more than 20 in all is refused (nothing changes).
 */
export function mergeLinks(kept: readonly RunLink[], sent: readonly LinkSent[], at: string): RunLink[] {
  const merged = [...kept];
  for (const link of sent) {
    const i = merged.findIndex((k) => k.url === link.url);
    if (i >= 0) merged[i] = { ...link, at };
    else merged.push({ ...link, at });
  }
  if (merged.length > LINKS_KEPT) fail('run.links_too_many');
  return merged;
}
