/** Shared pieces of the end-to-end tests: fixture sites, the agent CLI, trace checks. */
import { spawn } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';
import path from 'node:path';
import { serveDir, type StaticServer } from '../../scripts/static-server';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const PAGES = path.join(ROOT, 'test', 'fixtures', 'pages');

export function serveFixtures(): Promise<StaticServer> {
  return serveDir(PAGES);
}

export interface CliResult { code: number | null; stdout: string; stderr: string }

/**
 * Runs `npm run agent -- ARGS` as a user would (through tsx, without npm's banner).
 * `input`: written to the runner's stdin, which is then closed (answers to approval prompts);
 * without it stdin is closed at once.
 */
export function runAgentCli(args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'scripts', 'agent.ts'), ...args], {
      cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    // Without input, stdin is closed at once (as /dev/null would be).
    child.stdin.on('error', () => undefined); // the runner may exit before reading it all
    child.stdin.end(input ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Plain headless Chromium (no extension) for the labeler's harness tests: Debian's build, never a download. */
export function launchPlainChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}
