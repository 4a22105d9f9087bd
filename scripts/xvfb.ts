/**
 * A virtual X display for headed Chromium on a machine without a screen (CI, servers): starts
 * Xvfb on a free display number (Xvfb picks it and writes it to -displayfd once it accepts
 * connections). Debian/Ubuntu: apt-get install xvfb (.ci/run does).
 */
import { spawn, execFileSync } from 'node:child_process';
import { browserEnv } from './browser-env';

export interface Display { display: string; close(): Promise<void> }

/** Whether the Xvfb binary is installed. */
export function hasXvfb(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v Xvfb'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Starts Xvfb; resolves with its display (":N") once it is ready. */
export function startXvfb(size = '1920x1080x24', timeoutMs = 10_000): Promise<Display> {
  return new Promise((resolve, reject) => {
    const proc = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', size, '-nolisten', 'tcp'], { env: browserEnv(process.env), stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let err = '';
    let out = '';
    proc.stderr!.on('data', (d) => { err = (err + d).slice(-2000); });
    const fail = (why: string) => { clearTimeout(timer); proc.kill(); reject(new Error(`Xvfb did not start: ${why}${err ? `\n${err.trim()}` : ''}`)); };
    const timer = setTimeout(() => fail(`no display after ${timeoutMs} ms`), timeoutMs);
    proc.on('error', (e) => fail(`${e.message} (install it: apt-get install xvfb)`));
    proc.on('exit', (code) => fail(`it exited (${code})`));
    (proc.stdio[3] as NodeJS.ReadableStream).on('data', (d) => {
      out += d;
      const n = /^(\d+)\n/.exec(out);
      if (!n) return;
      clearTimeout(timer);
      proc.removeAllListeners('exit');
      resolve({
        display: `:${n[1]}`,
        close: () => new Promise<void>((done) => {
          if (proc.exitCode !== null) return done();
          proc.once('exit', () => done());
          proc.kill();
        }),
      });
    });
  });
}
