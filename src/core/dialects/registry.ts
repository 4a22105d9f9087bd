/**
 * Every model dialect the extension speaks, by id (CONTRACT `--dialect`). Adding a dialect means
 * its folder, one line here (and in DIALECT_IDS), and its fake-model player for the tests.
 */
import { glmWeb } from './glm-web';
import { glmMobile } from './glm-mobile';
import { glmPc } from './glm-pc';
import type { Dialect, DialectId } from './types';

export const DIALECT_IDS = ['glm-web', 'glm-pc', 'glm-mobile'] as const satisfies readonly DialectId[];

const REGISTRY = {
  'glm-web': glmWeb,
  'glm-pc': glmPc,
  'glm-mobile': glmMobile,
} satisfies Record<DialectId, Dialect>;

export const DIALECTS: Readonly<Record<string, Dialect>> = REGISTRY;

export const DEFAULT_DIALECT: DialectId = 'glm-web';

export function isDialect(id: unknown): id is keyof typeof REGISTRY {
  return typeof id === 'string' && Object.prototype.hasOwnProperty.call(DIALECTS, id);
}

/** The dialect of a run; an unknown id (an old or foreign trace) reads as the default. */
export function dialectOf(id: string): Dialect {
  return isDialect(id) ? REGISTRY[id] : glmWeb;
}

/** The dialect by id, or an error that lists the known ones. */
export function getDialect(id: string): Dialect {
  if (!isDialect(id)) throw new Error(`Unknown dialect "${id}"; known: ${Object.keys(DIALECTS).join(', ')}`);
  return REGISTRY[id];
}
