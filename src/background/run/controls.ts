/**
 * Person controls: the person steers the live run (approve / edit / reject a proposed action,
 * pause, take over, resume, switch step approval); stopRun aborts the model request in flight at once.
 */
import { shotOf, type ActedElement, type RunState } from '../../core/run';
import type { RunStream, RunView } from '../../core/messages';
import type { FileMeta } from '../../core/files';
import { dialectOf } from '../../core/dialects/registry';
import { labelOf, type Action } from '../../core/action/action';
import { translatorFor } from '../../core/locales';
import { resetTab } from '../label';
import { personT } from '../person';
import { latestRun, loadRun } from '../run-store';
import { loadSettings, patchSettings } from '../settings-store';
import { active, find, whenReady } from './active';
import { commit, reasonText, tabUrl, viewOf, type PersonReason } from './commit';
import { probe } from './probe';

export type Control =
  | { kind: 'approve'; edit?: string; alwaysAllow?: boolean }
  | { kind: 'reject'; feedback?: string }
  | { kind: 'pause' } | { kind: 'takeover' } | { kind: 'resume' }
  | { kind: 'mode'; approveSteps: boolean };

/** Stops a run; `reason` is a person's text or a message key of person text (public/_locales), said in the run's language. */
export async function stopRun(runId: string | undefined, reason: string | PersonReason = { key: 'stoppedByUser' }): Promise<boolean> {
  await whenReady();
  const a = find(runId);
  if (!a) return false;
  await commit(a, { type: 'stop', at: Date.now(), reason: reasonText(a.state, reason) });
  a.request?.abort();
  a.wake();
  return true;
}

export async function currentRun(runId?: string): Promise<RunState | undefined> {
  if (runId) return active.get(runId)?.state ?? (await loadRun(runId));
  const live = [...active.values()][0];
  return live?.state ?? (await latestRun());
}

/** The reply streaming in for the run's pending step and its retry note (for a view opened after they were sent). */
export async function liveReply(runId: string): Promise<RunStream | null> {
  await whenReady();
  const a = active.get(runId);
  return a?.live && a.live.index === a.state.pending?.index ? a.live : null;
}

/** The run going on in this worker, if any (files attached now are its). */
export async function liveRunId(): Promise<string | null> {
  await whenReady();
  return find(undefined)?.state.id ?? null;
}

/** The person attached or removed files of the live run: its state says so (trace run.files). */
export async function runFilesChanged(runId: string, files: FileMeta[]): Promise<void> {
  const a = active.get(runId);
  if (a) await commit(a, { type: 'files', at: Date.now(), files });
}

/** The run is going on in this worker. */
export async function isActive(runId: string): Promise<boolean> {
  await whenReady();
  return active.has(runId);
}

/** The person steers the live run. Throws a message for the panel when the command does not apply. */
export async function control(runId: string | undefined, c: Control): Promise<RunView> {
  await whenReady();
  const a = find(runId);
  if (!a) throw new Error(personT(await loadSettings())('noRunGoing'));
  const s = a.state;
  const t = translatorFor(s.locale);
  const at = Date.now();
  switch (c.kind) {
    case 'approve': {
      if (s.phase !== 'approve' || !s.pending?.reply) throw new Error(t('noActionWaiting'));
      let edit: Action | undefined;
      let target: ActedElement | null = null;
      if (c.edit?.trim()) {
        if (s.pending.after) throw new Error(t('editAfterRan'));
        const parsed = dialectOf(s.dialect).parseAction(c.edit, shotOf(s.pending), s);
        if (!parsed.ok) throw new Error(t('editUnreadable', parsed.error));
        edit = parsed.action;
        const label = labelOf(edit);
        const n = s.pending.elements.length;
        if (label !== null && !s.pending.elements.some((m) => m.label === label)) {
          throw new Error(n ? t('noSuchLabel', label, n - 1) : t('noLabelsHere', label));
        }
        target = await probe(s, edit);
      }
      const rule = s.pending.approval?.rule;
      if (c.alwaysAllow && rule) await patchSettings({ allow: { site: s.site, rule } });
      await commit(a, { type: 'approve', at, edit, allowRule: !!c.alwaysAllow, target });
      break;
    }
    case 'reject':
      if (s.phase !== 'approve') throw new Error(t('noActionWaiting'));
      await commit(a, { type: 'reject', at, feedback: c.feedback?.trim() || null });
      break;
    case 'pause':
      await commit(a, { type: 'pause', at, url: await tabUrl(s.tabId) });
      break;
    case 'takeover':
      await commit(a, { type: 'takeover', at, url: await tabUrl(s.tabId) });
      a.request?.abort();
      // The step's history images in flight are stored before the person gets the page.
      await a.keeping?.catch(() => undefined);
      await resetTab(s.tabId);
      break;
    case 'resume':
      if (!s.paused) throw new Error(t('notPaused'));
      await commit(a, { type: 'resume', at, url: await tabUrl(s.tabId) });
      break;
    case 'mode':
      await commit(a, { type: 'mode', at, approveSteps: c.approveSteps });
      break;
  }
  a.wake();
  return viewOf(a.state);
}
