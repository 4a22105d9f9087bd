/**
 * Every model dialect the extension speaks, by id (the runner's `--dialect`, docs/runner.md).
 * Adding a dialect: its folder, its import and line here, its two messages in each locale, its
 * fake-model fixture (test/fixtures/dialects/) and its section of docs/dialects.md; the
 * meta-test (test/unit/dialect-registry.test.ts) says what is missing.
 */
import { glmWeb } from './glm-web';
import { glmMobile } from './glm-mobile';
import { glmPc } from './glm-pc';
import { cogagent } from './cogagent';
import { midscene } from './midscene';
import { appagent } from './appagent';
import { uiTars } from './ui-tars';
import type { Dialect, LearnHooks } from './types';

const REGISTRY = {
  'glm-web': glmWeb,
  'glm-pc': glmPc,
  'glm-mobile': glmMobile,
  cogagent,
  midscene,
  appagent,
  'ui-tars': uiTars,
} satisfies Record<string, Dialect>;

/** A registered dialect's id. */
export type DialectId = keyof typeof REGISTRY;

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
