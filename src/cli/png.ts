import { crc32, deflateSync } from 'node:zlib';

export type Rgb = readonly [number, number, number];

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A PNG of 8-bit RGB pixels; node:zlib does the compression and checksums. */
export function png(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    // Each row opens with its filter type, 0 (none), which Buffer.alloc already wrote.
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), y * stride + 1 + x * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const inside = (x: number, y: number, left: number, top: number, right: number, bottom: number) => x >= left && x < right && y >= top && y < bottom;

/** A car seen from the side, in its colour, on a road under a sky: a recognisable lot photo. */
export function carPicture(color: Rgb): Buffer {
  return png(240, 150, (x, y) => {
    if ([70, 170].some((cx) => (x - cx) ** 2 + (y - 112) ** 2 <= 256)) return [30, 30, 30];
    if (inside(x, y, 78, 56, 157, 78)) return [190, 220, 235];
    if (inside(x, y, 30, 78, 210, 112) || inside(x, y, 70, 50, 165, 78)) return color;
    if (y >= 120) return [95, 95, 100];
    return [135 + Math.round((100 * y) / 120), 190 + Math.round((50 * y) / 120), 250];
  });
}
