/**
 * Where a webhook may ring: the address rules of the contract (interface.md › Webhooks).
 *
 * A URL must be http or https and carry no name or password. Its host must not be loopback,
 * "this network", private, link-local, carrier-grade NAT, multicast, reserved or broadcast, in
 * any spelling of the address (decimal, octal, hex and short IPv4; IPv4 inside IPv6 as mapped,
 * compatible, NAT64 or 6to4), nor `localhost` or a name under it. `SERVICE_WEBHOOK_ALLOW` lifts
 * the address rule for a host or CIDR it names (matching the URL's host or the address the name
 * resolves to); it never lifts the name-and-password rule.
 *
 * Pure: no DNS and no network here. The sender resolves the name each time and hands every
 * address it got to `checkAddress`, then connects to that same address.
 */
import { fail } from '@board/kernel';

export const WEBHOOK_URL_INVALID = 'A webhook needs an http or https URL.';
export const WEBHOOK_URL_USERINFO = 'A webhook address cannot carry a name and password.';
export const WEBHOOK_ADDRESS_PRIVATE = 'That address is private, so a webhook cannot reach it.';
export const WEBHOOK_URL_TOO_LONG = 'A webhook address is at most 2000 characters.';

/** The address refusals by code, with their sentences (the catalog maps the same; the sender records them). */
export const WEBHOOK_REFUSALS: Readonly<Record<string, string>> = {
  'webhook.url_invalid': WEBHOOK_URL_INVALID,
  'webhook.url_userinfo': WEBHOOK_URL_USERINFO,
  'webhook.address_private': WEBHOOK_ADDRESS_PRIVATE,
  'webhook.url_too_long': WEBHOOK_URL_TOO_LONG,
};

/** Longest webhook URL, as sent and as stored (decisions.md › Security › Lengths). */
export const WEBHOOK_URL_MAX = 2000;

export type AddressClass = 'public' | 'refused';

/** An IP address as its bytes: 4 for IPv4, 16 for IPv6. */
type Bytes = number[];

// ---------------------------------------------------------------------------------------------
// URL

/**
 * Parses a webhook URL, refusing (`webhook.url_*`) anything but an http(s) URL without userinfo,
 * and one over WEBHOOK_URL_MAX characters as sent or once normalised (percent-encoding can make
 * it longer).
 */
export function parseWebhookUrl(raw: unknown): URL {
  if (typeof raw !== 'string' || raw.trim() === '') return fail('webhook.url_invalid');
  if (raw.trim().length > WEBHOOK_URL_MAX) return fail('webhook.url_too_long');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return fail('webhook.url_invalid');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    return fail('webhook.url_invalid');
  }
  if (url.username !== '' || url.password !== '') return fail('webhook.url_userinfo');
  if (url.href.length > WEBHOOK_URL_MAX) return fail('webhook.url_too_long');
  return url;
}

// ---------------------------------------------------------------------------------------------
// Address parsing

/** Strict dotted-decimal IPv4 (`a.b.c.d`, no leading zeros): the form resolvers and Node give. */
function parseIPv4Strict(text: string): Bytes | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes: Bytes = [];
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    bytes.push(n);
  }
  return bytes;
}

/**
 * IPv4 the way the WHATWG URL parser reads a host: one to four parts, each decimal, octal
 * (leading 0) or hex (0x); the last part fills the remaining bytes (`127.1`, `2130706433`).
 * Null when the text is not such an address (then it is a name).
 */
function parseIPv4Loose(text: string): Bytes | null {
  let parts = text.split('.');
  if (parts[parts.length - 1] === '' && parts.length > 1) parts = parts.slice(0, -1);
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers: bigint[] = [];
  for (const part of parts) {
    if (/^0[xX][0-9a-fA-F]*$/.test(part)) numbers.push(BigInt(`0x${part.slice(2) || '0'}`));
    else if (/^0[0-7]+$/.test(part)) numbers.push(BigInt(`0o${part.slice(1)}`));
    else if (/^(0|[1-9][0-9]*)$/.test(part)) numbers.push(BigInt(part));
    else return null;
  }
  const last = numbers[numbers.length - 1];
  for (const n of numbers.slice(0, -1)) if (n > 255n) return null;
  if (last >= 256n ** BigInt(5 - numbers.length)) return null;
  let value = last;
  numbers.slice(0, -1).forEach((n, i) => {
    value += n << BigInt(8 * (3 - i));
  });
  return [Number((value >> 24n) & 255n), Number((value >> 16n) & 255n), Number((value >> 8n) & 255n), Number(value & 255n)];
}

/** IPv6 text (no brackets; a `%zone` is dropped), with `::` and a dotted IPv4 tail allowed. */
function parseIPv6(text: string): Bytes | null {
  const zone = text.indexOf('%');
  const body = zone === -1 ? text : text.slice(0, zone);
  if (body === '' || !/^[0-9a-fA-F:.]+$/.test(body)) return null;
  const halves = body.split('::');
  if (halves.length > 2) return null;

  const groups = (half: string, allowTail: boolean): number[] | null => {
    if (half === '') return [];
    const pieces = half.split(':');
    const out: number[] = [];
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (piece.includes('.')) {
        if (!allowTail || i !== pieces.length - 1) return null;
        const v4 = parseIPv4Strict(piece);
        if (!v4) return null;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return null;
      out.push(parseInt(piece, 16));
    }
    return out;
  };

  let words: number[];
  if (halves.length === 2) {
    const head = groups(halves[0], false);
    const tail = groups(halves[1], true);
    if (!head || !tail || head.length + tail.length > 7) return null;
    words = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    const all = groups(body, true);
    if (!all || all.length !== 8) return null;
    words = all;
  }
  return words.flatMap((w) => [w >> 8, w & 255]);
}

/** A canonical address (dotted IPv4, or IPv6 in the compressed form the URL parser writes). */
function format(bytes: Bytes): string {
  if (bytes.length === 4) return bytes.join('.');
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push((bytes[i] << 8) | bytes[i + 1]);
  // The first longest run of two or more zero words becomes "::".
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(':');
  if (bestStart === -1) return hex(words);
  return `${hex(words.slice(0, bestStart))}::${hex(words.slice(bestStart + bestLength))}`;
}

const unbracket = (host: string): string => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** Bytes of a literal address: strict IPv4, IPv6 (bracketed or not). Null for anything else. */
function parseIp(text: string): Bytes | null {
  const bare = unbracket(text.trim());
  if (bare.includes(':')) return parseIPv6(bare);
  return parseIPv4Strict(bare);
}

/** A URL host that is itself an address, in any spelling the URL parser accepts, as its bytes. */
function hostBytes(host: string): Bytes | null {
  const text = host.trim();
  if (text.startsWith('[') || text.includes(':')) return parseIPv6(unbracket(text));
  return parseIPv4Loose(text);
}

/**
 * The canonical IP for a URL host that IS an address (`127.0.0.1`, `2130706433`, `0177.0.0.1`,
 * `0x7f.1`, `127.1`, `[::1]`, `[::ffff:127.0.0.1]`), or null when the host is a name.
 */
export function hostAsAddress(host: string): string | null {
  const bytes = hostBytes(host);
  return bytes ? format(bytes) : null;
}

// ---------------------------------------------------------------------------------------------
// Classification

function classifyV4([a, b]: Bytes): AddressClass {
  if (a === 0) return 'refused'; // "this network", 0.0.0.0 included
  if (a === 10) return 'refused'; // private
  if (a === 127) return 'refused'; // loopback
  if (a === 169 && b === 254) return 'refused'; // link-local
  if (a === 172 && b >= 16 && b <= 31) return 'refused'; // private
  if (a === 192 && b === 168) return 'refused'; // private
  if (a === 100 && b >= 64 && b <= 127) return 'refused'; // carrier-grade NAT
  if (a >= 224) return 'refused'; // multicast 224/4, reserved 240/4, broadcast
  return 'public';
}

const zeros = (bytes: Bytes, from: number, to: number): boolean => bytes.slice(from, to).every((x) => x === 0);

function classifyV6(bytes: Bytes): AddressClass {
  // :: (unspecified), ::1 (loopback) and IPv4-compatible ::a.b.c.d: the first 12 bytes are zero.
  if (zeros(bytes, 0, 12)) {
    if (zeros(bytes, 12, 16) || (zeros(bytes, 12, 15) && bytes[15] === 1)) return 'refused';
    return classifyV4(bytes.slice(12));
  }
  // IPv4-mapped ::ffff:a.b.c.d
  if (zeros(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return classifyV4(bytes.slice(12));
  // IPv4-translated ::ffff:0:a.b.c.d
  if (zeros(bytes, 0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(bytes, 10, 12)) return classifyV4(bytes.slice(12));
  // NAT64 well-known prefix 64:ff9b::/96
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) {
    if (zeros(bytes, 4, 12)) return classifyV4(bytes.slice(12));
    // 64:ff9b:1::/48 is for local NAT64 use: private by design.
    if (bytes[4] === 0x00 && bytes[5] === 0x01) return 'refused';
  }
  // 6to4 2002:aabb:ccdd::/48 carries a.b.c.d
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return classifyV4(bytes.slice(2, 6));
  if ((bytes[0] & 0xfe) === 0xfc) return 'refused'; // unique local fc00::/7
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0x80) return 'refused'; // link-local fe80::/10
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0xc0) return 'refused'; // old site-local fec0::/10
  if (bytes[0] === 0xff) return 'refused'; // multicast ff00::/8
  return 'public';
}

/**
 * Whether an address (as a resolver gives it: dotted IPv4 or IPv6 text) may be reached.
 * Anything that is not a well-formed address is refused.
 */
export function classifyAddress(ip: string): AddressClass {
  const bytes = parseIp(ip);
  if (!bytes) return 'refused';
  return bytes.length === 4 ? classifyV4(bytes) : classifyV6(bytes);
}

// ---------------------------------------------------------------------------------------------
// Allow list

/** The address and, for an IPv4-mapped IPv6 address, the IPv4 inside it. */
function candidates(bytes: Bytes | null): Bytes[] {
  if (!bytes) return [];
  if (bytes.length === 16 && zeros(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return [bytes, bytes.slice(12)];
  return [bytes];
}

function inNetwork(address: Bytes, network: Bytes, prefix: number): boolean {
  if (address.length !== network.length) return false;
  for (let bit = 0; bit < prefix; bit++) {
    const mask = 0x80 >> bit % 8;
    if ((address[bit >> 3] & mask) !== (network[bit >> 3] & mask)) return false;
  }
  return true;
}

const normaliseName = (name: string): string => {
  const lower = name.trim().toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
};

/**
 * Whether `SERVICE_WEBHOOK_ALLOW` lets a webhook reach this host / address. An entry is a CIDR
 * (`10.0.0.0/8`, `::1/128`), a bare IP (`127.0.0.1`, `::1`, `[::1]`) or a hostname (exact,
 * case-insensitive). Entries match the URL's host or the address it resolved to.
 */
export function isAllowed(host: string, address: string | null, allow: readonly string[]): boolean {
  const targets = [...candidates(hostBytes(host)), ...candidates(address === null ? null : parseIp(address))];
  const name = normaliseName(unbracket(host));
  for (const raw of allow) {
    const entry = raw.trim();
    if (entry === '') continue;
    const slash = entry.indexOf('/');
    if (slash !== -1) {
      const network = parseIp(entry.slice(0, slash));
      const prefixText = entry.slice(slash + 1);
      if (!network || !/^[0-9]{1,3}$/.test(prefixText)) continue;
      const prefix = Number(prefixText);
      if (prefix > network.length * 8) continue;
      if (targets.some((t) => inNetwork(t, network, prefix))) return true;
      continue;
    }
    const ip = parseIp(entry);
    if (ip) {
      if (targets.some((t) => inNetwork(t, ip, ip.length * 8))) return true;
      continue;
    }
    if (name !== '' && normaliseName(entry) === name) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// The check

/** `localhost` and every name under it, trailing dots or not: loopback by definition (RFC 6761), resolvable or not. */
const isLocalhostName = (host: string): boolean => {
  const name = unbracket(host).trim().toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
};

/**
 * The check a host name needs before any lookup: `localhost` or a name under it is a loopback
 * address, refused unless the allow list names the host or a loopback address. (`foo.localhost`
 * need not resolve to be loopback: checking only resolved addresses let an unresolvable one be
 * saved.)
 */
export function checkHostName(host: string, allow: readonly string[]): void {
  if (!isLocalhostName(host)) return;
  if (isAllowed(host, '127.0.0.1', allow) || isAllowed(host, '::1', allow)) return;
  fail('webhook.address_private');
}

/**
 * Refuses (`webhook.address_private`, `That address is private, so a webhook cannot reach it.`) when the
 * host is `localhost` (or under it) or the address is refused, unless the allow list names the
 * host or the address. Call it for every address a name resolves to, before connecting.
 */
export function checkAddress(host: string, address: string, allow: readonly string[]): void {
  const refused = isLocalhostName(host) || classifyAddress(address) === 'refused';
  if (refused && !isAllowed(host, address, allow)) fail('webhook.address_private');
}
