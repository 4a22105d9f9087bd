/**
 * Reads a file named on the command line (--tasks, --references, --file, --api-key-file) only
 * when it is a regular file no larger than a cap, checked before anything is read: `--file
 * /dev/zero` once grew to ~12 GB before a size cap applied, and `--file` of a FIFO hung with no
 * word. The open does not block (O_NONBLOCK: a FIFO with no writer opens at once), the open file
 * is checked (fstat: the same file that is then read, not the path again), and at most
 * maxBytes + 1 bytes are read, so a file that grows past the cap after the check is refused too.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** "12 B", "64 KB", "20 MB", "3.2 GB" (powers of 1024). */
export function humanBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  if (i === 0) return `${n} B`;
  const s = v >= 100 ? Math.round(v).toString() : v.toFixed(1).replace(/\.0$/, '');
  return `${s} ${units[i]}`;
}

function notRegular(st: Stats): string | null {
  if (st.isFile()) return null;
  if (st.isFIFO()) return 'is a named pipe (FIFO), not a regular file';
  if (st.isDirectory()) return 'is a directory, not a regular file';
  if (st.isCharacterDevice()) return 'is a device (character device), not a regular file';
  if (st.isBlockDevice()) return 'is a device (block device), not a regular file';
  if (st.isSocket()) return 'is a socket, not a regular file';
  return 'is not a regular file';
}

export interface ReadInputOptions {
  /** How the limit reads in a refusal (default: the cap in a human unit), e.g. "20 MB for all the files together". */
  limit?: string;
  /** A symbolic link at `file` is refused (O_NOFOLLOW), not followed: for what the batch keeps in --out. */
  noFollow?: boolean;
}

/**
 * The bytes of `file`, or an Error a person understands when it is not a regular file or is
 * larger than `maxBytes` ("tasks.jsonl is 3.2 GB; the limit is 50 MB"). A missing file keeps
 * Node's ENOENT message, which names the file.
 */
export function readInputFile(file: string, maxBytes: number, opts: ReadInputOptions = {}): Buffer {
  const limit = opts.limit ?? humanBytes(maxBytes);
  // O_NONBLOCK: opening a FIFO for reading with no writer would otherwise wait for one forever.
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | (opts.noFollow ? constants.O_NOFOLLOW : 0));
  } catch (e) {
    if (opts.noFollow && (e as NodeJS.ErrnoException).code === 'ELOOP') throw new Error(`${file} is a symbolic link, which is not followed here`, { cause: e });
    throw e;
  }
  try {
    const st = fstatSync(fd);
    const why = notRegular(st);
    if (why) throw new Error(`${file} ${why}`);
    if (st.size > maxBytes) throw new Error(`${file} is ${humanBytes(st.size)}; the limit is ${limit}`);
    // At most maxBytes + 1 bytes: one more than allowed tells that the file grew past the cap.
    const cap = maxBytes + 1;
    let buf = Buffer.alloc(Math.min(cap, st.size + 1));
    let got = 0;
    for (;;) {
      if (got === buf.length) {
        if (buf.length >= cap) break;
        const bigger = Buffer.alloc(Math.min(cap, buf.length * 2));
        buf.copy(bigger, 0, 0, got);
        buf = bigger;
      }
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
    }
    if (got > maxBytes) throw new Error(`${file} grew past the limit of ${limit} while it was read`);
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** readInputFile as UTF-8 text. */
export function readInputText(file: string, maxBytes: number, opts: ReadInputOptions = {}): string {
  return readInputFile(file, maxBytes, opts).toString('utf8');
}
