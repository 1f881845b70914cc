import { gif, jpeg, png, webp } from '../../../test/support/images';
import { readGif, readImageSize, readJpeg, readPng, readWebp } from './image-size';

const size = (width: number, height: number) => ({ kind: 'size', width, height });
const INVALID = { kind: 'invalid' };
const MORE = { kind: 'more' };

describe('readPng', () => {
  it('reads width and height from IHDR', () => {
    expect(readPng(png(3, 2))).toEqual(size(3, 2));
    expect(readPng(png(640, 1))).toEqual(size(640, 1));
  });

  it('refuses other bytes, a zero size and a first chunk that is not IHDR', () => {
    expect(readPng(Buffer.from('not a png at all, just some text bytes'))).toEqual(INVALID);
    const zero = png(1, 1);
    zero.writeUInt32BE(0, 16);
    expect(readPng(zero)).toEqual(INVALID);
    const other = png(1, 1);
    other.write('IDAT', 12, 'ascii');
    expect(readPng(other)).toEqual(INVALID);
  });

  it('asks for more when the head is cut short, and calls a cut file broken', () => {
    const head = png(5, 5).subarray(0, 20);
    expect(readPng(head)).toEqual(MORE);
    expect(readImageSize('image/png', head, true)).toEqual(INVALID);
  });
});

describe('readJpeg', () => {
  it('walks the segments to the frame header: height, then width', () => {
    expect(readJpeg(jpeg(800, 600))).toEqual(size(800, 600));
    expect(readJpeg(jpeg(1, 65535))).toEqual(size(1, 65535));
  });

  it('reads progressive and other frame kinds, and skips DHT (C4) which is no frame', () => {
    expect(readJpeg(jpeg(120, 40, { marker: 0xc2 }))).toEqual(size(120, 40));
    expect(readJpeg(jpeg(120, 40, { marker: 0xc4 }))).toEqual(INVALID);
  });

  it('steps over large metadata, and asks for more when the frame lies beyond the bytes read', () => {
    const big = jpeg(4000, 3000, { metadataBytes: 200_000 });
    expect(readJpeg(big)).toEqual(size(4000, 3000));
    expect(readJpeg(big.subarray(0, 64 * 1024))).toEqual(MORE);
    expect(readImageSize('image/jpeg', big.subarray(0, 64 * 1024), true)).toEqual(INVALID);
  });

  it('refuses bytes without the SOI magic or with a broken segment', () => {
    expect(readJpeg(png(2, 2))).toEqual(INVALID);
    const broken = jpeg(10, 10);
    broken[20] = 0x00; // where the next marker's 0xff should be
    expect(readJpeg(broken)).toEqual(INVALID);
    expect(readJpeg(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2]))).toEqual(INVALID);
  });
});

describe('readGif', () => {
  it('reads the logical screen of GIF87a and GIF89a', () => {
    expect(readGif(gif(17, 9))).toEqual(size(17, 9));
    expect(readGif(gif(300, 200, '87a'))).toEqual(size(300, 200));
  });

  it('refuses other magic and a zero size', () => {
    expect(readGif(Buffer.from('GIF90a\x01\x00\x01\x00', 'latin1'))).toEqual(INVALID);
    expect(readGif(gif(0, 5))).toEqual(INVALID);
    expect(readGif(Buffer.from('GIF8'))).toEqual(MORE);
  });
});

describe('readWebp', () => {
  it('reads lossy, lossless and extended WebP', () => {
    expect(readWebp(webp(320, 240, 'lossy'))).toEqual(size(320, 240));
    expect(readWebp(webp(16383, 1, 'lossless'))).toEqual(size(16383, 1));
    expect(readWebp(webp(1, 16384, 'lossless'))).toEqual(size(1, 16384));
    expect(readWebp(webp(20000, 70000, 'extended'))).toEqual(size(20000, 70000));
  });

  it('refuses a RIFF that is not WEBP, an unknown chunk and a lossy frame without its start code', () => {
    const wave = webp(2, 2);
    wave.write('WAVE', 8, 'ascii');
    expect(readWebp(wave)).toEqual(INVALID);
    const other = webp(2, 2);
    other.write('ALPH', 12, 'ascii');
    expect(readWebp(other)).toEqual(INVALID);
    const noStart = webp(2, 2);
    noStart[23] = 0;
    expect(readWebp(noStart)).toEqual(INVALID);
    expect(readWebp(webp(2, 2).subarray(0, 16))).toEqual(MORE);
  });
});

describe('readImageSize', () => {
  it('holds each type to its own magic', () => {
    expect(readImageSize('image/png', gif(2, 2), true)).toEqual(INVALID);
    expect(readImageSize('image/gif', png(2, 2), true)).toEqual(INVALID);
    expect(readImageSize('image/webp', jpeg(2, 2), true)).toEqual(INVALID);
    expect(readImageSize('image/jpeg', webp(2, 2), true)).toEqual(INVALID);
    expect(readImageSize('image/png', Buffer.alloc(0), true)).toEqual(INVALID);
  });
});
