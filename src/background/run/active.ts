/**
 * The runs live in this worker (the run map), the API keys they were started with (key custody:
 * memory only), and the queue commands wait on while a stopped worker picks its run up (resume.ts).
 */
import type { DownloadNote, RunState } from '../../core/run';
import type { Settings } from '../../core/settings';
import type { ImageScreen } from '../../core/image-screen';
import type { TabbedRun } from '../tabs';
import type { PicturesRead } from '../../core/picture-text';
import type { RunStream } from '../../core/messages';

/** A live run: its state, the tabs it watches (tabs.ts), and how the person reaches it. */
export interface Active extends TabbedRun {
  settings: Settings;
  /** the model request in flight: Stop and take-over abort it */
  request: AbortController | null;
  /** wakes the driver waiting for the person (when it is not waiting: `woken`, so its next wait ends at once) */
  wake: () => void;
  woken?: boolean;
  /** downloads an action began, paused until the person keeps or undoes them (undone if the run ends first) */
  held?: DownloadNote[];
  /** the observed step's history images still to make: started when its request left (commit.ts startKeeping) */
  keep?: KeepJob | null;
  /** those images being made and stored ('kept'): beside the request, its check and its action; joined by the commit that records the step (commit.ts) */
  keeping?: Promise<void> | null;
  /** an action's input stuck behind a page dialog held for the person: it ends once the dialog is answered */
  inputLeft?: Promise<unknown>;
  /** the last picture check (option screenImages): the same picture again is not sent (memory only) */
  lastScreen?: ImageScreen | null;
  /** the observed step's pictures being read by OCR (option readPictures), started at once; joined to its reply (ask.ts) */
  pictures?: { index: number; shot: string; read: Promise<PicturesRead> } | null;
  /** the reply streaming in and its retry note, as last sent to the views: a view opened late asks for it ('run/live') */
  live?: RunStream | null;
}

export interface KeepJob {
  index: number;
  /** the model's screenshot of the step it is for (a step dropped and observed again is another) */
  shot: string;
  /** when the observe's settle wait ended (performance.now()) */
  settledAt: number;
  run: () => Promise<{ labelled: string; clean: string }>;
}

export const active = new Map<string, Active>();
/** Keys a run was started with (runner flags may differ from the stored one), kept in memory only, to scrub exports. */
const runKeys = new Map<string, string>();
const textKeys = new Map<string, string>();

/** Keeps the keys a run was started with (memory only). */
export function holdKeys(runId: string, settings: Partial<Pick<Settings, 'apiKey' | 'textApiKey'>>): void {
  if (settings.apiKey) runKeys.set(runId, settings.apiKey);
  if (settings.textApiKey) textKeys.set(runId, settings.textApiKey);
}

export function secretsOf(runId: string): string[] {
  return [runKeys.get(runId), textKeys.get(runId)].filter((k): k is string => !!k);
}

export function newActive(state: RunState, settings: Settings): Active {
  const a: Active = { state, settings, request: null, wake: () => { a.woken = true; }, opened: [], tabs: new Set([state.tabId, ...(state.tabStack ?? [])]), cards: [], placed: [] };
  return a;
}

/** The run by id, or the first live one. */
export function find(runId: string | undefined): Active | undefined {
  return runId ? active.get(runId) : [...active.values()][0];
}

let ready: Promise<void> = Promise.resolve();

/** Resolves once the runs a restarted worker picks up are in the map: commands wait for it. */
export function whenReady(): Promise<void> {
  return ready;
}

/** Runs `job` after the ones queued before it (a pick-up after a restart). */
export function queue(job: () => Promise<void>): Promise<void> {
  ready = ready.then(job).catch(() => undefined);
  return ready;
}
