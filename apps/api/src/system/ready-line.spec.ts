import { openableUrl, readyLine } from './ready-line';

describe('openableUrl', () => {
  const fallback = { host: '127.0.0.1', port: 3000 };

  it('names the address and port the server listens on', () => {
    expect(openableUrl({ address: '127.0.0.1', family: 'IPv4', port: 41234 }, fallback)).toBe('http://127.0.0.1:41234/');
    expect(openableUrl({ address: '192.168.1.20', family: 'IPv4', port: 3000 }, fallback)).toBe('http://192.168.1.20:3000/');
  });

  it('puts the loopback in place of a wildcard, and brackets an IPv6 address', () => {
    expect(openableUrl({ address: '0.0.0.0', family: 'IPv4', port: 3000 }, fallback)).toBe('http://127.0.0.1:3000/');
    expect(openableUrl({ address: '::', family: 'IPv6', port: 3000 }, fallback)).toBe('http://127.0.0.1:3000/');
    expect(openableUrl({ address: '::1', family: 'IPv6', port: 3000 }, fallback)).toBe('http://[::1]:3000/');
  });

  it('falls back to the configured host and port when the server does not say', () => {
    expect(openableUrl(null, fallback)).toBe('http://127.0.0.1:3000/');
  });
});

describe('readyLine', () => {
  it('says where to go', () => {
    expect(readyLine('http://127.0.0.1:3000/')).toBe('Task board is ready at http://127.0.0.1:3000/ — open it to create the first account');
  });
});
