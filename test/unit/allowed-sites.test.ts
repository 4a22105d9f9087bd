/**
 * Sites allowed up front (docs/allowed-sites.md): what a person, a flag or a file may give; the
 * leave-site guard counting allowed sites as the task's own (before an action and after it); a yes
 * allowing the site for the rest of the run (asked once); "anywhere" never asking; the sites a run
 * acted on; and the trace keeping them.
 */
import { describe, expect, it } from 'vitest';
import { readAllowedSites, siteOfTyped, sitesActedOn } from '../../src/core/allowed-sites';
import { guardHit, reduce, type RunState } from '../../src/core/run';
import type { Reached } from '../../src/core/guards';
import type { Action } from '../../src/core/action/action';
import type { Mark } from '../../src/core/marks';
import { toTrace } from '../../src/core/trace';
import { fromTrace, parseTrace } from '../../src/core/trace/import';
import { checkTemplate } from '../../src/core/templates';
import { taskOf } from '../../src/core/batch/tasks';
import { newRun, observation, reply } from '../fixtures/run';

const click: Action = { type: 'click', target: { kind: 'label', label: 0 }, button: 'left', count: 1 };
const marks: Mark[] = [{ label: 0, tag: 'a', text: 'Go', rect: { x: 0, y: 0, width: 80, height: 30 } }];
const obs = (url: string) => observation({ url, marks });
const toLink = (href: string): Reached[] => [{ how: 'press', target: { tag: 'a', text: 'Go', href } }];

describe('what may be given', () => {
  it('"start", "any", or hosts and addresses, read as sites, each once', () => {
    expect(readAllowedSites(undefined)).toEqual({ ok: true, value: undefined });
    expect(readAllowedSites('start')).toEqual({ ok: true, value: undefined });
    expect(readAllowedSites('any')).toEqual({ ok: true, value: 'any' });
    expect(readAllowedSites(['https://pay.shop.co.uk/x', 'www.pay.example', 'pay.example:8443', 'intranet'])).toEqual({ ok: true, value: ['shop.co.uk', 'pay.example', 'intranet'] });
    expect(readAllowedSites('a.example, b.example\nc.example')).toEqual({ ok: true, value: ['a.example', 'b.example', 'c.example'] });
    expect(readAllowedSites(['ok.example', '!!'])).toEqual({ ok: false, problem: expect.stringContaining('"!!" is not a site') });
    expect(readAllowedSites(['javascript:alert(1)'])).toMatchObject({ ok: false });
    expect(readAllowedSites([7])).toMatchObject({ ok: false });
    expect(readAllowedSites({ any: true })).toMatchObject({ ok: false });
    expect(readAllowedSites(Array.from({ length: 51 }, (_, i) => `s${i}.example`))).toMatchObject({ ok: false, problem: 'at most 50 allowed sites' });
    expect(siteOfTyped('127.0.0.1:8080')).toBe('127.0.0.1');
  });

  it('in a saved task and a batch task, checked there', () => {
    expect(checkTemplate({ name: 'p', task: 't', allowedSites: ['pay.example'] })).toMatchObject({ ok: true, template: { allowedSites: ['pay.example'] } });
    expect(checkTemplate({ name: 'p', task: 't', allowedSites: 'nowhere!' })).toMatchObject({ ok: false, problem: expect.stringContaining('"allowedSites" cannot be used') });
    expect(taskOf({ task: 't', url: 'https://a.example/', allowedSites: 'any' }, 't1')).toMatchObject({ allowedSites: 'any' });
    expect(taskOf({ task: 't', url: 'https://a.example/', allowedSites: ['?'] }, 't1')).toMatch(/^its allowed sites cannot be used/);
  });
});

describe('the leave-site guard with allowed sites', () => {
  it('asks about another site by default, naming it; not about a listed one; never with "anywhere"', () => {
    expect(guardHit(newRun(), click, toLink('https://pay.example/checkout'))).toEqual({ id: 'leave-site', reason: 'this leaves shop.example for pay.example', site: 'pay.example' });
    expect(guardHit(newRun({ allowedSites: ['pay.example'] }), click, toLink('https://www.pay.example/checkout'))).toBeNull();
    expect(guardHit(newRun({ allowedSites: ['pay.example'] }), click, toLink('https://evil.example/'))).toMatchObject({ id: 'leave-site', site: 'evil.example' });
    expect(guardHit(newRun({ allowedSites: 'any' }), click, toLink('https://evil.example/'))).toBeNull();
    // the other guards stay: "anywhere" is about sites, not about what is done there
    expect(guardHit(newRun({ allowedSites: 'any' }), click, [{ how: 'press', target: { tag: 'button', text: 'Delete project' } }])).toMatchObject({ id: 'delete' });
  });

  it('a yes allows the site for the rest of the run: the next step there is not asked about', () => {
    let s: RunState = newRun();
    s = reduce(s, { type: 'observed', at: 10, obs: obs('https://shop.example/'), ms: 5 });
    s = reduce(s, reply('Thought: go\nAction: Click [0]\nMemory_Updated: {}', { at: 20 }));
    const hit = guardHit(s, click, toLink('https://pay.example/'));
    s = reduce(s, { type: 'checked', at: 21, hit });
    expect(s.pending?.approval).toEqual({ rule: 'leave-site', reason: 'this leaves shop.example for pay.example', site: 'pay.example' });
    s = reduce(s, { type: 'approve', at: 22 });
    expect(s.sitesGranted).toEqual(['pay.example']);
    s = reduce(s, { type: 'acted', at: 30, result: { ok: true }, ms: 8, landed: { url: 'https://pay.example/', downloads: [] } });
    expect(s.steps[0]).toMatchObject({ approval: { decision: 'approved' }, observation: 'Success' });
    expect(guardHit(s, click, toLink('https://pay.example/other'))).toBeNull();
    expect(guardHit(s, click, toLink('https://evil.example/'))).toMatchObject({ id: 'leave-site' });
  });

  it('after an action: a page that went to another site asks, and keeping it allows the site', () => {
    let s: RunState = newRun();
    s = reduce(s, { type: 'observed', at: 10, obs: obs('https://shop.example/'), ms: 5 });
    s = reduce(s, reply('Thought: go\nAction: Click [0]\nMemory_Updated: {}', { at: 20 }));
    s = reduce(s, { type: 'checked', at: 21, hit: null });
    s = reduce(s, { type: 'acted', at: 30, result: { ok: true }, ms: 8, landed: { url: 'https://pay.example/done', downloads: [] } });
    expect(s.pending?.approval).toMatchObject({ rule: 'leave-site', after: true, site: 'pay.example' });
    s = reduce(s, { type: 'approve', at: 31 });
    expect(s.sitesGranted).toEqual(['pay.example']);
    // listed up front: the same move is not asked about
    let l: RunState = newRun({ allowedSites: ['pay.example'] });
    l = reduce(l, { type: 'observed', at: 10, obs: obs('https://shop.example/'), ms: 5 });
    l = reduce(l, reply('Thought: go\nAction: Click [0]\nMemory_Updated: {}', { at: 20 }));
    l = reduce(l, { type: 'checked', at: 21, hit: null });
    l = reduce(l, { type: 'acted', at: 30, result: { ok: true }, ms: 8, landed: { url: 'https://pay.example/done', downloads: [] } });
    expect(l.phase).not.toBe('approve');
  });
});

describe('where a run acted', () => {
  it('the sites of its acting steps, in order; reading, waiting, answering and failed steps do not count', () => {
    const step = (url: string, type: Action['type'], ok = true) => ({ url, action: { type } as Action, result: { ok } });
    expect(sitesActedOn([
      step('https://shop.example/a', 'scroll'), step('https://www.shop.example/b', 'click'), step('https://pay.example/', 'type', false),
      step('https://pay.example/', 'wait'), step('https://pay.example/', 'answer'), step('https://bank.example/', 'press'), step('https://shop.example/', 'key'),
    ])).toEqual(['shop.example', 'bank.example']);
  });

  it('kept in the trace and read back', () => {
    let s: RunState = newRun({ allowedSites: ['pay.example'] });
    s = reduce(s, { type: 'observed', at: 10, obs: obs('https://shop.example/'), ms: 5 });
    s = reduce(s, reply('Thought: go\nAction: Click [0]\nMemory_Updated: {}', { at: 20 }));
    s = reduce(s, { type: 'checked', at: 21, hit: null });
    s = reduce(s, { type: 'acted', at: 30, result: { ok: true }, ms: 8 });
    const trace = toTrace({ ...s, sitesGranted: ['bank.example'] }, []);
    expect(trace.run.sites).toEqual({ allowed: ['pay.example'], granted: ['bank.example'], actedOn: ['shop.example'] });
    const read = parseTrace(JSON.parse(JSON.stringify(trace)));
    expect(read.ok && fromTrace(read.trace)).toMatchObject({ sitesAllowed: ['pay.example'], sitesGranted: ['bank.example'] });
    expect(toTrace(newRun({ allowedSites: 'any' }), []).run.sites).toEqual({ allowed: 'any', granted: [], actedOn: [] });
  });
});
