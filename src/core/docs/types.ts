/**
 * Learned documentation of a site's controls (AppAgent: what each element does, written by the
 * model while exploring or watching the person, and read in later tasks on that site). Types only.
 */
import type { Fingerprint } from '../marks';

/** The kinds of use a documentation entry describes (AppAgent's doc templates: one per action). */
export type DocAction = 'tap' | 'text' | 'long_press' | 'swipe';

export const DOC_ACTIONS: readonly DocAction[] = ['tap', 'text', 'long_press', 'swipe'];

/** The message key of each use's label in the person's words (the Site notes editor's field names): messages name a field by it. */
export const DOC_USE_KEYS: Record<DocAction, string> = { tap: 'docsUseTap', text: 'docsUseText', long_press: 'docsUseLongPress', swipe: 'docsUseSwipe' };

/** One element's documentation on one site. */
export interface DocEntry {
  id: string;
  /** the site (origin, e.g. "https://shop.example") */
  origin: string;
  /** the element as labeled when documented: found again by it (docs/matching.ts) */
  fingerprint: Fingerprint;
  /** what each kind of use does, in the model's words (English, never translated) */
  docs: Partial<Record<DocAction, string>>;
  /** how it was last written: while exploring, from the person's demonstration, from a file, by the person */
  source: 'explore' | 'demo' | 'import' | 'edit';
  /**
   * the name of the file it was last imported from (docs/file.ts importName: no folders, no control
   * or hidden characters, at most 200 characters); kept through later edits and refinements, so the
   * panel can say where the note first came from. Shown as text only. Never in exported files.
   */
  importedFrom?: string;
  /** ms since the epoch */
  updatedAt: number;
}

/** What a step's request is given: the documentation of an element on screen, by its label. */
export interface ScreenDoc { label: number; docs: Partial<Record<DocAction, string>> }
