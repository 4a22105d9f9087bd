/**
 * Writing the files a batch keeps at the top of --out (results.jsonl, summary.html) without ever
 * writing through a symbolic link someone left there (docs/batch.md, "Who trusts what"):
 * - an append opens the file with O_NOFOLLOW: a link at its name fails the open (ELOOP), and its
 *   target is not touched, even a link to a file that does not exist yet;
 * - a whole file is written to a temporary file beside it, created anew (O_EXCL | O_NOFOLLOW, a
 *   stale one removed first: removing a link removes the link), then renamed over the name, which
 *   replaces a link there itself, never its target.
 * Only the last part of the name is guarded: --out itself is the person's own choice.
 */
import { closeSync, constants, openSync, renameSync, rmSync, writeSync } from 'node:fs';

function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
}

function refusedLink(file: string, e: unknown): Error {
  return (e as NodeJS.ErrnoException).code === 'ELOOP'
    ? new Error(`${file} is a symbolic link: the batch does not write through one (remove it, or choose another --out)`, { cause: e })
    : (e as Error);
}

/** Appends `data` to `file` (made when missing), never through a symbolic link. */
export function appendNoFollow(file: string, data: string | Uint8Array): void {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o666);
  } catch (e) {
    throw refusedLink(file, e);
  }
  try {
    writeAll(fd, data);
  } finally {
    closeSync(fd);
  }
}

/** `file`'s content replaced whole by `data`: a new file renamed over it (a symbolic link there is replaced, its target untouched). */
export function replaceFile(file: string, data: string | Uint8Array): void {
  const tmp = `${file}.tmp-${process.pid}`;
  // a stale one (a crash, or a link put there): removed, a link as a link
  rmSync(tmp, { force: true });
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
  try {
    writeAll(fd, data);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, file);
}
