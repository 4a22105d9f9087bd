/** What the acting layer takes and answers (act/index.ts re-exports these; they may move to core). */
import type { Mark } from '../../core/marks';

/** `note`: text for the model's next observation (English, never translated). */
export type ActResult = { ok: true; note?: string } | { ok: false; error: string };

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
}
