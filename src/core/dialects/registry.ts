/**
 * Every model dialect the extension speaks, by id (the runner's `--dialect`, docs/runner.md).
 * Adding a dialect: its folder, its id in DialectId (types.ts), its import and line here, its
 * cases for the conformance suite and its fake-model player (docs/dialects.md).
 */
import { glmWeb } from './glm-web';
import { glmMobile } from './glm-mobile';
import { glmPc } from './glm-pc';
import { cogagent } from './cogagent';
import { midscene } from './midscene';
import { appagent } from './appagent';
import type { Dialect, DialectId, LearnHooks } from './types';

const REGISTRY = {
  'glm-web': glmWeb,
  'glm-pc': glmPc,
  'glm-mobile': glmMobile,
  cogagent,
  midscene,
  appagent,
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

/**
 * The learning hooks for a run of dialect `id`: its own, else those of the first dialect that has
 * them (a site's learned documentation is one store, whichever dialect wrote it).
 */
export function learnerFor(id: string): LearnHooks {
  const own = dialectOf(id).learn ?? Object.values(DIALECTS).find((d) => d.learn)?.learn;
  if (!own) throw new Error('No dialect learns documentation.');
  return own;
}
