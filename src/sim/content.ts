import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import type { SimContent } from './model.js';

const BLOCK = 64 * 1024;

/** One 64 KiB block derived from a seed (SHA-256 in counter mode), computed once per stream. */
function seedBlock(seed: number): Buffer {
  const out = Buffer.alloc(BLOCK);
  for (let i = 0; i < BLOCK / 32; i++)
    createHash('sha256')
      .update(`${seed}:${i}`)
      .digest()
      .copy(out, i * 32);
  return out;
}

/**
 * Streams media bytes. Generated content repeats the seed block with each chunk's index stamped in
 * its first bytes: deterministic, distinct per chunk, and cheap enough for a 200 MB recording.
 */
export function contentStream(content: SimContent): Readable {
  if (content.kind === 'bytes') return Readable.from([content.data]);
  const block = seedBlock(content.seed);
  let sent = 0;
  let index = 0;
  return new Readable({
    highWaterMark: BLOCK,
    read() {
      if (sent >= content.size) {
        this.push(null);
        return;
      }
      const n = Math.min(BLOCK, content.size - sent);
      const chunk = Buffer.from(block.subarray(0, n));
      chunk.writeUInt32BE(index++ >>> 0, 0);
      sent += n;
      this.push(chunk);
    },
  });
}

/** The byte length of `zipStream(entries)`: known before a byte is written, so it can be announced. */
export function zipSize(entries: { name: string; content: SimContent }[]): number {
  let total = 22; // end of central directory
  for (const entry of entries) {
    const name = Buffer.byteLength(entry.name, 'utf8');
    const size = entry.content.kind === 'bytes' ? entry.content.data.length : entry.content.size;
    total += 30 + name + size + 16 + 46 + name;
  }
  return total;
}

/**
 * A ZIP archive (stored, no compression) written as a stream: each entry's CRC and sizes go in a
 * data descriptor after its bytes, so nothing is buffered.
 */
export function zipStream(entries: { name: string; content: SimContent }[]): Readable {
  async function* generate() {
    const central: Buffer[] = [];
    let offset = 0;
    for (const entry of entries) {
      const name = Buffer.from(entry.name, 'utf8');
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4); // version needed
      local.writeUInt16LE(0x0808, 6); // data descriptor follows; UTF-8 names
      local.writeUInt16LE(0, 8); // stored
      local.writeUInt16LE(name.length, 26);
      yield local;
      yield name;
      let crc = 0;
      let size = 0;
      for await (const chunk of contentStream(entry.content)) {
        crc = crc32(chunk as Buffer, crc);
        size += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc >>> 0, 4);
      descriptor.writeUInt32LE(size, 8);
      descriptor.writeUInt32LE(size, 12);
      yield descriptor;
      const dir = Buffer.alloc(46);
      dir.writeUInt32LE(0x02014b50, 0);
      dir.writeUInt16LE(20, 4);
      dir.writeUInt16LE(20, 6);
      dir.writeUInt16LE(0x0808, 8);
      dir.writeUInt32LE(crc >>> 0, 16);
      dir.writeUInt32LE(size, 20);
      dir.writeUInt32LE(size, 24);
      dir.writeUInt16LE(name.length, 28);
      dir.writeUInt32LE(offset, 42);
      central.push(dir, name);
      offset += 30 + name.length + size + 16;
    }
    const dirBytes = Buffer.concat(central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(dirBytes.length, 12);
    end.writeUInt32LE(offset, 16);
    yield dirBytes;
    yield end;
  }
  return Readable.from(generate());
}
