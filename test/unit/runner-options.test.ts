/**
 * The runner's dialect options (scripts/runner-options.ts): `--dialect-option name=value`, and
 * `--bbox` / `--device`, documented aliases of the options of those names (issue 44).
 */
import { describe, expect, it } from 'vitest';
import { readRunOptions, type RunOptionValues } from '../../scripts/runner-options';

const usage = (problem: string): never => { throw new Error(problem); };
const read = (v: RunOptionValues) => readRunOptions({ 'base-url': 'http://127.0.0.1:9/v1', ...v }, usage, { env: {}, warn: () => undefined });
const optionsOf = (v: RunOptionValues) => read(v).config.dialectOptions;

describe('dialect options on the command line', () => {
  it('--bbox is --dialect-option bbox=…, --device is --dialect-option device=…', () => {
    expect(optionsOf({ dialect: 'midscene', bbox: 'pixels' })).toEqual({ midscene: { bbox: 'pixels' } });
    expect(optionsOf({ dialect: 'midscene', 'dialect-option': ['bbox=pixels'] })).toEqual({ midscene: { bbox: 'pixels' } });
    expect(optionsOf({ dialect: 'appagent', device: 'desktop' })).toEqual({ appagent: { device: 'desktop' } });
    expect(optionsOf({ dialect: 'appagent' })).toEqual({ appagent: { device: 'phone' } });
  });

  it('an alias and the option given apart must agree; the same value twice is fine', () => {
    expect(() => read({ dialect: 'midscene', bbox: 'pixels', 'dialect-option': ['bbox=norm-yx'] })).toThrow('--bbox pixels and --dialect-option bbox=norm-yx disagree.');
    expect(optionsOf({ dialect: 'midscene', bbox: 'pixels', 'dialect-option': ['bbox=pixels'] })).toEqual({ midscene: { bbox: 'pixels' } });
  });

  it('a value not among the choices, or an option the dialect does not have, is bad usage naming them', () => {
    expect(() => read({ dialect: 'midscene', bbox: 'sideways' })).toThrow('--dialect-option bbox must be one of norm-xy, norm-yx, pixels, got "sideways".');
    expect(() => read({ dialect: 'glm-web', bbox: 'pixels' })).toThrow('--dialect-option: glm-web has no options');
    expect(() => read({ dialect: 'ui-tars', device: 'desktop' })).toThrow('--dialect-option: ui-tars has no option "device"; it has coordinates');
  });
});
