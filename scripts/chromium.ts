/**
 * Finds Chromium (README: Chromium): CHROME_PATH, then /usr/bin/chromium,
 * chromium-browser, google-chrome. As root on Debian with none found, installs
 * Debian's `chromium` with apt-get (saying so; waiting for another apt-get or dpkg to finish
 * rather than failing on its lock: apt.ts); otherwise stops with a message.
 * Never downloads a browser build.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { aptGet } from './apt';

function which(name: string): string | null {
  try {
    const out = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    return out || null;
  } catch {
    return null;
  }
}

export function findChromium(): string | null {
  const env = process.env.CHROME_PATH;
  if (env && existsSync(env)) return env;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const p = which(name);
    if (p) return p;
  }
  return null;
}

export function ensureChromium(): string {
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/etc/debian_version')) {
    console.error('Chromium not found: installing Debian\'s "chromium" package with apt-get…');
    const log = (line: string) => console.error(line);
    aptGet(['update', '-qq'], log);
    aptGet(['install', '-y', '-qq', 'chromium'], log);
    const after = findChromium();
    if (after) return after;
  }
  console.error('Chromium not found. Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROME_PATH to a Chrome/Chromium binary.');
  process.exit(2);
}
