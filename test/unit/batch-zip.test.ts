/**
 * A worker's folder zip read from its directory before anything is copied
 * (src/core/batch/zip-entries.ts, docs/batch.md "Who trusts what"): what a worker packs reads
 * back; what would unpack into more than was received, or hides what it is, is refused with why.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { readZipEntries, type ZipLimits } from '../../src/core/batch/zip-entries';
import { ARTEFACT_LIMITS, packFolder, readArtefacts } from '../../scripts/batch/artefacts';
import { craftZip, overlappingZip } from '../fixtures/zips';

const LIMITS: ZipLimits = ARTEFACT_LIMITS;
const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);
const problem = (zip: Uint8Array, limits: ZipLimits = LIMITS) => { const r = readZipEntries(zip, limits); return r.ok ? null : r.problem; };

describe('a worker\'s folder zip', () => {
  it('reads back what packFolder made, each file a view of its own bytes', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'webagent-zip-'));
    const src = path.join(dir, 'src');
    mkdirSync(src);
    writeFileSync(path.join(src, 'trace.json'), '{"steps":[]}');
    writeFileSync(path.join(src, 'screenshot1.png'), bytes(3000, 7));
    writeFileSync(path.join(src, 'empty.txt'), '');
    const zip = packFolder(src);
    const files = readArtefacts(zip);
    expect(typeof files).toBe('object');
    const f = files as Record<string, Uint8Array>;
    expect(Object.keys(f).sort()).toEqual(['empty.txt', 'screenshot1.png', 'trace.json']);
    expect(new TextDecoder().decode(f['trace.json'])).toBe('{"steps":[]}');
    expect(f['screenshot1.png']).toEqual(bytes(3000, 7));
    expect(f['empty.txt'].length).toBe(0);
    // views into the zip, not copies
    expect(f['screenshot1.png'].buffer).toBe(zip.buffer);
    // and a hand-made plain zip reads the same way
    expect(readArtefacts(craftZip([{ name: 'a.txt', data: bytes(5) }, { name: 'b.txt', data: bytes(2, 9) }]))).toEqual({ 'a.txt': bytes(5), 'b.txt': bytes(2, 9) });
  });

  it('refuses names pointing at one entry (issue 48: 1,998 names over 100 KB made 199.9 MB from 219 KB)', () => {
    const zip = overlappingZip(1998, 100 * 1024);
    expect(zip.byteLength).toBeLessThan(250 * 1024);
    expect(problem(zip)).toBe('its folder\'s "f1.bin" starts inside or before the file listed before it (each file\'s bytes are stored once, in order)');
    // a record pointing into the middle of the entry before it
    const a = { name: 'a.bin', data: bytes(100) };
    expect(problem(craftZip([a, { name: 'b.bin', data: bytes(10) }], [{ name: 'a.bin', of: 0 }, { name: 'b.bin', of: 1, offset: 40 }])))
      .toMatch(/"b\.bin" starts inside or before the file listed before it/);
  });

  it('refuses entries listed out of order', () => {
    const zip = craftZip([{ name: 'a.txt', data: bytes(10) }, { name: 'b.txt', data: bytes(10) }], [{ name: 'b.txt', of: 1 }, { name: 'a.txt', of: 0 }]);
    expect(problem(zip)).toMatch(/^its folder's "a\.txt" starts inside or before the file listed before it/);
  });

  it('refuses too many entries from the End of Central Directory\'s count, before the directory is read', () => {
    // the directory it points at is not even there: only the count is read
    const zip = craftZip([], [], { count: LIMITS.files + 1, cdStart: 1_000_000, cdSize: 5 });
    expect(problem(zip)).toBe(`its folder holds more than ${LIMITS.files} files (its zip says ${LIMITS.files + 1})`);
    const many = craftZip(Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.txt`, data: bytes(1) })));
    expect(problem(many, { ...LIMITS, files: 5 })).toBe('its folder holds more than 5 files (its zip says 6)');
    expect(problem(many, { ...LIMITS, files: 6 })).toBeNull();
  });

  it('refuses a compressed, encrypted or mis-sized entry', () => {
    expect(problem(zipSync({ 'bomb.txt': new Uint8Array(1_000_000) }, { level: 9 }))).toBe('its folder\'s "bomb.txt" is compressed (a worker stores files as they are)');
    expect(problem(craftZip([{ name: 'a.txt', data: bytes(10) }], [{ name: 'a.txt', of: 0, flags: 1 }]))).toBe('its folder\'s "a.txt" is encrypted');
    expect(problem(craftZip([{ name: 'a.txt', data: bytes(10) }], [{ name: 'a.txt', of: 0, size: 10_000 }]))).toBe('its folder\'s "a.txt" is stored as 10 bytes and says it unpacks to 10000');
    // the directory says stored, the local header says deflated
    expect(problem(craftZip([{ name: 'a.txt', data: bytes(10), method: 8 }]))).toMatch(/"a\.txt" has a local header that does not match the central directory/);
    // the directory names one file, the local header another
    expect(problem(craftZip([{ name: 'a.txt', data: bytes(10) }], [{ name: 'b.txt', of: 0 }]))).toMatch(/"b\.txt" has a local header that does not match/);
  });

  it('refuses zip64 markers and several disks', () => {
    const one = [{ name: 'a.txt', data: bytes(10) }];
    expect(problem(craftZip(one, [{ name: 'a.txt', of: 0, stored: 0xffffffff, size: 0xffffffff }]))).toBe('its folder\'s "a.txt" is a zip64 entry (a worker\'s folder never needs one)');
    expect(problem(craftZip(one, [{ name: 'a.txt', of: 0, offset: 0xffffffff }]))).toMatch(/"a\.txt" is a zip64 entry/);
    expect(problem(craftZip(one, undefined, { count: 0xffff }))).toBe('its folder\'s zip is a zip64 (a worker\'s folder never needs one)');
    expect(problem(craftZip(one, undefined, { cdStart: 0xffffffff }))).toMatch(/is a zip64/);
    expect(problem(craftZip(one, undefined, { disk: 1 }))).toBe('its folder\'s zip spans several disks');
    expect(problem(craftZip(one, [{ name: 'a.txt', of: 0, disk: 2 }]))).toBe('its folder\'s zip spans several disks');
  });

  it('refuses a truncated zip, and one whose directory is not where it says', () => {
    const zip = zipSync({ 'a.txt': bytes(100), 'b.txt': bytes(100) }, { level: 0 });
    expect(problem(zip)).toBeNull();
    expect(problem(zip.subarray(0, zip.length - 5))).toMatch(/^its folder's zip cannot be read \(no end of central directory/);
    expect(problem(zip.subarray(0, 150))).toMatch(/^its folder's zip cannot be read \(no end of central directory/);
    // the front cut off: the End of Central Directory is whole, its offsets point past what is left
    expect(problem(zip.subarray(60))).toBe('its folder\'s zip cannot be read (its central directory is not where it says)');
    expect(problem(new Uint8Array([1, 2, 3, 4]))).toMatch(/no end of central directory/);
    // the directory says one entry more than it holds
    const one = [{ name: 'a.txt', data: bytes(10) }];
    expect(problem(craftZip(one, [{ name: 'a.txt', of: 0 }], { count: 2 }))).toMatch(/holds fewer entries than it says/);
    // an entry that runs into the central directory
    expect(problem(craftZip(one, [{ name: 'a.txt', of: 0, stored: 50, size: 50 }]))).toMatch(/"a\.txt" runs past the end of the files/);
    // a record pointing where there is no local header
    expect(problem(craftZip([{ name: 'a.txt', data: bytes(60) }], [{ name: 'a.txt', of: 0, offset: 10, stored: 5, size: 5 }]))).toMatch(/"a\.txt" has no local header where the central directory says/);
  });

  it('refuses a name twice, and a name that is not plain', () => {
    expect(problem(craftZip([{ name: 'a.txt', data: bytes(3) }, { name: 'a.txt', data: bytes(4) }]))).toBe('its folder holds "a.txt" twice');
    for (const name of ['../../evil.sh', 'sub/x.txt', '.bashrc', 'a\\b', 'n\u202eame']) {
      expect(problem(craftZip([{ name, data: bytes(3) }])), name).toMatch(/which is not a plain file name$/);
    }
    expect(problem(craftZip([{ name: 'x'.repeat(101), data: bytes(3) }]))).toMatch(/not a plain file name/);
  });

  it('keeps the files\' total to the limit', () => {
    const zip = craftZip([{ name: 'a.bin', data: bytes(3000) }, { name: 'b.bin', data: bytes(3000) }]);
    expect(problem(zip, { ...LIMITS, zipBytes: 5000 })).toMatch(/^its folder's files add up to 0\.0 MB; the limit is 0\.0 MB$/);
    expect(problem(zip, { ...LIMITS, zipBytes: 6000 })).toBeNull();
    // readArtefacts measures the zip first
    expect(readArtefacts(zip, { ...LIMITS, zipBytes: 5000 })).toMatch(/^its folder's zip is 0\.0 MB; the limit is 0\.0 MB$/);
  });
});
