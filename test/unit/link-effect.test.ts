/**
 * The first line judges where a pressed link goes (src/core/guards/link-effect.ts): its address as the
 * GET request following it would be.
 */
import { describe, expect, it } from 'vitest';
import { linkEffect } from '../../src/core/guards/link-effect';
import { DEFAULT_GUARDS, allowOnSite, type GuardTarget, type Reached } from '../../src/core/guards';

const site = 'https://shop.example/';
const link = (href: string, extra: Partial<GuardTarget> = {}): Reached[] => [{ how: 'press', target: { tag: 'a', text: 'View details', href, ...extra } }];
const id = (reached: Reached[], guards = DEFAULT_GUARDS) => linkEffect(reached, { site, guards })?.id ?? null;

describe('linkEffect', () => {
  it('a link whose address places an order, deletes or sends asks by that rule, whatever its words', () => {
    expect(linkEffect(link('https://shop.example/order/place?via=link'), { site, guards: DEFAULT_GUARDS })).toEqual({
      id: 'payment', reason: 'this opens shop.example/order/place, an address that would place an order or pay ("place")',
    });
    expect(id(link('https://shop.example/items/3/delete'))).toBe('delete');
    expect(id(link('https://shop.example/settings/delete-account'))).toBe('delete');
    expect(id([{ how: 'press', target: { tag: 'button', text: 'Details', navigatesTo: 'https://shop.example/checkout/confirm-order' } }])).toBe('payment');
  });

  it('ordinary links, a download, a field and a rule allowed on the site do not', () => {
    for (const href of ['https://shop.example/products/buy-kettle', 'https://shop.example/orders', 'https://shop.example/search?q=delete+account', 'https://shop.example/help/how-to-delete', 'https://shop.example/']) {
      expect(id(link(href)), href).toBeNull();
    }
    expect(id(link('https://shop.example/order/place', { download: true }))).toBeNull();
    expect(id([{ how: 'type', target: { tag: 'a', text: 'x', href: 'https://shop.example/order/place' } }])).toBeNull();
    expect(id(link('https://shop.example/order/place'), allowOnSite(DEFAULT_GUARDS, site, 'payment'))).toBeNull();
    expect(id(link('javascript:void(0)'))).toBeNull();
  });
});
