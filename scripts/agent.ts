/**
 * npm run agent -- --task TEXT --url URL [--base-url URL] [--api-key KEY] [--model NAME] ...
 * The headless runner of docs/runner.md: the process around agentCommand (scripts/agent-command.ts).
 * Exit 0 finished, 1 stopped/failed, 2 bad usage.
 */
import { agentCommand } from './agent-command';

const code = await agentCommand(process.argv.slice(2), {
  env: process.env,
  out: (l) => process.stdout.write(`${l}\n`),
  err: (l) => process.stderr.write(`${l}\n`),
});
process.exit(code);
