import { cutUserAgent, USER_AGENT_MAX } from './security-log';

describe('security log: the user agent as stored', () => {
  it('keeps at most 200 characters, whole code points', () => {
    expect(cutUserAgent('x'.repeat(500))).toHaveLength(USER_AGENT_MAX);
    const emoji = '😀'.repeat(250);
    expect([...cutUserAgent(emoji)]).toHaveLength(USER_AGENT_MAX);
    expect(cutUserAgent(emoji).endsWith('😀')).toBe(true);
  });

  it('drops what PostgreSQL refuses, and reads no header as empty', () => {
    expect(cutUserAgent('a\0b\uD800c')).toBe('ab\uFFFDc');
    expect(cutUserAgent(undefined)).toBe('');
    expect(cutUserAgent(['a', 'b'])).toBe('');
  });
});
