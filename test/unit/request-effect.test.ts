/**
 * The guards' second line (issue 41, src/core/guards/request-effect.ts): a request judged by what it
 * would do. Effects the first line can miss (a select's change, a link's href, a hover, a key, a
 * GraphQL mutation) are found by their words; the ordinary requests of real pages (search,
 * login, filters, infinite scroll, analytics) are not effects.
 */
import { describe, expect, it } from 'vitest';
import { effectCheck, requestEffect } from '../../src/core/guards/request-effect';
import { DEFAULT_PHRASES } from '../../src/core/guards/words';
import { DEFAULT_GUARDS, type GuardSettings } from '../../src/core/guards';

const ALL = DEFAULT_PHRASES;
const req = (method: string, url: string, body: string | null = null) => ({ method, url, body });
const effect = (method: string, url: string, body: string | null = null) => requestEffect(req(method, url, body), ALL)?.rule ?? null;

describe('requests that would order, pay, delete or send', () => {
  it.each([
    ['POST', 'https://shop.example/api/place-order', '{"items":[3]}', 'payment'],
    ['POST', 'https://shop.example/checkout/placeOrder', null, 'payment'],
    ['POST', 'https://shop.example/api/orders', '{"sku":"A1","qty":1}', 'payment'],
    ['POST', 'https://shop.example/?wc-ajax=checkout', 'billing_email=a%40b.c&woocommerce-place-order=1', 'payment'],
    ['POST', 'https://api.stripe.com/v1/payment_intents/pi_3NxAbcDef/confirm', 'payment_method=pm_1', 'payment'],
    ['POST', 'https://shop.example/graphql', '{"operationName":"PlaceOrder","query":"mutation PlaceOrder($c: ID!) { placeOrder(cart: $c) { id } }"}', 'payment'],
    ['POST', 'https://shop.example/api', '{"op":"buyNow","sku":"A1"}', 'payment'],
    ['POST', 'https://shop.example/kasse/bestellen', null, 'payment'],
    ['POST', 'https://shop.example/subscribe', 'plan=pro', 'payment'],
    ['DELETE', 'https://app.example/api/account', null, 'delete'],
    ['POST', 'https://app.example/account/delete', 'confirm=1', 'delete'],
    ['POST', 'https://app.example/items/7', '_method=DELETE', 'delete'],
    ['POST', 'https://app.example/api', 'action=remove_item&id=3', 'delete'],
    ['POST', 'https://app.example/cuenta/eliminar', null, 'delete'],
    ['POST', 'https://chat.example/api/messages', '{"text":"hello"}', 'send'],
    ['POST', 'https://chat.example/conversations/9/send', '{"text":"hello"}', 'send'],
    ['POST', 'https://blog.example/graphql', '{"query":"mutation { createComment(post: 3, text: \\"hi\\") { id } }"}', 'send'],
    ['POST', 'https://mail.example/nachricht/senden', null, 'send'],
    // a GET by strong words only: following a link that places the order or deletes
    ['GET', 'https://shop.example/order/place?item=3', null, 'payment'],
    ['GET', 'https://shop.example/checkout/confirm-order', null, 'payment'],
    ['GET', 'https://app.example/items/3/delete', null, 'delete'],
    ['GET', 'https://app.example/settings/delete-account', null, 'delete'],
  ])('%s %s -> %s', (method, url, body, rule) => {
    expect(effect(method, url, body)).toBe(rule);
  });
});

describe('ordinary requests are not effects', () => {
  it.each([
    // search and filters, whatever the words searched for
    ['GET', 'https://shop.example/search?q=delete+my+account+and+place+order', null],
    ['POST', 'https://shop.example/api/search', '{"q":"buy now pay later","filters":{"sort_order":"asc"}}'],
    ['GET', 'https://shop.example/products?page=2&sort=price', null],
    ['POST', 'https://shop.example/api/products/filter', '{"category":"kettles","order":"price"}'],
    // login and sign-up
    ['POST', 'https://shop.example/login', 'username=alice&password=x'],
    ['POST', 'https://shop.example/api/session', '{"email":"a@b.c","password":"x"}'],
    // infinite scroll, reading orders and messages
    ['GET', 'https://shop.example/api/feed?cursor=abc', null],
    ['GET', 'https://shop.example/api/orders?page=3', null],
    ['GET', 'https://chat.example/api/messages?since=100', null],
    ['POST', 'https://chat.example/api/messages/search', '{"text":"send"}'],
    // analytics, on the site and off it, even when they name a purchase
    ['POST', 'https://www.google-analytics.com/g/collect?v=2&en=purchase', null],
    ['POST', 'https://shop.example/api/events', '{"event":"purchase","value":54.5}'],
    ['POST', 'https://api.segment.io/v1/track', '{"event":"Order Completed"}'],
    ['GET', 'https://shop.example/pixel?ev=Purchase', null],
    // a cart, a draft, a message's text
    ['POST', 'https://shop.example/cart/add', '{"sku":"A1","qty":1}'],
    ['POST', 'https://mail.example/api/drafts', '{"body":"please delete this and send the order"}'],
    ['POST', 'https://shop.example/api/cart/update', 'note=please+send+quickly&qty=2'],
    // a GraphQL query reads
    ['POST', 'https://shop.example/graphql', '{"operationName":"OrderHistory","query":"query OrderHistory { orders { id } }"}'],
    // a product page and a help page
    ['GET', 'https://shop.example/products/kettle-buy-now-pay-later', null],
    ['GET', 'https://shop.example/help/how-to-delete-your-account', null],
    ['GET', 'https://blog.example/posts/how-we-send-email', null],
    ['GET', 'https://www.apple.example/shop/buy-iphone-16', null],
    ['GET', 'https://shop.example/pay', null],
  ])('%s %s', (method, url, body) => {
    expect(effect(method, url, body)).toBeNull();
  });
});

describe('as a guard', () => {
  const site = 'https://shop.example/';
  it('names the request and the words, in the person\'s language', () => {
    expect(effectCheck(req('POST', 'https://shop.example/api/place-order?x=1', '{}'), { site, guards: DEFAULT_GUARDS }))
      .toEqual({ id: 'payment', reason: 'the page is sending a request that would place an order or pay (POST shop.example/api/place-order: "place order")', what: 'POST shop.example/api/place-order', url: 'https://shop.example/api/place-order', effect: 'place order' });
  });
  it('not for the effect the person approved for this action, a rule off, or one always allowed on the site', () => {
    const r = req('POST', 'https://shop.example/api/place-order', '{}');
    expect(effectCheck(r, { site, guards: DEFAULT_GUARDS, approved: 'payment' })).toBeNull();
    const off: GuardSettings = { ...DEFAULT_GUARDS, rules: DEFAULT_GUARDS.rules.map((x) => (x.id === 'payment' ? { ...x, on: false } : x)) };
    expect(effectCheck(r, { site, guards: off })).toBeNull();
    expect(effectCheck(r, { site, guards: { ...DEFAULT_GUARDS, allow: { 'shop.example': ['payment'] } } })).toBeNull();
    // approving the order does not approve a deletion the same action sets off
    expect(effectCheck(req('DELETE', 'https://shop.example/api/account', null), { site, guards: DEFAULT_GUARDS, approved: 'payment' })?.id).toBe('delete');
  });
});
