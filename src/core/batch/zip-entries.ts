/**
 * A task folder's zip as it comes from a worker (docs/batch.md, "Who trusts what"), read from its
 * End of Central Directory and central directory before a single byte of a file is copied: what
 * the zip says it holds is checked first, so a zip that would unpack into more than it is never
 * unpacks at all. Today's workers write it with fflate's zipSync at level 0: stored entries, one
 * after the other, the central directory after the last, the End of Central Directory at the end.
 *
 * Taken only when:
 * - the End of Central Directory ends the zip (a comment up to its end), on one disk, without
 *   zip64, and its entry count is at most the limit (checked before the directory is read);
 * - the central directory lies right before it and holds exactly that many entries;
 * - each entry is stored (method 0), not encrypted, its stored size equal to its size, no zip64
 *   size or offset, a plain unique name; its local header sits where the directory says, with the
 *   same name, method and sizes;
 * - each entry (its local header and its bytes) lies before the central directory, after the one
 *   listed before it: entries in increasing order, none overlapping another, so no byte is
 *   unpacked twice;
 * - the bytes out add up to no more than the zip's size and the limit.
 * Pure: offsets into the zip, never a copy.
 */

/** A file of the zip: its name and where its bytes are (`zip.subarray(start, end)`). */
export interface ZipEntry { name: string; start: number; end: number }

export type ZipRead = { ok: true; entries: ZipEntry[] } | { ok: false; problem: string };

export interface ZipLimits {
  /** the most bytes all files may add up to */
  zipBytes: number;
  /** the most files */
  files: number;
  /** the longest name */
  nameChars: number;
}

/** A plain file name: letters, digits, `.`, `_`, `-`; no folder, no leading dot. */
export const PLAIN_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

const EOCD_SIG = 0x06054b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
const EOCD_BYTES = 22;
const CENTRAL_BYTES = 46;
const LOCAL_BYTES = 30;
/** a 32-bit field that means "see the zip64 record" */
const ZIP64_32 = 0xffffffff;
const ZIP64_16 = 0xffff;

/** "3.2 MB" */
export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A name as it may be shown: printable ASCII, the rest as `?`, 80 characters at most. */
function shown(name: string): string {
  return name.slice(0, 80).replace(/[^\x20-\x7e]/g, '?');
}

/** Where the End of Central Directory starts: the last signature whose record (with its comment) ends the zip exactly. */
function findEocd(v: DataView): number {
  const last = v.byteLength - EOCD_BYTES;
  for (let at = last; at >= 0 && at >= last - ZIP64_16; at--) {
    if (v.getUint32(at, true) === EOCD_SIG && at + EOCD_BYTES + v.getUint16(at + 20, true) === v.byteLength) return at;
  }
  return -1;
}

/** The files of `zip` and where their bytes lie, or why the zip is refused (said as the rest of a sentence "the worker's result was refused: …"). */
export function readZipEntries(zip: Uint8Array, limits: ZipLimits): ZipRead {
  const no = (problem: string): ZipRead => ({ ok: false, problem });
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = findEocd(v);
  if (eocd < 0) return no('its folder\'s zip cannot be read (no end of central directory: not a zip, or cut short)');
  const disk = v.getUint16(eocd + 4, true);
  const cdDisk = v.getUint16(eocd + 6, true);
  const onDisk = v.getUint16(eocd + 8, true);
  const count = v.getUint16(eocd + 10, true);
  const cdSize = v.getUint32(eocd + 12, true);
  const cdStart = v.getUint32(eocd + 16, true);
  if (count === ZIP64_16 || onDisk === ZIP64_16 || cdSize === ZIP64_32 || cdStart === ZIP64_32) return no('its folder\'s zip is a zip64 (a worker\'s folder never needs one)');
  if (disk !== 0 || cdDisk !== 0 || onDisk !== count) return no('its folder\'s zip spans several disks');
  if (count > limits.files) return no(`its folder holds more than ${limits.files} files (its zip says ${count})`);
  if (cdStart + cdSize !== eocd) return no('its folder\'s zip cannot be read (its central directory is not where it says)');

  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  const decoder = new TextDecoder('utf-8', { fatal: false });
  /** where the entry listed before ends: the next one starts here or later */
  let after = 0;
  let total = 0;
  let at = cdStart;
  for (let i = 0; i < count; i++) {
    if (at + CENTRAL_BYTES > eocd || v.getUint32(at, true) !== CENTRAL_SIG) return no('its folder\'s zip cannot be read (its central directory is cut short or holds fewer entries than it says)');
    const flags = v.getUint16(at + 8, true);
    const method = v.getUint16(at + 10, true);
    const stored = v.getUint32(at + 20, true);
    const size = v.getUint32(at + 24, true);
    const nameLen = v.getUint16(at + 28, true);
    const extraLen = v.getUint16(at + 30, true);
    const commentLen = v.getUint16(at + 32, true);
    const startDisk = v.getUint16(at + 34, true);
    const local = v.getUint32(at + 42, true);
    const next = at + CENTRAL_BYTES + nameLen + extraLen + commentLen;
    if (next > eocd) return no('its folder\'s zip cannot be read (its central directory is cut short)');
    const nameBytes = zip.subarray(at + CENTRAL_BYTES, at + CENTRAL_BYTES + nameLen);
    const name = decoder.decode(nameBytes);
    at = next;

    if (name.length > limits.nameChars || !PLAIN_NAME.test(name)) return no(`its folder holds "${shown(name)}", which is not a plain file name`);
    if (names.has(name)) return no(`its folder holds "${name}" twice`);
    names.add(name);
    if (stored === ZIP64_32 || size === ZIP64_32 || local === ZIP64_32 || startDisk === ZIP64_16) return no(`its folder's "${name}" is a zip64 entry (a worker's folder never needs one)`);
    if (startDisk !== 0) return no('its folder\'s zip spans several disks');
    if (flags & 1) return no(`its folder's "${name}" is encrypted`);
    if (method !== 0) return no(`its folder's "${name}" is compressed (a worker stores files as they are)`);
    if (stored !== size) return no(`its folder's "${name}" is stored as ${stored} bytes and says it unpacks to ${size}`);

    // its bytes are where its local header says, not where the directory would like them
    if (local < after) return no(`its folder's "${name}" starts inside or before the file listed before it (each file's bytes are stored once, in order)`);
    if (local + LOCAL_BYTES > cdStart || v.getUint32(local, true) !== LOCAL_SIG) return no(`its folder's "${name}" has no local header where the central directory says`);
    const localName = v.getUint16(local + 26, true);
    const localExtra = v.getUint16(local + 28, true);
    const start = local + LOCAL_BYTES + localName + localExtra;
    const end = start + size;
    if (end > cdStart) return no(`its folder's "${name}" runs past the end of the files (into the central directory or beyond the zip)`);
    const sameName = localName === nameLen && zip.subarray(local + LOCAL_BYTES, local + LOCAL_BYTES + localName).every((b, k) => b === nameBytes[k]);
    if (!sameName || v.getUint16(local + 8, true) !== 0 || v.getUint32(local + 18, true) !== stored || v.getUint32(local + 22, true) !== size) {
      return no(`its folder's "${name}" has a local header that does not match the central directory (its name, method or sizes)`);
    }
    after = end;
    total += size;
    entries.push({ name, start, end });
  }
  if (at !== eocd) return no('its folder\'s zip cannot be read (its central directory holds more than its entries)');
  // both hold once the entries are in order and apart; said here in so many words
  if (total > zip.byteLength) return no(`its folder's files add up to ${mb(total)}, more than its zip's ${mb(zip.byteLength)}`);
  if (total > limits.zipBytes) return no(`its folder's files add up to ${mb(total)}; the limit is ${mb(limits.zipBytes)}`);
  return { ok: true, entries };
}
