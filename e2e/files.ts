import { deflateSync } from 'node:zlib';

// Files the tests attach, made here so that no binary is kept in the repository.

/** CRC-32 of PNG chunks (the common polynomial). */
function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A real PNG, `size` pixels square: two colours in diagonal bands, so a thumbnail shows something. */
type Rgb = [number, number, number];

export function png(size: number, one: Rgb, other: Rgb): Buffer {
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0);
    for (let x = 0; x < size; x++) {
      const first = Math.floor((x + y) / (size / 4)) % 2 === 0;
      rows.push(...(first ? one : other));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', new Uint8Array()),
  ]);
}

/** The photo the attachment specs attach: 96 px, indigo and yellow. */
export const photo = {
  name: 'photo.png',
  mimeType: 'image/png',
  buffer: png(96, [79, 70, 229], [250, 204, 21]),
};
