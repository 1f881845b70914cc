import { plainText, snippetOf, snippetWords, SNIPPET_MAX } from './snippet';

describe('search snippets', () => {
  it('reads the words of a query folded: no accents, lower case, letters and digits only', () => {
    expect(snippetWords('Café  DEPLOY-12 café')).toEqual(['cafe', 'deploy', '12']);
    expect(snippetWords("&|:*'")).toEqual([]);
  });

  it('reduces markdown and HTML to plain text', () => {
    expect(plainText('# Title\n\n**bold** and _it_ [a link](http://x.y) ![img](a.png) <b>tag</b> `code`')).toBe('Title bold and it a link img tag code');
    expect(plainText('- one\n- two\n> quoted')).toBe('one two quoted');
  });

  it('answers short text whole and long text cut around the first match, at most 200 characters', () => {
    expect(snippetOf('Short **text**', ['text'])).toBe('Short text');
    const long = 'alpha '.repeat(100) + 'Éclair here ' + 'omega '.repeat(100);
    const cut = snippetOf(long, ['eclair']);
    expect(Array.from(cut).length).toBeLessThanOrEqual(SNIPPET_MAX);
    expect(cut).toMatch(/^…alpha .*Éclair here omega.*…$/);
    // A match near the end still fills the snippet.
    const end = snippetOf('alpha '.repeat(100) + 'zebra', ['zebra']);
    expect(end.endsWith('zebra')).toBe(true);
    expect(Array.from(end).length).toBe(SNIPPET_MAX);
    // No match found (a fold the page does not know): the start.
    expect(snippetOf('beta '.repeat(100), ['zzz']).startsWith('beta')).toBe(true);
  });

  it('never cuts a character of two code units in half', () => {
    const text = '😀'.repeat(300);
    const cut = snippetOf(text, ['x']);
    expect(Array.from(cut).length).toBeLessThanOrEqual(SNIPPET_MAX);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
