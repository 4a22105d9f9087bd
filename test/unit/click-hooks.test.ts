/** Framework click hooks (src/core/click-hooks.ts): which attributes make an element clickable. */
import { describe, expect, it } from 'vitest';
import { clickHook, hasClickHook, hookName, tooltipToggle } from '../../src/core/click-hooks';

/** The element's attributes as the labeler reads them; `tag` defaults to a div. */
function hook(attrs: Record<string, string>, tag = 'div'): boolean {
  const names = Object.keys(attrs).filter(hookName);
  return hasClickHook(tag, names, (n) => (n in attrs ? attrs[n] : null));
}

describe('framework click hooks', () => {
  it('jQuery UI: data-handler with a press in data-event', () => {
    expect(hook({ 'data-handler': 'prev', 'data-event': 'click', title: 'Prev' }, 'a')).toBe(true);
    expect(hook({ 'data-handler': 'selectDay', 'data-event': 'click', 'data-month': '10' }, 'td')).toBe(true);
    expect(hook({ 'data-handler': 'x', 'data-event': 'mousedown touchstart' })).toBe(true);
    expect(hook({ 'data-handler': 'selectMonth', 'data-event': 'change' }, 'span')).toBe(false);
    expect(hook({ 'data-handler': 'prev' })).toBe(false);
    expect(hook({ 'data-event': 'click' })).toBe(false);
  });

  it('AngularJS: ng-click in every normalised spelling', () => {
    for (const n of ['ng-click', 'data-ng-click', 'x-ng-click', 'ng:click', 'ng_click', 'data-ng-dblclick', 'ng-mousedown']) {
      expect(hook({ [n]: 'go()' }), n).toBe(true);
    }
    expect(hook({ 'ng-model': 'x' })).toBe(false);
    expect(hook({ 'ng-mouseenter': 'x' })).toBe(false);
  });

  it('Alpine and Vue: @click / x-on:click / v-on:click with modifiers, not outside or global ones', () => {
    for (const n of ['@click', '@click.prevent', '@click.stop.prevent', 'x-on:click', 'x-on:click.self', 'v-on:click', '@mousedown', '@pointerdown.prevent']) {
      expect(hook({ [n]: 'open = !open' }), n).toBe(true);
    }
    for (const n of ['@click.outside', '@click.away', 'x-on:click.outside', '@click.window', 'x-on:click.document', '@keydown.escape', '@mouseenter', 'x-on:submit', 'x-data', 'x-show', '@clicked', 'v-on:input']) {
      expect(hook({ [n]: 'open = false' }), n).toBe(false);
    }
  });

  it('Livewire and Phoenix', () => {
    expect(hook({ 'wire:click': 'save' })).toBe(true);
    expect(hook({ 'wire:click.prevent': 'save' })).toBe(true);
    expect(hook({ 'wire:model': 'name' })).toBe(false);
    expect(hook({ 'wire:submit': 'save' })).toBe(false);
    expect(hook({ 'wire:click.outside': 'close' })).toBe(false);
    expect(hook({ 'phx-click': 'inc' })).toBe(true);
    expect(hook({ 'phx-click-away': 'close' })).toBe(false);
  });

  it('htmx: a request on a press, not on a form, a field, or a load / poll / reveal', () => {
    expect(hook({ 'hx-get': '/more' })).toBe(true);
    expect(hook({ 'hx-delete': '/row/3', 'hx-confirm': 'Sure?' }, 'span')).toBe(true);
    expect(hook({ 'data-hx-post': '/like' })).toBe(true);
    expect(hook({ 'hx-post': '/save', 'hx-trigger': 'click[ctrlKey] once' })).toBe(true);
    expect(hook({ 'hx-post': '/save', 'hx-trigger': 'keyup, click' })).toBe(true);
    expect(hook({ 'hx-post': '/save' }, 'form')).toBe(false);
    expect(hook({ 'hx-get': '/search' }, 'select')).toBe(false);
    expect(hook({ 'hx-get': '/news', 'hx-trigger': 'load' })).toBe(false);
    expect(hook({ 'hx-get': '/news', 'hx-trigger': 'every 2s' })).toBe(false);
    expect(hook({ 'hx-get': '/page/2', 'hx-trigger': 'revealed' })).toBe(false);
    expect(hook({ 'hx-get': '/cart', 'hx-trigger': 'click from:body' })).toBe(false);
    expect(hook({ 'hx-target': '#x', 'hx-swap': 'outerHTML' })).toBe(false);
  });

  it('Stimulus: a click descriptor, or a bare one where click is the default event', () => {
    expect(hook({ 'data-action': 'click->menu#toggle' })).toBe(true);
    expect(hook({ 'data-action': 'mouseenter->card#peek click->card#open' })).toBe(true);
    expect(hook({ 'data-action': 'gallery#next' }, 'a')).toBe(true);
    expect(hook({ 'data-action': 'gallery#next' }, 'button')).toBe(true);
    expect(hook({ 'data-action': 'gallery#next' }, 'div')).toBe(false);
    expect(hook({ 'data-action': 'search#filter' }, 'input')).toBe(false);
    expect(hook({ 'data-action': 'form#submit' }, 'form')).toBe(false);
    expect(hook({ 'data-action': 'click->form#save' }, 'form')).toBe(false);
    expect(hook({ 'data-action': 'keydown.esc->modal#close' })).toBe(false);
    expect(hook({ 'data-action': 'click@window->menu#close' })).toBe(false);
    expect(hook({ 'data-action': 'share' }, 'span')).toBe(false);
  });

  it('Google jsaction: a click entry or an entry with no event', () => {
    expect(hook({ jsaction: 'click:menu.open' })).toBe(true);
    expect(hook({ jsaction: 'mouseover:card.peek; card.open' })).toBe(true);
    expect(hook({ jsaction: 'clickmod:link.open' })).toBe(true);
    expect(hook({ jsaction: 'mouseover:card.peek;mouseout:card.unpeek' })).toBe(false);
    expect(hook({ jsaction: 'rcuQ6b:npT2md' })).toBe(false);
    expect(hook({ jsaction: ' ' })).toBe(false);
  });

  it('Bootstrap toggles and dismissers, not tooltips', () => {
    expect(hook({ 'data-bs-toggle': 'collapse', 'data-bs-target': '#x' })).toBe(true);
    expect(hook({ 'data-toggle': 'dropdown' }, 'span')).toBe(true);
    expect(hook({ 'data-bs-dismiss': 'alert' }, 'span')).toBe(true);
    expect(hook({ 'data-bs-toggle': 'tooltip', title: 'Hi' }, 'span')).toBe(false);
    expect(hook({ 'data-toggle': 'buttons', class: 'btn-group' })).toBe(false);
    expect(hook({ 'data-toggle': '' })).toBe(false);
    expect(hook({ 'data-dismiss': '' })).toBe(false);
    expect(tooltipToggle((n) => (n === 'data-bs-toggle' ? 'Tooltip' : null))).toBe(true);
    expect(tooltipToggle(() => null)).toBe(false);
  });

  it('the cheap name test lets through every name the exact test may accept, and few others', () => {
    for (const n of ['data-handler', 'ng-click', '@click.prevent', 'x-on:click', 'v-on:click', 'wire:click', 'phx-click', 'hx-get', 'data-action', 'jsaction', 'data-bs-toggle', 'data-dismiss']) {
      expect(hookName(n), n).toBe(true);
    }
    for (const n of ['class', 'id', 'style', 'href', 'title', 'data-id', 'data-event', 'x-data', 'x-show', 'hx-target', 'xlink:href', 'xml:lang', '@keydown', 'aria-label']) {
      expect(hookName(n), n).toBe(false);
    }
    expect(clickHook('div', 'class', () => null)).toBe(false);
  });
});
