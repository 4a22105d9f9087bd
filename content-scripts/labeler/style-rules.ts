/**
 * The elements a style sheet rule may give something a person sees that the DOM does not hold:
 * generated text (`::before` / `::after` `content`, seen-text.ts) or a picture (a background image,
 * pictures.ts); and the elements a rule may give a cursor or a scroller (quick-walk.ts). Reading each element's computed style costs a style read per element on the page
 * (docs/labeling.md); reading the rules costs one pass over the sheets and a query per rule that
 * matters, whatever the page's size.
 */

import { fetchedRules } from './sheets';

const PSEUDO = /::?(before|after)\b/i;
const PSEUDOS = /::?(before|after)\b/gi;

/** A selector list's parts: split at its top-level commas (not those in `:is(a, b)`, `[x="a,b"]`). */
export function splitSelectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0, quote = '', from = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(from, i));
      from = i + 1;
    }
  }
  out.push(list.slice(from));
  return out;
}

/** The rule's selector parts, each without its ::before / ::after (the element that draws it). */
export function hostSelectors(selectorText: string, pseudoOnly: boolean): string[] {
  const out: string[] = [];
  for (const part of splitSelectors(selectorText)) {
    if (pseudoOnly && !PSEUDO.test(part)) continue;
    out.push(part.replace(PSEUDOS, '').trim() || '*');
  }
  return out;
}

/** The rule names ::before or ::after. */
export const namesPseudo = (selectorText: string) => PSEUDO.test(selectorText);

/**
 * The elements of `roots` matched by every rule for which `selectors` gives selectors (the roots'
 * style sheets, adopted ones, their imports and groups, and nested rules, each under the full
 * selector it stands for); null when a sheet cannot be read (another origin's) or a selector
 * cannot be queried: then the caller asks every element it cares about instead. `fetched`: another
 * origin's sheet is read from the text the background fetched (sheets.ts), when there is one. Only
 * the quick pass, whose misses the walk makes up for at the next step, takes that text on trust:
 * a server can give the page one text and us another, and the screens look for what a page hides.
 */
export function elementsOfRules(roots: ReadonlyArray<Document | ShadowRoot>, selectors: (style: CSSStyleDeclaration, selectorText: string, root: Document | ShadowRoot) => string[] | null, fetched = false): Set<Element> | null {
  const out = new Set<Element>();
  const query = (root: Document | ShadowRoot, sel: string): boolean => {
    try {
      root.querySelectorAll(sel).forEach((el) => out.add(el));
      return true;
    } catch {
      return false;
    }
  };
  // `parent`: the full selector of the style rule a nested rule stands in ('' at the top)
  const visit = (rules: CSSRuleList, root: Document | ShadowRoot, parent: string): boolean => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSStyleRule) {
        const own = !parent ? rule.selectorText
          : splitSelectors(rule.selectorText).map((p) => (p.includes('&') ? p.replaceAll('&', `:is(${parent})`) : `:is(${parent}) ${p.trim()}`)).join(', ');
        for (const sel of selectors(rule.style, own, root) ?? []) if (!query(root, sel)) return false;
        if (rule.cssRules?.length && !visit(rule.cssRules, root, own)) return false;
      } else if (rule instanceof CSSImportRule) {
        if (!rule.styleSheet || !readSheet(rule.styleSheet, root)) return false;
      } else if (parent && 'style' in rule && (rule as CSSRule & { style?: CSSStyleDeclaration }).style) {
        // declarations nested after rules (CSSNestedDeclarations): the parent's own
        for (const sel of selectors((rule as CSSRule & { style: CSSStyleDeclaration }).style, parent, root) ?? []) if (!query(root, sel)) return false;
      } else if ('cssRules' in rule && (rule as CSSGroupingRule).cssRules && !visit((rule as CSSGroupingRule).cssRules, root, parent)) {
        return false;
      }
    }
    return true;
  };
  const readSheet = (sheet: CSSStyleSheet, root: Document | ShadowRoot): boolean => {
    let rules: CSSRuleList | null;
    try {
      rules = sheet.cssRules;
    } catch {
      rules = fetched ? fetchedRules(sheet) : null;
    }
    return rules !== null && visit(rules, root, '');
  };
  for (const root of roots) {
    for (const sheet of [...Array.from(root.styleSheets), ...(root.adoptedStyleSheets ?? [])]) if (!readSheet(sheet, root)) return null;
  }
  return out;
}
