/**
 * Playwright fixtures shared by the end-to-end specs (docs/testing.md): one pool of warm browsers
 * with the built extension per Playwright worker, lent to the tests and reset between them.
 *
 * - `browsers` (worker scope): scripts/batch/pool.ts's chromiumPool, the batch's own warm browsers.
 *   A browser given back is reset from the outside (its pages closed, the extension's storage,
 *   IndexedDB and alarms cleared through the DevTools protocol and its worker stopped, every
 *   site's data removed by a helper extension loaded beside it) and checked; a browser that
 *   fails the reset or the check is closed and a new one started. Nothing of this is in the
 *   extension a person installs, and no page can reach it: the reset is driven by this process.
 * - `agent`: `npm run agent -- ARGS` run in this process (scripts/agent-command.ts, the same
 *   function the CLI runs) in a browser of the pool: the same flags, output, approvals from
 *   `input` and exit status as the process, without a process start or a browser start.
 * - `warm`: a browser of the pool for one test, as new (for the specs that started a browser per
 *   test); a test that fails gives it back to be closed, not reused, so the next starts afresh.
 */
import { test as base } from '@playwright/test';
import { Readable } from 'node:stream';
import { chromiumPool } from '../../scripts/batch/pool';
import { agentCommand } from '../../scripts/agent-command';
import type { Launched } from '../../scripts/browser';

export { expect } from '@playwright/test';
export type { CDPSession, Locator, Page } from '@playwright/test';

export type Pool = ReturnType<typeof chromiumPool>;

/** What a run of a script printed, and its exit status. */
export interface CliResult { code: number | null; stdout: string; stderr: string }

export interface InProcessAgent {
  /** Runs `npm run agent -- ARGS` with `env` added to the environment; `input` is its stdin (closed at its end, as a pipe). */
  run(args: string[], env?: Record<string, string>, input?: string): Promise<CliResult>;
}

/**
 * The in-process runner for a spec file's module-level helpers and its beforeAll hooks: call it at
 * the top of the file (it registers a beforeAll that takes the worker's `agent` fixture).
 */
export function useAgent(): InProcessAgent {
  let agent: InProcessAgent | null = null;
  test.beforeAll(({ agent: a }) => { agent = a; });
  return {
    run: (args, env, input) => {
      if (!agent) throw new Error('useAgent() must be called at the top of the spec file, before its other hooks');
      return agent.run(args, env, input);
    },
  };
}

/** Runs the runner command in `browsers`' warm browsers: what it prints, and its exit status. */
export async function runInProcess(browsers: Pool, args: string[], env: Record<string, string> = {}, input = ''): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await agentCommand(args, {
    env: { ...process.env, ...env },
    out: (l) => { stdout += `${l}\n`; },
    err: (l) => { stderr += `${l}\n`; },
    input: Readable.from([input]),
    handleSigint: false,
    browsers,
  });
  return { code, stdout, stderr };
}

export const test = base.extend<{ warm: Launched }, { browsers: Pool; agent: InProcessAgent }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its first parameter's pattern
  browsers: [async ({}, use) => {
    // two: a spec file's shared browser (shareExtension) and the runner's, side by side
    const pool = chromiumPool(2);
    await use(pool);
    await pool.close();
  }, { scope: 'worker' }],
  agent: [async ({ browsers }, use) => {
    await use({ run: (args, env, input) => runInProcess(browsers, args, env, input) });
  }, { scope: 'worker' }],
  warm: async ({ browsers }, use, info) => {
    const browser = await browsers.acquire({ width: 1280, height: 800, headed: false });
    try {
      await use(browser);
    } finally {
      browsers.release(browser, info.status === info.expectedStatus);
    }
  },
});
