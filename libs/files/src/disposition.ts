/**
 * The `Content-Disposition` a signed read asks the bucket to answer with: images (not SVG, which
 * can carry script) and video open in place, everything else downloads (decisions.md › Files).
 * The name travels as a plain ASCII `filename` for old clients and, when it needs more, as an
 * RFC 5987 `filename*` in UTF-8.
 */
export function opensInPlace(mime: string): boolean {
  if (mime === 'image/svg+xml') return false;
  return mime.startsWith('image/') || mime.startsWith('video/');
}

// Printable ASCII but the quote and backslash, which a quoted-string would have to escape.
const PLAIN = /^[\x20-\x7e]*$/;
const UNSAFE_PLAIN = /[^\x20-\x7e]|["\\]/g;

export function contentDisposition(name: string, mime: string): string {
  const kind = opensInPlace(mime) ? 'inline' : 'attachment';
  const fallback = name.replace(UNSAFE_PLAIN, '_');
  const value = `${kind}; filename="${fallback}"`;
  if (PLAIN.test(name) && !/["\\]/.test(name)) return value;
  return `${value}; filename*=UTF-8''${encodeRfc5987(name)}`;
}

/** Percent-encodes all but RFC 5987's attr-chars (encodeURIComponent leaves ' ( ) * bare). */
export const encodeRfc5987 = (value: string): string =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
