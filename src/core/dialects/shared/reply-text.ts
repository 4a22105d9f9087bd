/**
 * The wrappers every GLM reply may come in, peeled the same way for every dialect: reasoning
 * (a think block, closed or cut off, and the server's separate reasoning field), the <answer>
 * wrapper, box tokens, stray special tokens, code-fence lines and CRLF line ends.
 */

/** Split off reasoning: up to the last </think>, an unclosed <think>, and the separate field. */
export function peelReasoning(content: string, reasoningContent: string | null | undefined): { body: string; reasoning: string | null } {
  const parts: string[] = [];
  if (typeof reasoningContent === 'string' && reasoningContent.trim()) parts.push(reasoningContent.trim());
  let body = content;
  const close = content.lastIndexOf('</think>');
  if (close >= 0) {
    parts.push(content.slice(0, close).replace(/<\/?think>/g, '').trim());
    body = content.slice(close + '</think>'.length);
  } else {
    const open = content.indexOf('<think>');
    if (open >= 0) {
      // Unclosed: the model was cut off while thinking (or never closed the tag).
      parts.push(content.slice(open + '<think>'.length).trim());
      body = content.slice(0, open);
    }
  }
  const reasoning = parts.filter(Boolean).join('\n\n');
  return { body, reasoning: reasoning || null };
}

/**
 * A section header at a line start, for any of `names` (alternatives of a regex): "Action:",
 * "**Action:**", "**Action**:", "### Action：", "- Action:". Global, case-insensitive, multiline.
 */
export function sectionHeader(names: string): RegExp {
  // One character class per gap (no `[ \t]*(?:\*\*)?[ \t]*`): adjacent optional runs backtrack quadratically.
  return new RegExp(String.raw`^[-*>#_ \t]*(?:${names})[*_ \t]*[:：][*_ \t]*`, 'gim');
}

/** <answer>, box tokens, stray special tokens, code-fence lines, CRLF. */
export function unwrap(text: string): string {
  let t = text.replace(/\r\n?/g, '\n');
  const open = t.search(/<answer>/i);
  if (open >= 0) {
    const rest = t.slice(open + '<answer>'.length);
    const close = rest.toLowerCase().lastIndexOf('</answer>');
    t = close >= 0 ? rest.slice(0, close) : rest; // possibly unclosed
  }
  return t
    .replace(/<\/?answer>/gi, '')
    .replace(/<\s*\|\s*(?:begin|start|end)_of_box\s*\|\s*>/gi, '')
    .replace(/<\|(?:endoftext|user|assistant|observation|system)\|>/g, '')
    .replace(/^[ \t]*```[\w-]*[ \t]*$/gm, '');
}

/** Every match of a global regex (its lastIndex reset first). */
export function allMatches(re: RegExp, s: string): RegExpExecArray[] {
  re.lastIndex = 0;
  return [...s.matchAll(re)];
}

/** JSON.parse without throwing. */
export function tryJson(s: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(s) };
  } catch {
    return { ok: false };
  }
}

/**
 * The first balanced {...} or [...] starting at `start`, string-aware for both quote kinds (so
 * braces inside values do not count). null when unbalanced (a reply cut off by max_tokens, an
 * apostrophe inside a 'string').
 */
export function balancedSpan(s: string, start: number): string | null {
  const stack: string[] = [];
  let quote: string | null = null;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return null;
      if (stack.length === 0) return s.slice(start, i + 1);
    }
  }
  return null;
}
