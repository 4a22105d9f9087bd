/** What the acting layer takes and answers (act/index.ts re-exports these; they may move to core). */
import type { Mark } from '../../core/marks';
import type { Usage } from '../../core/costs';
import type { BeforePress } from '../cdp';

/** `note`: text for the model's next observation (English, never translated). */
/** `set`: a value the action stored in a run variable (quote, llm, clipboard); `usage`: tokens the action's own model request used */
export type ActResult = { ok: true; note?: string; set?: { name: string; value: string }; usage?: Usage | null } | { ok: false; error: string };

/** Where each labelled frame's viewport origin sits in the top page (MarksSnapshot.frameOffsets). */
export type FrameOffsets = Record<number, { x: number; y: number }>;

export interface ActContext {
  /** the label's mark for an action on a label (null: the label is unknown) */
  mark: Mark | null;
  frameOffsets?: FrameOffsets;
  searchStartPage: string;
  /** the run's start page (goHome) */
  startUrl: string;
  /** sites the person listed as apps (openApp) */
  apps: { name: string; url: string }[];
  /** a text-only call to the language model (the llm action): its answer, or what went wrong */
  ask: (prompt: string) => Promise<{ ok: true; text: string; usage: Usage | null } | { ok: false; error: string }>;
  /** the run's tab and the tabs it came from, newest first (the clipboard action looks in them) */
  tabIds: number[];
  /** asked just before each press of a click, tap or long press: why not to press, or null (run/act.ts pressCheck) */
  beforePress?: BeforePress;
}
