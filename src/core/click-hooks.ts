/**
 * Framework click hooks (docs/labeling.md, "Candidates"): attributes by which a script library
 * makes an element clickable without making it a control the browser knows (no href, no role, no
 * tabindex, often no pointer cursor, the handler delegated to the document). They are read from
 * attribute names the labeler's one-pass attribute scan already has, so the cheap test
 * (`hookName`, one Set lookup and a few prefix checks) runs per attribute name and the exact one
 * (`clickHook`, which may read values) only for names that passed it.
 *
 * What counts (a "press" is click, dblclick, mousedown, mouseup, pointerdown, pointerup,
 * touchstart, touchend):
 * - jQuery UI: `data-handler` with a `data-event` naming a press (the datepicker's Prev / Next /
 *   day cells; `data-event="change"` on its month select is not one, nor `data-event` alone);
 * - AngularJS: `ng-click` (and dblclick, mousedown, mouseup) in any of its normalised spellings:
 *   an optional `data-` or `x-` prefix, then `ng` and the event joined by `-`, `:` or `_`;
 * - Alpine / Vue in-DOM templates: `@click`, `x-on:click`, `v-on:click` with any modifiers
 *   (`@click.prevent`), except the modifiers that listen somewhere else: `.outside` / `.away`
 *   (a click outside the element, which closes a menu), `.window`, `.document`;
 * - Livewire: `wire:click` (modifiers as above); Phoenix LiveView: `phx-click`;
 * - htmx: `hx-get|post|put|patch|delete` (or `data-hx-…`) on an element whose trigger is a press:
 *   its `hx-trigger` names one (not `from:` another element), or it has none and is not a form or
 *   a field (their default triggers are submit and change). `load`, `revealed`, `every 2s` are not;
 * - Stimulus: `data-action` with a descriptor `click->controller#method` (press events, keyboard
 *   filters allowed, not `@window` / `@document`), or a bare `controller#method` on an element
 *   whose default event is click: `a`, `button`, `input type=submit` (a bare descriptor on any
 *   other element is an error in Stimulus, and on a form or field it means submit / input);
 * - Google jsaction: `jsaction` with an entry `click:…` (or `clickmod:`, `clickonly:`, a press),
 *   or an entry with no event, which means click;
 * - Bootstrap (and Foundation): `data-toggle` / `data-bs-toggle` with any value but `tooltip`
 *   (a tooltip shows on hover) and `buttons` (Bootstrap 3 puts it on the group around its toggle
 *   buttons, which are the controls), `data-dismiss` / `data-bs-dismiss` with a value.
 * A form is never a control (its hooks mean submit); the caller passes the tag.
 */

const PRESS = new Set(['click', 'dblclick', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'touchend']);
/** Modifiers that move the listener off the element (Alpine, Livewire). */
const ELSEWHERE = new Set(['outside', 'away', 'window', 'document']);
const HTMX_METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const HTMX = new Set(HTMX_METHODS.flatMap((m) => [`hx-${m}`, `data-hx-${m}`]));
const ANGULAR = new Set(['click', 'dblclick', 'mousedown', 'mouseup'].flatMap((ev) =>
  ['', 'data-', 'x-'].flatMap((pre) => ['-', ':', '_'].map((sep) => `${pre}ng${sep}${ev}`))));
const TOGGLES = new Set(['data-toggle', 'data-bs-toggle']);
const DISMISS = new Set(['data-dismiss', 'data-bs-dismiss']);

/** Names that are hooks (or may be, once their value is read) whatever follows them. */
const EXACT = new Set(['data-handler', 'phx-click', 'data-action', 'jsaction', ...HTMX, ...ANGULAR, ...TOGGLES, ...DISMISS]);

/** Reads another attribute of the same element (null when it has none). */
export type AttrLookup = (name: string) => string | null;

/**
 * `@click.prevent`, `x-on:click`, `v-on:click`, `wire:click.stop`: the event-and-modifiers part
 * after the directive's prefix, or null when the name is none of these.
 */
function directiveEvent(name: string): string | null {
  if (name.charCodeAt(0) === 64 /* @ */) return name.slice(1);
  if (name.length < 6 || name.charCodeAt(4) !== 58 /* : */) return null;
  return name.startsWith('x-on:') || name.startsWith('v-on:') || name.startsWith('wire:') ? name.slice(5) : null;
}

/** `click.prevent.stop` is a press on the element; `click.outside`, `keydown.enter` are not. */
function pressOnElement(eventAndModifiers: string): boolean {
  const parts = eventAndModifiers.split('.');
  if (!PRESS.has(parts[0])) return false;
  for (let i = 1; i < parts.length; i++) if (ELSEWHERE.has(parts[i])) return false;
  return true;
}

/**
 * The cheap test, per attribute name (names are lower case, as the HTML parser leaves them):
 * could this attribute make its element clickable? True for every name clickHook may accept.
 */
export function hookName(name: string): boolean {
  if (EXACT.has(name)) return true;
  const ev = directiveEvent(name);
  return ev !== null && pressOnElement(ev);
}

/** htmx: the element's trigger is a press on it. */
function htmxPress(tag: string, attr: AttrLookup): boolean {
  const trigger = attr('hx-trigger') ?? attr('data-hx-trigger');
  if (trigger === null || !trigger.trim()) {
    if (tag === 'input') return /^(submit|button|image|reset)$/i.test(attr('type') ?? '');
    return tag !== 'select' && tag !== 'textarea';
  }
  return trigger.split(',').some((spec) => {
    const words = spec.trim().split(/\s+/);
    const event = words[0].replace(/\[.*$/, '').toLowerCase();
    return PRESS.has(event) && !words.some((w) => w.startsWith('from:'));
  });
}

/** Stimulus: one of the element's action descriptors listens for a press on it. */
function stimulusPress(tag: string, value: string, attr: AttrLookup): boolean {
  for (const d of value.trim().split(/\s+/)) {
    if (!d.includes('#')) continue;
    const arrow = d.indexOf('->');
    if (arrow < 0) {
      if (tag === 'a' || tag === 'button' || (tag === 'input' && (attr('type') ?? '').toLowerCase() === 'submit')) return true;
      continue;
    }
    const event = d.slice(0, arrow);
    // `click@window->…` listens on the window; `keydown.esc->…` is a key filter
    if (event.includes('@')) continue;
    if (PRESS.has(event.split('.')[0].toLowerCase())) return true;
  }
  return false;
}

/** jsaction: `click:ns.action`, `ns.action` (no event: click), `clickmod:…`; `mouseover:…` is not. */
function jsactionPress(value: string): boolean {
  for (const entry of value.split(';')) {
    const e = entry.trim();
    if (!e) continue;
    const colon = e.indexOf(':');
    if (colon < 0) return true;
    const event = e.slice(0, colon).trim().toLowerCase();
    if (PRESS.has(event) || event === 'clickmod' || event === 'clickonly') return true;
  }
  return false;
}

/**
 * The exact test for one attribute that passed hookName: does it make an element of this tag
 * clickable? `attr` reads the element's attributes (this one's value and the ones beside it).
 */
export function clickHook(tag: string, name: string, attr: AttrLookup): boolean {
  if (tag === 'form') return false;
  if (name === 'data-handler') {
    const events = attr('data-event');
    return events !== null && events.trim().toLowerCase().split(/\s+/).some((e) => PRESS.has(e));
  }
  if (name === 'phx-click' || ANGULAR.has(name)) return true;
  if (HTMX.has(name)) return htmxPress(tag, attr);
  if (name === 'data-action') return stimulusPress(tag, attr(name) ?? '', attr);
  if (name === 'jsaction') return jsactionPress(attr(name) ?? '');
  if (TOGGLES.has(name)) {
    const v = (attr(name) ?? '').trim().toLowerCase();
    return v !== '' && v !== 'tooltip' && v !== 'buttons';
  }
  if (DISMISS.has(name)) return (attr(name) ?? '').trim() !== '';
  const ev = directiveEvent(name);
  return ev !== null && pressOnElement(ev);
}

/** Any of `names` (those of the element that passed hookName) makes it clickable. */
export function hasClickHook(tag: string, names: readonly string[], attr: AttrLookup): boolean {
  for (const n of names) if (clickHook(tag, n, attr)) return true;
  return false;
}

/** Bootstrap's tooltip toggle: the element's `title` is a tooltip, not a sign of a control. */
export function tooltipToggle(attr: AttrLookup): boolean {
  return (attr('data-bs-toggle') ?? attr('data-toggle') ?? '').trim().toLowerCase() === 'tooltip';
}
