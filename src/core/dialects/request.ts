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
  if (parts.some((p) => p.type === 'turn')) return conversationTextOf(parts);
  const system = parts.flatMap((p) => (p.type === 'system' ? [p.text] : []));
  const user = userPromptTextOf(parts.filter((p) => p.type !== 'system'));
  // A system message (midscene) is kept first, a blank line before the user message's text.
  return system.length ? [...system, user].join('\n\n') : user;
}

/**
 * A conversation's text as kept in the trace: each message headed by its role in brackets
 * ("[user]", "[assistant]"), every image shown where it was sent.
 */
function conversationTextOf(parts: RequestPart[]): string {
  const out: string[] = [];
  let message = '';
  let role = 'user';
  const flush = () => { if (message) out.push(`[${role}]\n${message}`); message = ''; };
  for (const p of parts) {
    if (p.type === 'turn') { flush(); role = p.role; }
    else if (p.type === 'system') out.push(`[system]\n${p.text}`);
    else if (p.type === 'text') message += p.text;
    else message += p.of === 'current' ? '<image: current>' : `<image: step ${p.of}>`;
  }
  flush();
  return out.join('\n\n');
}

function userPromptTextOf(parts: RequestPart[]): string {
  let out = '';
  let seenText = false;
  parts.forEach((p, i) => {
    if (p.type === 'system' || p.type === 'turn') return;
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
 * The system message, if the parts have one (its texts joined), then the user message, the image
 * parts filled in from `images` (data URLs, in the order of the image parts); a conversation's
 * further messages each start at a `turn` (an assistant's is its text). An image that could not
 * be had ('') is left out rather than sent empty.
 */
export function toMessages(parts: RequestPart[], images: string[]): ChatMessage[] {
  let i = 0;
  const system: string[] = [];
  const messages: ChatMessage[] = [];
  let current: ChatMessage = { role: 'user', content: [] };
  const flush = () => {
    const content = current.content as ContentPart[];
    if (current === messages[0] || !content.length) return;
    // An assistant's earlier reply is sent as plain text, as OpenAI-compatible servers expect it.
    messages.push(current.role === 'assistant' ? { role: 'assistant', content: content.map((c) => (c.type === 'text' ? c.text : '')).join('') } : current);
  };
  messages.push(current);
  for (const p of parts) {
    if (p.type === 'system') system.push(p.text);
    else if (p.type === 'turn') {
      flush();
      current = { role: p.role, content: [] };
    } else if (p.type === 'text') (current.content as ContentPart[]).push({ type: 'text', text: p.text });
    else {
      const url = images[i++] ?? '';
      if (url) (current.content as ContentPart[]).push({ type: 'image_url', image_url: { url } });
    }
  }
  flush();
  return system.length ? [{ role: 'system', content: system.join('\n\n') }, ...messages] : messages;
}

export function imagePartsOf(parts: RequestPart[]): ImagePart[] {
  return parts.filter((p): p is ImagePart => p.type === 'image');
}

/** The earlier steps a request shows as images. */
export function pastImagesOf(parts: RequestPart[]): number[] {
  return parts.flatMap((p) => (p.type === 'image' && p.of !== 'current' ? [p.of] : []));
}
