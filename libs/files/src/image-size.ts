/**
 * Reads an image's width and height from its first bytes, by hand: PNG, JPEG, GIF and WebP
 * (decisions.md › Files). Each reader also checks the magic, so a file that only claims to be
 * such an image is told apart from one that is.
 */

/** Mime types whose bytes the server checks and whose size it reads. */
export const SIZED_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type SizedImageType = (typeof SIZED_IMAGE_TYPES)[number];

export const isSizedImage = (mime: string): mime is SizedImageType => (SIZED_IMAGE_TYPES as readonly string[]).includes(mime);

/**
 * What the bytes say: the size; `more` when the bytes ran out before the answer (a JPEG whose
 * frame header sits behind large metadata); `invalid` when they are not that image.
 */
export type ImageSizeReading = { kind: 'size'; width: number; height: number } | { kind: 'more' } | { kind: 'invalid' };

const INVALID: ImageSizeReading = { kind: 'invalid' };
const MORE: ImageSizeReading = { kind: 'more' };

/** Bytes of the head of a file that answer every type but a JPEG with large metadata. */
export const IMAGE_HEAD_BYTES = 64 * 1024;
/** The most of a JPEG's head the server reads looking for its frame header. */
export const JPEG_HEAD_LIMIT = 1024 * 1024;

const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
const u32be = (b: Uint8Array, i: number) => b[i] * 0x1000000 + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]);
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));
const startsWith = (b: Uint8Array, magic: readonly number[]) => b.length >= magic.length && magic.every((v, i) => b[i] === v);
/** Bytes too few to hold `magic` whole, but agreeing with it as far as they go. */
const shortOf = (b: Uint8Array, magic: readonly number[]) => b.length < magic.length && b.every((v, i) => magic[i] === v);
const codes = (text: string) => [...text].map((c) => c.charCodeAt(0));
const GIF87 = codes('GIF87a');
const GIF89 = codes('GIF89a');

const sized = (width: number, height: number): ImageSizeReading => (width > 0 && height > 0 ? { kind: 'size', width, height } : INVALID);

/**
 * The size of a `mime` image from the head of its bytes. `complete` says the bytes are the whole
 * file: running out then means a broken file, not a short read.
 */
export function readImageSize(mime: SizedImageType, bytes: Uint8Array, complete: boolean): ImageSizeReading {
  const reading = READERS[mime](bytes);
  return reading.kind === 'more' && complete ? INVALID : reading;
}

const READERS: Record<SizedImageType, (b: Uint8Array) => ImageSizeReading> = {
  'image/png': readPng,
  'image/jpeg': readJpeg,
  'image/gif': readGif,
  'image/webp': readWebp,
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Signature, then the IHDR chunk (length 13) first: width and height big-endian. */
export function readPng(b: Uint8Array): ImageSizeReading {
  if (b.length < 24) return shortOf(b, PNG_SIGNATURE) || startsWith(b, PNG_SIGNATURE) ? MORE : INVALID;
  if (!startsWith(b, PNG_SIGNATURE) || u32be(b, 8) !== 13 || ascii(b, 12, 4) !== 'IHDR') return INVALID;
  const width = u32be(b, 16);
  const height = u32be(b, 20);
  // The format caps both at 2^31 - 1.
  if (width > 0x7fffffff || height > 0x7fffffff) return INVALID;
  return sized(width, height);
}

/** `GIF87a` or `GIF89a`, then the logical screen's width and height, little-endian. */
export function readGif(b: Uint8Array): ImageSizeReading {
  const magic = startsWith(b, GIF87) || startsWith(b, GIF89);
  if (b.length < 10) return magic || shortOf(b, GIF87) || shortOf(b, GIF89) ? MORE : INVALID;
  if (!magic) return INVALID;
  return sized(u16le(b, 6), u16le(b, 8));
}

const RIFF = codes('RIFF');

/** RIFF container with the WEBP form, then its first chunk: lossy `VP8 `, lossless `VP8L`, or extended `VP8X`. */
export function readWebp(b: Uint8Array): ImageSizeReading {
  if (b.length < 12) return shortOf(b, RIFF) || startsWith(b, RIFF) ? MORE : INVALID;
  if (ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WEBP') return INVALID;
  if (b.length < 30) return MORE;
  switch (ascii(b, 12, 4)) {
    case 'VP8 ':
      // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height (2 scaling bits above).
      if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return INVALID;
      return sized(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
    case 'VP8L': {
      // Signature 0x2f, then width - 1 and height - 1 in 14 bits each, little-endian bit order.
      if (b[20] !== 0x2f) return INVALID;
      const bits = (b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)) >>> 0;
      return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    case 'VP8X':
      // Flags (1 byte), reserved (3), then canvas width - 1 and height - 1 in 24 bits each.
      return sized(u24le(b, 24) + 1, u24le(b, 27) + 1);
    default:
      return INVALID;
  }
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic); C4, C8 and CC are other segments. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

const JPEG_SOI = [0xff, 0xd8, 0xff];

/** SOI, then segments by their lengths until a start-of-frame: height, then width, big-endian. */
export function readJpeg(b: Uint8Array): ImageSizeReading {
  if (shortOf(b, JPEG_SOI)) return MORE;
  if (!startsWith(b, JPEG_SOI)) return INVALID;
  let i = 2;
  for (;;) {
    if (i >= b.length) return MORE;
    if (b[i] !== 0xff) return INVALID;
    // Fill bytes: any number of 0xff before a marker.
    while (i < b.length && b[i] === 0xff) i++;
    if (i >= b.length) return MORE;
    const marker = b[i];
    i++;
    // Markers without a length: TEM and RSTn. SOI again, EOI or SOS before a frame: not an image.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (marker === 0x00 || marker === 0xd8 || marker === 0xd9 || marker === 0xda) return INVALID;
    if (i + 2 > b.length) return MORE;
    const length = u16be(b, i);
    if (length < 2) return INVALID;
    if (SOF.has(marker)) {
      if (length < 8) return INVALID;
      if (i + 7 > b.length) return MORE;
      return sized(u16be(b, i + 5), u16be(b, i + 3));
    }
    i += length;
  }
}
