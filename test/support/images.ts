/**
 * Tiny images built byte by byte for the file tests: a real PNG (checksummed chunks, deflated
 * rows) and the heads of JPEG, GIF and WebP files with a chosen width and height.
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid greyscale PNG of `width` × `height` (8 bits a pixel, filter 0 on every row). */
export function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const segment = (marker: number, payload: Buffer) => {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
};

/**
 * The head of a baseline JPEG: SOI, a JFIF APP0, an optional APP1 of `metadataBytes` (split into
 * as many segments as it takes), then the frame header with `width` × `height`, and EOI.
 */
export function jpeg(width: number, height: number, options: { metadataBytes?: number; marker?: number } = {}): Buffer {
  const parts = [Buffer.from([0xff, 0xd8]), segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'))];
  for (let left = options.metadataBytes ?? 0; left > 0; left -= 65533) parts.push(segment(0xe1, Buffer.alloc(Math.min(left, 65533), 0x2a)));
  const sof = Buffer.from([8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  parts.push(segment(options.marker ?? 0xc0, sof), Buffer.from([0xff, 0xd9]));
  return Buffer.concat(parts);
}

/** A one-colour GIF89a of `width` × `height` (the logical screen; one 1×1 image in it). */
export function gif(width: number, height: number, version: '87a' | '89a' = '89a'): Buffer {
  const bytes = Buffer.from(
    `GIF${version}\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;`,
    'latin1',
  );
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

const riff = (chunkType: string, payload: Buffer) => {
  const body = Buffer.concat([Buffer.from(chunkType, 'ascii'), Buffer.alloc(4), payload]);
  body.writeUInt32LE(payload.length, 4);
  const head = Buffer.concat([Buffer.from('RIFF', 'ascii'), Buffer.alloc(4), Buffer.from('WEBP', 'ascii')]);
  head.writeUInt32LE(4 + body.length, 4);
  return Buffer.concat([head, body]);
};

/** The head of a WebP in one of its three forms: lossy (VP8), lossless (VP8L) or extended (VP8X). */
export function webp(width: number, height: number, form: 'lossy' | 'lossless' | 'extended' = 'lossy'): Buffer {
  if (form === 'lossy') {
    const frame = Buffer.alloc(10 + 16);
    frame.writeUIntLE(0x10, 0, 3); // frame tag: key frame
    frame[3] = 0x9d;
    frame[4] = 0x01;
    frame[5] = 0x2a;
    frame.writeUInt16LE(width & 0x3fff, 6);
    frame.writeUInt16LE(height & 0x3fff, 8);
    return riff('VP8 ', frame);
  }
  if (form === 'lossless') {
    const payload = Buffer.alloc(5 + 16);
    payload[0] = 0x2f;
    payload.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
    return riff('VP8L', payload);
  }
  const payload = Buffer.alloc(10);
  payload.writeUIntLE(width - 1, 4, 3);
  payload.writeUIntLE(height - 1, 7, 3);
  return riff('VP8X', payload);
}

/**
 * A JPEG that never reaches its frame: the start marker, then `segments` empty comment segments
 * (FF FE 00 02) — the probe's 600,000 of them froze a browser's renderer for minutes.
 */
export function segmentBombJpeg(segments = 600_000): Buffer {
  const body = Buffer.alloc(2 + segments * 4);
  body[0] = 0xff;
  body[1] = 0xd8;
  for (let i = 0; i < segments; i++) body.set([0xff, 0xfe, 0x00, 0x02], 2 + i * 4);
  return body;
}
