/**
 * The run driver in the service worker, one file a job: the run map and key custody (active.ts),
 * commit and broadcast (commit.ts), start and replay (start.ts), the drive loop (driver.ts) and
 * one executor per effect (perform.ts: observe, ask, check, act, after-action), person controls
 * (controls.ts), tab events (tab-events.ts), and the pick-up after a restart (resume.ts).
 */
export { secretsOf } from './active';
export { viewOf, type PersonReason } from './commit';
export { continueRun, startRun, startReplay } from './start';
export { control, currentRun, isActive, liveReply, liveRunId, runFilesChanged, stopRun, type Control } from './controls';
export { isRunTab, stopRunsInTab, tabCreated, tabRemoved } from './tab-events';
export { resumeAfterRestart } from './resume';
export { ALARM } from './driver';
