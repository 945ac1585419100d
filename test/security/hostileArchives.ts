import { constants, deflateRawSync } from 'node:zlib';

/** Small hostile archives built on the fly: a header may say anything, the bytes behind it are few. */

/** A ustar header block; a size past the 11-digit octal field is written in base-256, as GNU tar does. */
export function tarHeader(name: string, size: number, type: string): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'utf8');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  if (size < 8 ** 11) header.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  else {
    header[124] = 0x80;
    let rest = BigInt(size);
    for (let i = 135; i > 124; i--, rest >>= 8n) header[i] = Number(rest & 0xffn);
  }
  header.write('00000000000\0', 136);
  header.fill(0x20, 148, 156);
  header.write(type, 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  let sum = 0;
  for (const b of header) sum += b;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return header;
}

/** A pax record "LEN key=value\n". */
export function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length++;
  return Buffer.from(`${length}${body}`);
}

const pad = (bytes: Buffer): Buffer => Buffer.concat([bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512)]);

/** A 2 KB pack whose pax header declares `declared` bytes of pax records (3 GiB in the report). */
export function paxHeaderDeclaring(declared: number): Buffer {
  return Buffer.concat([
    tarHeader('PaxHeader', declared, 'x'),
    pad(paxRecord('path', 'events.jsonl')),
    tarHeader('events.jsonl', 2, '0'),
    pad(Buffer.from('{}')),
    Buffer.alloc(0),
  ]).subarray(0, 2048);
}

/** A pack whose pax `size` record says the next file is `declared` bytes (8 GiB in the report), with 2 bytes behind it. */
export function paxSizeRecord(declared: number): Buffer {
  const records = paxRecord('size', String(declared));
  return Buffer.concat([
    tarHeader('PaxHeader', records.length, 'x'),
    pad(records),
    tarHeader('events.jsonl', 2, '0'),
    pad(Buffer.from('{}')),
    Buffer.alloc(1024),
  ]);
}

/** A pack whose ustar header says the first file is `declared` bytes (base-256 past 8 GiB). */
export function ustarDeclaring(declared: number): Buffer {
  return Buffer.concat([tarHeader('events.jsonl', declared, '0'), pad(Buffer.from('{}')), Buffer.alloc(1024)]);
}

/** A tar of the given files, written plainly (for limit cases: many files, deep paths). */
export function plainTar(files: ReadonlyArray<[string, Buffer]>): Buffer {
  return Buffer.concat([...files.flatMap(([name, bytes]) => [tarHeader(name, bytes.length, '0'), pad(bytes)]), Buffer.alloc(1024)]);
}

/** A zip of stored or deflated entries, written by hand so names may repeat and sizes may be anything. */
export function zipOf(entries: ReadonlyArray<{ name: string; data: Buffer; deflated: boolean; size: number }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.deflated ? 8 : 0, 8);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(Math.min(entry.size, 0xfffffffe), 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.deflated ? 8 : 0, 10);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(Math.min(entry.size, 0xfffffffe), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * A deflate stream of `mebibytes` MiB of zeros in about a KiB per MiB: one flushed MiB of zeros, repeated (each
 * repeat copies from the zeros before it), then a final empty block. 3,072 repeats are a 3 MB file that inflates to 3 GiB.
 */
export function zeroBomb(mebibytes: number): Buffer {
  const first = deflateRawSync(Buffer.alloc(1 << 20), { finishFlush: constants.Z_SYNC_FLUSH });
  return Buffer.concat([...Array.from({ length: mebibytes }, () => first), Buffer.from([0x03, 0x00])]);
}
