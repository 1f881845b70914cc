import { DomainError } from '@board/kernel';
import {
  checkAddress,
  checkHostName,
  classifyAddress,
  hostAsAddress,
  isAllowed,
  parseWebhookUrl,
  WEBHOOK_ADDRESS_PRIVATE,
  WEBHOOK_URL_INVALID,
  WEBHOOK_URL_TOO_LONG,
  WEBHOOK_URL_USERINFO,
  WEBHOOK_REFUSALS,
} from './address-rules';

/** The refusal a call raises, as code and sentence; null when it does not throw. */
function refusal(call: () => unknown): { code: string; message: unknown } | null {
  try {
    call();
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, message: WEBHOOK_REFUSALS[error.code] };
  }
}

/** What the whole rule says about a URL once its host is known as an address (as the sender does). */
function verdict(raw: string, allow: string[] = [], resolved?: string): 'public' | string {
  const found = refusal(() => {
    const url = parseWebhookUrl(raw);
    const address = resolved ?? hostAsAddress(url.hostname);
    if (address === null) throw new Error(`test needs an address for ${url.hostname}`);
    checkAddress(url.hostname, address, allow);
  });
  return found === null ? 'public' : (found.message as string);
}

describe('parseWebhookUrl', () => {
  it.each([
    ['https://hooks.example.com/ring', 'https://hooks.example.com/ring'],
    ['http://hooks.example.com:8080/a?b=c', 'http://hooks.example.com:8080/a?b=c'],
    ['  https://Example.COM/x  ', 'https://example.com/x'],
  ])('takes %p', (raw, href) => {
    expect(parseWebhookUrl(raw).href).toBe(href);
  });

  it.each([
    [undefined],
    [null],
    [42],
    [{ url: 'https://example.com' }],
    [''],
    ['   '],
    ['not a url'],
    ['example.com/ring'],
    ['/relative/path'],
    ['ftp://example.com/file'],
    ['file:///etc/passwd'],
    ['javascript:alert(1)'],
    ['data:text/plain,hi'],
    ['ws://example.com/socket'],
    ['gopher://example.com/'],
    ['http://'],
    ['http://999.1.1.1/'],
    ['http://[fe80::1%25eth0]/'],
  ])('refuses %p as not an http(s) URL', (raw) => {
    expect(refusal(() => parseWebhookUrl(raw))).toEqual({ code: 'webhook.url_invalid', message: WEBHOOK_URL_INVALID });
  });

  it.each([
    ['https://user:secret@example.com/ring'],
    ['https://user@example.com/ring'],
    ['https://:secret@example.com/ring'],
    ['http://admin:admin@127.0.0.1/'],
    ['http://a%40b:c@hooks.example.com/'],
  ])('refuses %p for carrying a name and password', (raw) => {
    expect(refusal(() => parseWebhookUrl(raw))).toEqual({ code: 'webhook.url_userinfo', message: WEBHOOK_URL_USERINFO });
  });
});

describe('hostAsAddress', () => {
  it.each([
    // What the URL parser leaves of each spelling, and the raw spellings themselves.
    ['127.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['0', '0.0.0.0'],
    ['10.1', '10.0.0.1'],
    ['1.2.3.4.', '1.2.3.4'],
    ['[::1]', '::1'],
    ['::1', '::1'],
    ['[::]', '::'],
    ['[0:0:0:0:0:0:0:1]', '::1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['[::ffff:7f00:1]', '::ffff:7f00:1'],
    ['[::127.0.0.1]', '::7f00:1'],
    ['[64:ff9b::10.0.0.1]', '64:ff9b::a00:1'],
    ['[2606:4700:0:0:0:0:0:1111]', '2606:4700::1111'],
    ['[FE80::1]', 'fe80::1'],
    ['[1:0:0:2:0:0:0:3]', '1:0:0:2::3'],
  ])('%p is the address %p', (host, address) => {
    expect(hostAsAddress(host)).toBe(address);
  });

  it.each([['example.com'], ['localhost'], ['hooks.example.test'], ['127.0.0.1.nip.io'], ['0x7g.1'], ['1.2.3.4.5'], ['256.1.1.1'], ['[zz::1]'], ['']])(
    '%p is a name, not an address',
    (host) => {
      expect(hostAsAddress(host)).toBeNull();
    },
  );

  it('agrees with the URL parser on every IPv4 spelling', () => {
    for (const host of ['2130706433', '0177.0.0.1', '0x7f.1', '127.1', '0x7f000001', '017700000001', '10.0x1.1', '192.168.257']) {
      const normalised = new URL(`http://${host}/`).hostname;
      expect([host, hostAsAddress(host)]).toEqual([host, normalised]);
      expect([host, hostAsAddress(normalised)]).toEqual([host, normalised]);
    }
  });
});

describe('classifyAddress', () => {
  it.each([
    // IPv4 loopback and "this network"
    ['127.0.0.1'], ['127.255.255.254'], ['127.1.2.3'], ['0.0.0.0'], ['0.1.2.3'],
    // private
    ['10.0.0.1'], ['10.255.255.255'], ['172.16.0.1'], ['172.31.255.255'], ['192.168.0.1'], ['192.168.255.255'],
    // link-local (cloud metadata included) and carrier-grade NAT
    ['169.254.169.254'], ['169.254.0.1'], ['100.64.0.1'], ['100.127.255.255'],
    // multicast, reserved, broadcast
    ['224.0.0.1'], ['239.255.255.250'], ['240.0.0.1'], ['255.255.255.255'],
    // IPv6 loopback, unspecified, unique local, link-local, multicast
    ['::1'], ['::'], ['0:0:0:0:0:0:0:1'], ['fc00::1'], ['fd12:3456:789a::1'], ['fe80::1'], ['febf::1'], ['fe80::1%eth0'],
    ['ff02::1'], ['ff05::2'], ['fec0::1'],
    // IPv4 inside IPv6: mapped (dotted and hex), compatible, translated, NAT64, 6to4
    ['::ffff:127.0.0.1'], ['::ffff:7f00:1'], ['::ffff:10.0.0.1'], ['::ffff:a9fe:a9fe'], ['::ffff:192.168.1.1'], ['0:0:0:0:0:ffff:7f00:1'],
    ['::127.0.0.1'], ['::7f00:1'], ['::10.0.0.1'], ['::ffff:0:127.0.0.1'],
    ['64:ff9b::127.0.0.1'], ['64:ff9b::a00:1'], ['64:ff9b::a9fe:a9fe'], ['64:ff9b:1::1'],
    ['2002:7f00:1::'], ['2002:a00:1::1'], ['2002:c0a8:101::1'], ['2002:a9fe:a9fe::'],
    // not an address at all: refused rather than guessed
    ['localhost'], ['example.com'], [''], ['2130706433'], ['0177.0.0.1'], ['127.1'], ['1.2.3'], ['1.2.3.4.5'], ['256.0.0.1'],
    ['::1::2'], ['1:2:3:4:5:6:7:8:9'], ['12345::1'], ['[::1]x'],
  ])('%p is refused', (ip) => {
    expect(classifyAddress(ip)).toBe('refused');
  });

  it.each([
    ['8.8.8.8'], ['1.1.1.1'], ['93.184.216.34'], ['172.15.255.255'], ['172.32.0.1'], ['192.167.1.1'], ['169.253.1.1'],
    ['100.63.255.255'], ['100.128.0.1'], ['11.0.0.1'], ['126.255.255.255'], ['128.0.0.1'], ['223.255.255.255'],
    ['2606:4700::1111'], ['2001:4860:4860::8888'], ['2a00:1450:4001:80b::200e'], ['[2606:4700::1111]'],
    ['::ffff:8.8.8.8'], ['::ffff:808:808'], ['64:ff9b::8.8.8.8'], ['2002:808:808::1'],
  ])('%p is public', (ip) => {
    expect(classifyAddress(ip)).toBe('public');
  });
});

describe('checkAddress through a URL', () => {
  it.each([
    ['http://127.0.0.1/'],
    ['http://2130706433/'],
    ['http://0177.0.0.1/'],
    ['http://0x7f.1/'],
    ['http://127.1/'],
    ['http://0x7f000001:8080/x'],
    ['http://0/'],
    ['http://0.0.0.0/'],
    ['http://10.0.0.5/'],
    ['http://172.20.1.1/'],
    ['http://192.168.1.1/'],
    ['http://169.254.169.254/latest/meta-data/'],
    ['http://100.100.100.200/'],
    ['http://224.0.0.1/'],
    ['http://255.255.255.255/'],
    ['http://[::1]/'],
    ['http://[::]/'],
    ['http://[::ffff:127.0.0.1]/'],
    ['http://[::ffff:7f00:1]/'],
    ['http://[::127.0.0.1]/'],
    ['http://[64:ff9b::10.0.0.1]/'],
    ['http://[2002:7f00:1::]/'],
    ['http://[fc00::1]/'],
    ['http://[fe80::1]/'],
    ['http://[ff02::1]/'],
    ['https://%31%32%37.0.0.1/'],
  ])('%p is private', (raw) => {
    expect(verdict(raw)).toBe(WEBHOOK_ADDRESS_PRIVATE);
  });

  it.each([['http://localhost/'], ['http://LOCALHOST:3000/'], ['http://localhost./'], ['http://api.localhost/'], ['http://a.b.LocalHost/']])(
    '%p is private even if it resolved to a public address',
    (raw) => {
      expect(verdict(raw, [], '93.184.216.34')).toBe(WEBHOOK_ADDRESS_PRIVATE);
    },
  );

  it.each([['https://8.8.8.8/'], ['https://93.184.216.34/ring'], ['https://[2606:4700::1111]/'], ['http://1.1.1.1:8080/x']])('%p passes', (raw) => {
    expect(verdict(raw)).toBe('public');
  });

  it('checks a name by the address it resolved to', () => {
    expect(verdict('https://hooks.example.com/', [], '93.184.216.34')).toBe('public');
    expect(verdict('https://hooks.example.com/', [], '10.1.2.3')).toBe(WEBHOOK_ADDRESS_PRIVATE);
    expect(verdict('https://hooks.example.com/', [], '::ffff:169.254.169.254')).toBe(WEBHOOK_ADDRESS_PRIVATE);
    expect(refusal(() => checkAddress('hooks.example.com', '10.1.2.3', []))).toEqual({
      code: 'webhook.address_private',
      message: WEBHOOK_ADDRESS_PRIVATE,
    });
  });
});

describe('the allow list', () => {
  it('lifts the rule for a host it names, case-insensitively and exactly', () => {
    expect(verdict('http://hooks.internal/', ['HOOKS.internal'], '10.1.2.3')).toBe('public');
    expect(verdict('http://hooks.internal./', ['hooks.internal'], '10.1.2.3')).toBe('public');
    expect(verdict('http://evil.hooks.internal/', ['hooks.internal'], '10.1.2.3')).toBe(WEBHOOK_ADDRESS_PRIVATE);
    expect(verdict('http://hooks.internal.evil.com/', ['hooks.internal'], '10.1.2.3')).toBe(WEBHOOK_ADDRESS_PRIVATE);
    expect(verdict('http://localhost:4000/', ['localhost'], '127.0.0.1')).toBe('public');
    expect(verdict('http://a.localhost/', ['localhost'], '127.0.0.1')).toBe(WEBHOOK_ADDRESS_PRIVATE);
  });

  it('lifts the rule for a bare address, matched on the host or the resolved address', () => {
    expect(verdict('http://127.0.0.1:9000/', ['127.0.0.1'])).toBe('public');
    expect(verdict('http://127.1:9000/', ['127.0.0.1'])).toBe('public');
    expect(verdict('http://2130706433/', ['127.0.0.1'])).toBe('public');
    expect(verdict('http://127.0.0.2/', ['127.0.0.1'])).toBe(WEBHOOK_ADDRESS_PRIVATE);
    expect(verdict('http://hooks.example.test/', ['127.0.0.1'], '127.0.0.1')).toBe('public');
    expect(verdict('http://localhost/', ['127.0.0.1'], '127.0.0.1')).toBe('public');
    expect(verdict('http://[::1]/', ['::1'])).toBe('public');
    expect(verdict('http://[::1]/', ['[::1]'])).toBe('public');
    expect(verdict('http://[::ffff:127.0.0.1]/', ['127.0.0.1'])).toBe('public');
  });

  it('lifts the rule for a CIDR', () => {
    expect(verdict('http://10.9.8.7/', ['10.0.0.0/8'])).toBe('public');
    expect(verdict('http://11.0.0.1/', ['10.0.0.0/8'])).toBe('public'); // public anyway
    expect(verdict('http://192.168.1.1/', ['10.0.0.0/8'])).toBe(WEBHOOK_ADDRESS_PRIVATE);
    expect(verdict('http://127.0.0.1/', ['127.0.0.1/32'])).toBe('public');
    expect(verdict('http://127.0.0.2/', ['127.0.0.1/32'])).toBe(WEBHOOK_ADDRESS_PRIVATE);
    expect(verdict('http://172.17.0.2/', ['172.16.0.0/12'])).toBe('public');
    expect(verdict('http://172.32.0.2/', ['172.16.0.0/12'])).toBe('public'); // public anyway
    expect(verdict('http://[::1]/', ['::1/128'])).toBe('public');
    expect(verdict('http://[fd00::5]/', ['fd00::/8'])).toBe('public');
    expect(verdict('http://[fe80::5]/', ['fd00::/8'])).toBe(WEBHOOK_ADDRESS_PRIVATE);
    expect(verdict('http://hooks.example.test/', ['10.0.0.0/8'], '10.1.2.3')).toBe('public');
    expect(verdict('http://hooks.example.test/', ['10.0.0.0/8'], '192.168.0.1')).toBe(WEBHOOK_ADDRESS_PRIVATE);
  });

  it('ignores entries that are blank or malformed', () => {
    for (const entry of ['', '  ', '10.0.0.0/33', '10.0.0.0/', '/8', '10.0.0/8', 'not a cidr/8', '::1/129']) {
      expect([entry, verdict('http://10.0.0.1/', [entry])]).toEqual([entry, WEBHOOK_ADDRESS_PRIVATE]);
    }
  });

  it('isAllowed answers for host or address', () => {
    expect(isAllowed('hooks.example.test', '127.0.0.1', ['hooks.example.test'])).toBe(true);
    expect(isAllowed('hooks.example.test', null, ['hooks.example.test'])).toBe(true);
    expect(isAllowed('other.example.test', '127.0.0.1', ['hooks.example.test'])).toBe(false);
    expect(isAllowed('other.example.test', '127.0.0.1', ['127.0.0.0/8'])).toBe(true);
    expect(isAllowed('127.0.0.1', null, ['127.0.0.0/8'])).toBe(true);
    expect(isAllowed('[::1]', null, ['::1/128'])).toBe(true);
    expect(isAllowed('other.example.test', null, ['127.0.0.0/8'])).toBe(false);
    expect(isAllowed('x', '10.0.0.1', [' 10.0.0.0/8 '])).toBe(true);
    expect(isAllowed('x', '10.0.0.1', [])).toBe(false);
  });

  it('never lifts the name-and-password rule', () => {
    for (const allow of [['127.0.0.1'], ['127.0.0.0/8'], ['hooks.example.test'], ['0.0.0.0/0', '::/0']]) {
      for (const raw of ['http://user:pw@127.0.0.1/', 'http://user@hooks.example.test/', 'https://:pw@8.8.8.8/']) {
        expect([allow, raw, verdict(raw, allow, '127.0.0.1')]).toEqual([allow, raw, WEBHOOK_URL_USERINFO]);
      }
    }
  });
});

describe('names under localhost, before any lookup (issue 19)', () => {
  it.each([['foo.localhost'], ['a.b.localhost.'], ['A.B.LOCALHOST..'], ['localhost'], ['localhost.']])('%p is refused', (host) => {
    expect(refusal(() => checkHostName(host, []))).toEqual({ code: 'webhook.address_private', message: WEBHOOK_ADDRESS_PRIVATE });
  });

  it.each([['hooks.example.com'], ['localhost.example.com'], ['notlocalhost'], ['foo.localhost.evil.com'], ['127.0.0.1']])('%p is left to the address check', (host) => {
    expect(refusal(() => checkHostName(host, []))).toBeNull();
  });

  it('is lifted by an allow list naming the host or a loopback address, and no other', () => {
    expect(refusal(() => checkHostName('foo.localhost', ['foo.localhost']))).toBeNull();
    expect(refusal(() => checkHostName('foo.localhost', ['127.0.0.1']))).toBeNull();
    expect(refusal(() => checkHostName('foo.localhost', ['::1']))).toBeNull();
    expect(refusal(() => checkHostName('foo.localhost', ['localhost']))).not.toBeNull();
    expect(refusal(() => checkHostName('foo.localhost', ['10.0.0.0/8']))).not.toBeNull();
  });
});

describe('webhook URL length (issue 19)', () => {
  const at = (n: number) => `https://hooks.example.com/${'a'.repeat(n - 'https://hooks.example.com/'.length)}`;

  it('takes 2000 characters and refuses 2001, as sent', () => {
    expect(parseWebhookUrl(at(2000)).href).toHaveLength(2000);
    expect(refusal(() => parseWebhookUrl(at(2001)))).toEqual({ code: 'webhook.url_too_long', message: WEBHOOK_URL_TOO_LONG });
    expect(refusal(() => parseWebhookUrl(at(100_000)))).toEqual({ code: 'webhook.url_too_long', message: WEBHOOK_URL_TOO_LONG });
  });

  it('counts the URL once normalised too (percent-encoding makes it longer)', () => {
    const raw = `https://hooks.example.com/${'é'.repeat(700)}`;
    expect(raw.length).toBeLessThan(2000);
    expect(refusal(() => parseWebhookUrl(raw))).toEqual({ code: 'webhook.url_too_long', message: WEBHOOK_URL_TOO_LONG });
  });
});
