/**
 * A task's folder on its way through Redis (docs/batch.md): packed by the worker as a zip of
 * stored (uncompressed) entries, one a file, no subfolders; checked and unpacked by the
 * submitting side into a folder whose name it made itself. Neither side builds a path from what
 * the other sent without checking that it stays where it belongs (`childPath`).
 *
 * What the submitting side takes: a zip no larger than ARTEFACT_LIMITS.zipBytes (checked in Redis
 * before it is fetched), whose End of Central Directory and central directory say, before any
 * file is copied, that it holds at most ARTEFACT_LIMITS.files entries, each a plain name stored
 * without compression, in order, none overlapping another (src/core/batch/zip-entries.ts): the
 * bytes unpacked are never more than the bytes received (no zip bomb, no name twice over the same
 * bytes).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { mb, readZipEntries, type ZipLimits } from '../../src/core/batch/zip-entries';

export const ARTEFACT_LIMITS = { zipBytes: 300 * 1024 * 1024, files: 2_000, nameChars: 100 } as const;

export { mb };

/**
 * `root/name`, when that is a direct child of `root` (resolved); else it throws. For every path
 * made from a task id or a name that came through the queue, before anything is written or removed.
 */
export function childPath(root: string, name: string): string {
  const base = path.resolve(root);
  const full = path.resolve(base, name);
  if (path.dirname(full) !== base || !path.basename(full) || name !== path.basename(full)) {
    throw new Error(`"${name.slice(0, 160)}" is not a plain name inside ${base}`);
  }
  return full;
}

/** The files of a task's folder as a zip of stored entries (the worker's side). */
export function packFolder(dir: string): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const name of readdirSync(dir)) {
    const full = childPath(dir, name);
    if (statSync(full).isFile()) files[name] = readFileSync(full);
  }
  return zipSync(files, { level: 0 });
}

/**
 * A received zip's files, or why it is refused: nothing is copied before its directory has been
 * read and checked whole; the files are views into `zip` (no copy).
 */
export function readArtefacts(zip: Uint8Array, limits: ZipLimits = ARTEFACT_LIMITS): Record<string, Uint8Array> | string {
  if (zip.byteLength > limits.zipBytes) return `its folder's zip is ${mb(zip.byteLength)}; the limit is ${mb(limits.zipBytes)}`;
  const read = readZipEntries(zip, limits);
  if (!read.ok) return read.problem;
  return Object.fromEntries(read.entries.map((e) => [e.name, zip.subarray(e.start, e.end)]));
}

/** The files into `out/folder`, unpacked under a temporary name and renamed when whole. */
export function unpackFolder(files: Record<string, Uint8Array>, out: string, folder: string): void {
  const final = childPath(out, folder);
  const work = childPath(out, `.${folder}.incoming-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) writeFileSync(childPath(work, name), bytes);
  rmSync(final, { recursive: true, force: true });
  renameSync(work, final);
}
