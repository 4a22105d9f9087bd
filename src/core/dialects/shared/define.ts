/**
 * What every dialect does the same way, written once: a reply is read never throwing, and a reply
 * whose text has no action falls back on the separate reasoning field (or a think block) some
 * servers fill, whose last action is then the model's decision. `defineDialect` wraps a dialect's
 * functions so none of them can throw into the run: a bug in a grammar becomes a format error the
 * model is told, not a stopped run.
 */
import type { ParsedStep, ParseError } from '../../action/action';
import type { ActionParse, Dialect, Preview } from '../types';
import { peelReasoning } from './reply-text';

/** One source of a reply (its text, or the reasoning) read by a dialect's grammar. */
export type BodyRead =
  | { ok: true; step: Omit<ParsedStep, 'reasoning'> }
  /** missing: there was no action at all (so the reasoning may be tried) */
  | { ok: false; error: string; missing: boolean };

export interface ReplyTexts {
  /** the error when the reply is empty after the reasoning and the reasoning has no action either (absent: the reply's own error) */
  noText?: string;
  /** appended as is to "The reply could not be read (…)" (what to write instead, with its punctuation) */
  help?: string;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * A reply read by `read` (`fromReasoning`: the source is the reasoning, where the last action
 * counts): the reply's text first; only when it has no action at all, the reasoning. Never throws.
 */
export function readReply(content: unknown, reasoningContent: string | null | undefined, read: (body: string, fromReasoning: boolean) => BodyRead, texts: ReplyTexts): ParsedStep | ParseError {
  try {
    const { body, reasoning } = peelReasoning(typeof content === 'string' ? content : '', reasoningContent);
    let r = read(body, false);
    if (!r.ok && r.missing && reasoning) {
      const fromReasoning = read(reasoning, true);
      if (fromReasoning.ok || !fromReasoning.missing) r = fromReasoning;
      else if (!body.trim() && texts.noText) r = { ok: false, error: texts.noText, missing: true };
    }
    return r.ok ? { ...r.step, reasoning } : { error: r.error, reasoning };
  } catch (e) {
    // A bug here must not stop the run: the model gets a format error instead.
    return { error: `The reply could not be read (${messageOf(e)})${texts.help ?? ''}`, reasoning: null };
  }
}

/** `f`, except that what it throws is turned into `fallback(error)`. */
function safe<A extends unknown[], R>(f: (...a: A) => R, fallback: (e: unknown, ...a: A) => R): (...a: A) => R {
  return (...a: A) => {
    try {
      return f(...a);
    } catch (e) {
      return fallback(e, ...a);
    }
  };
}

/**
 * A dialect whose functions never throw: parsing returns an error the model or the person is
 * told, writing an action falls back on its type, a preview on nothing. (Building a request is
 * not wrapped: a throw there is a bug the run reports as such, not something to send.)
 */
export function defineDialect<D extends Dialect>(d: D): D {
  return {
    ...d,
    parseReply: safe(d.parseReply, (e) => ({ error: `The reply could not be read (${messageOf(e)})`, reasoning: null })),
    parseAction: safe(d.parseAction, (e): ActionParse => ({ ok: false, error: `The action could not be read (${messageOf(e)})` })),
    formatAction: safe(d.formatAction, (_e, a) => a.type),
    preview: safe(d.preview, (): Preview => ({ thought: null, action: null })),
  };
}
