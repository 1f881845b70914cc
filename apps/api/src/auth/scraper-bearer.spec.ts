import { scraperRefusal } from './scraper-bearer';

describe('the metrics scraper’s bearer', () => {
  const token = 'm3trics-t0ken-of-the-operators';

  it('admits exactly the configured token, whatever the case of the scheme', () => {
    expect(scraperRefusal(`Bearer ${token}`, token)).toBeNull();
    expect(scraperRefusal(`bearer  ${token} `, token)).toBeNull();
  });

  it('tells a missing bearer from a wrong one', () => {
    for (const header of [undefined, '', 'Bearer', 'Bearer ', `Basic ${token}`, `${token}`, ['Bearer', token]]) {
      expect(scraperRefusal(header, token)).toBe('metrics.token_missing');
    }
    for (const wrong of [`${token}x`, token.slice(0, -1), token.toUpperCase(), 'svc_an-agent-token']) {
      expect(scraperRefusal(`Bearer ${wrong}`, token)).toBe('metrics.token_wrong');
    }
  });
});
