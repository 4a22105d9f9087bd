/**
 * The run core, one module per concern (nothing imports back up):
 * state.ts (types) <- budget.ts, secrets.ts, model-text.ts, person-text.ts, guard-decision.ts <- step.ts <- on-*.ts, create.ts <- reduce.ts <- effects.ts, view.ts.
 * Importers outside the run use this index.
 */
export * from './state';
export * from './reduce';
export * from './effects';
export { NEVER_WHILE_EXPLORING, checkDecision, guardApps, guardHit, guardsInForce, type CheckDecision } from './guard-decision';
export * from './view';
export { withoutStepPictures } from './pictures';
export { hideRun, joinSecret, splitSecret } from './secrets';
export { MAX_WAITS_IN_A_ROW, REPEAT_NUDGE, REPEAT_STOP, pageKeyOf, runTotals, type BudgetStop } from './budget';
export { modelText } from './model-text';
export { personText } from './person-text';
export * from './follow-up';
