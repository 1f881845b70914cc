import { plainHttpWarning } from './agent-work';

describe('plainHttpWarning', () => {
  it('warns for plain http:// to a host that is not this machine', () => {
    for (const url of ['http://board.example.com', 'http://10.0.0.5:3000', 'http://[fd00::2]:3000', 'http://localhost.example.com']) {
      expect(plainHttpWarning(url)).toMatch(/^BOARD_URL is plain http:\/\/ to .+, which is not this machine/);
    }
    expect(plainHttpWarning('http://board.example.com:8080/x')).toContain('board.example.com:8080');
  });

  it('says nothing for https, nor for loopback', () => {
    for (const url of ['https://board.example.com', 'http://localhost:3000', 'http://LOCALHOST', 'http://127.0.0.1:3000', 'http://127.1.2.3', 'http://[::1]:3000', 'http://board.localhost']) {
      expect(plainHttpWarning(url)).toBeNull();
    }
  });
});
