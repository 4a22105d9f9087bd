import type { Action, ParsedStep, ParseError } from '../actions';
import type { Mark } from '../marks';

/** One past step as the prompt's history shows it. */
export interface HistoryEntry {
  thought: string;
  /** the action as written in the dialect's grammar, e.g. "Click [3]" (passwords already masked) */
  action: string;
  /** "Success" or what went wrong */
  observation: string;
}

export interface DialectContext {
  task: string;
  /** the site being worked on, e.g. "https://github.com/" ({Web}) */
  site: string;
  /** the time to show ({Time}); the dialect formats it in local time */
  now: Date;
  /** every past step, oldest first; the dialect decides how many to show */
  history: HistoryEntry[];
  memory: Record<string, unknown>;
  marks: Mark[];
  /** data: URL of the labelled screenshot */
  screenshotDataUrl: string;
}

/** OpenAI chat-completions message parts (the subset we send). */
export type ContentPart =
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'text'; text: string };

export interface ChatMessage {
  role: 'user' | 'assistant' | 'system';
  content: ContentPart[] | string;
}

export interface Dialect {
  name: string;
  /** the full prompt text for this step */
  buildPrompt(ctx: DialectContext): string;
  /** the chat messages for this step (GLM web: one user message, image first, then the prompt) */
  buildMessages(ctx: DialectContext): ChatMessage[];
  /** the element list as the prompt shows it */
  formatElements(marks: Mark[]): string;
  /**
   * Parse a model reply. `content` is the message content; `reasoningContent`
   * the separate reasoning field some servers fill (or null). Never throws.
   */
  parseReply(content: string, reasoningContent?: string | null): ParsedStep | ParseError;
  /**
   * Parse one action written by a person in the dialect's own syntax (step approval's Edit, the
   * runner's `e ACTION`), e.g. "Click [3]". Never throws.
   */
  parseAction(text: string): { ok: true; action: Action } | { ok: false; error: string };
  /** the observation text that tells the model its last reply could not be read */
  formatErrorObservation(error: string): string;
}
