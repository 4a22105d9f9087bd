/**
 * Real heavy pages for the bench: Debian's documentation packages, served from /usr/share/doc.
 * ensureDocs installs the packages that are missing with apt-get (root on Debian), waiting for
 * another apt-get instead of failing (scripts/apt.ts); elsewhere the part that needs them is
 * skipped with a note.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { aptGet } from '../../scripts/apt';

export const DOC = '/usr/share/doc';

export interface DocPage { pkg: string; file: string }

/** True when every page's file is there (installed now if needed and allowed). */
export function ensureDocs(pages: DocPage[], part: string, log: (s: string) => void): boolean {
  const missing = [...new Set(pages.filter((p) => !existsSync(path.join(DOC, p.file))).map((p) => p.pkg))];
  if (!missing.length) return true;
  const isRoot = process.getuid?.() === 0 && existsSync('/etc/debian_version');
  if (!isRoot) {
    log(`${part}: skipped: ${missing.join(', ')} not installed (apt-get install ${missing.join(' ')})`);
    return false;
  }
  log(`${part}: installing ${missing.join(', ')} with apt-get`);
  try {
    aptGet(['update'], log);
    aptGet(['install', '-y', ...missing], log);
  } catch (e) {
    log(`${part}: skipped: apt-get failed (${e instanceof Error ? e.message : String(e)})`);
    return false;
  }
  return pages.every((p) => existsSync(path.join(DOC, p.file)));
}
