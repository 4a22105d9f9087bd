/**
 * A task's folder on its way through Redis (docs/batch.md): packed by the worker as a zip of
 * stored (uncompressed) entries, one a file, no subfolders; checked and unpacked by the
 * submitting side into a folder whose name it made itself. Neither side builds a path from what
 * the other sent without checking that it stays where it belongs (`childPath`).
 *
 * What the submitting side takes: at most ARTEFACT_LIMITS.files entries, each a plain name
 * (letters, digits, `.`, `_`, `-`; no folder, no leading dot) stored without compression, so the
 * bytes unpacked are never more than the bytes received (no zip bomb), and the zip itself no
 * larger than ARTEFACT_LIMITS.zipBytes (checked in Redis before it is fetched).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync, zipSync } from 'fflate';

export const ARTEFACT_LIMITS = { zipBytes: 300 * 1024 * 1024, files: 2_000, nameChars: 100 } as const;

/** "3.2 MB" */
export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const PLAIN_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

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

/** A received zip's files, or why it is refused. */
export function readArtefacts(zip: Uint8Array, limits: { zipBytes: number; files: number; nameChars: number } = ARTEFACT_LIMITS): Record<string, Uint8Array> | string {
  if (zip.byteLength > limits.zipBytes) return `its folder's zip is ${mb(zip.byteLength)}; the limit is ${mb(limits.zipBytes)}`;
  let problem: string | null = null;
  let n = 0;
  try {
    const files = unzipSync(zip, {
      filter: (f) => {
        n++;
        if (problem) return false;
        if (n > limits.files) problem = `its folder holds more than ${limits.files} files`;
        else if (f.name.length > limits.nameChars || !PLAIN_NAME.test(f.name)) problem = `its folder holds "${f.name.slice(0, 80).replace(/[^\x20-\x7e]/g, '?')}", which is not a plain file name`;
        else if (f.compression !== 0) problem = `its folder's "${f.name}" is compressed (a worker stores files as they are)`;
        return !problem;
      },
    });
    return problem ?? files;
  } catch (e) {
    return `its folder's zip cannot be read (${e instanceof Error ? e.message : String(e)})`;
  }
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
