/**
 * A dialect's request parts (types.ts RequestPart) turned into what is sent and what is kept:
 * the chat messages (images filled in by the caller) and the prompt text of the trace.
 */
import type { RequestPart } from './types';

/** OpenAI chat-completions message parts (the subset we send). */
export type ContentPart =
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'text'; text: string };

export interface ChatMessage {
  role: 'user' | 'assistant' | 'system';
  content: ContentPart[] | string;
}

export type ImagePart = Extract<RequestPart, { type: 'image' }>;

/**
 * The prompt text as kept in the trace: the text parts in order; an image between two text
 * parts shows as "<image: step N>" / "<image: current>" so a reader sees where it was sent.
 */
export function promptTextOf(parts: RequestPart[]): string {
  const system = parts.flatMap((p) => (p.type === 'system' ? [p.text] : []));
  const user = userPromptTextOf(parts.filter((p) => p.type !== 'system'));
  // A system message (midscene) is kept first, a blank line before the user message's text.
  return system.length ? [...system, user].join('\n\n') : user;
}

function userPromptTextOf(parts: RequestPart[]): string {
  let out = '';
  let seenText = false;
  parts.forEach((p, i) => {
    if (p.type === 'system') return;
    if (p.type === 'text') {
      out += p.text;
      seenText = true;
    } else if (seenText && parts.slice(i + 1).some((q) => q.type === 'text')) {
      out += p.of === 'current' ? '<image: current>' : `<image: step ${p.of}>`;
    }
  });
  return out;
}

/**
 * The system message, if the parts have one (its texts joined), then the single user message,
 * the image parts filled in from `images` (data URLs, in the order of the image parts). An image
 * that could not be had ('') is left out rather than sent empty.
 */
export function toMessages(parts: RequestPart[], images: string[]): ChatMessage[] {
  let i = 0;
  const content: ContentPart[] = [];
  const system: string[] = [];
  for (const p of parts) {
    if (p.type === 'system') system.push(p.text);
    else if (p.type === 'text') content.push({ type: 'text', text: p.text });
    else {
      const url = images[i++] ?? '';
      if (url) content.push({ type: 'image_url', image_url: { url } });
    }
  }
  const user: ChatMessage = { role: 'user', content };
  return system.length ? [{ role: 'system', content: system.join('\n\n') }, user] : [user];
}

export function imagePartsOf(parts: RequestPart[]): ImagePart[] {
  return parts.filter((p): p is ImagePart => p.type === 'image');
}

/** The earlier steps a request shows as images. */
export function pastImagesOf(parts: RequestPart[]): number[] {
  return parts.flatMap((p) => (p.type === 'image' && p.of !== 'current' ? [p.of] : []));
}
