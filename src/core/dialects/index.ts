import { glmWeb } from './glm-web';
import type { Dialect } from './types';

/** Every model dialect the extension speaks, by name (CONTRACT.md `--dialect`). */
export const DIALECTS: Record<string, Dialect> = { [glmWeb.name]: glmWeb };

export const DEFAULT_DIALECT = 'glm-web';

export function getDialect(name: string): Dialect {
  const d = DIALECTS[name];
  if (!d) throw new Error(`Unknown dialect "${name}"; known: ${Object.keys(DIALECTS).join(', ')}`);
  return d;
}

export function isDialect(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(DIALECTS, name);
}
