/**
 * Values an action stored (a quoted text, a copy: core/run/variables.ts) reach the database with
 * the person's secrets and the passwords the run typed as placeholders (splitSecret), so a
 * password typed into a page and then quoted never lands on disk.
 */
import { describe, expect, it } from 'vitest';
import { createRun, type RunState } from '../../src/core/run';
import { splitSecret } from '../../src/core/run/secrets';

const CARD = '4111 1111 1111 1111';
const PW = 'hunter22-secret-pw';

function run(): RunState {
  const s = createRun({ id: 'v', task: 't', startUrl: 'https://a.example/', tabId: 1, dialect: 'cogagent', model: 'm', baseUrl: 'http://h/v1', maxSteps: 5, at: 1 });
  return {
    ...s,
    vault: { typed: [PW], kept: [{ name: 'card', value: CARD }] },
    variables: {
      quote: { value: `Your card ${CARD} is on file`, step: 0 },
      typed: { value: PW, step: 1, secret: true },
      plain: { value: 'nothing secret', step: 2 },
    },
  };
}

describe('stored values on disk', () => {
  it('keep secrets and typed passwords as placeholders, the rest as it was', () => {
    const { state, vault } = splitSecret(run());
    expect(JSON.stringify(state)).not.toContain(CARD);
    expect(JSON.stringify(state)).not.toContain(PW);
    expect(state.variables?.quote.value).toBe('Your card {{secret:card}} is on file');
    expect(state.variables?.typed).toEqual({ value: '{{password:1}}', step: 1, secret: true });
    expect(state.variables?.plain.value).toBe('nothing secret');
    // what stays in memory (the vault, for session storage) is untouched
    expect(vault?.typed).toEqual([PW]);
  });
  it('leave a run without stored values as it was', () => {
    const { variables: _v, ...bare } = run();
    expect(splitSecret(bare as RunState).state).not.toHaveProperty('variables');
  });
});
