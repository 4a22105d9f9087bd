/** Settings writes are patches merged into the stored settings in the background (core/settings-patch.ts). */
import { describe, expect, it } from 'vitest';
import { baseUrlProblem, DEFAULT_SETTINGS, normalizeSettings } from '../../src/core/settings';
import { patched } from '../../src/core/settings-patch';

const stored = normalizeSettings({
  ...DEFAULT_SETTINGS, apiKey: 'k1', language: 'en',
  guards: { ...DEFAULT_SETTINGS.guards, allow: { 'shop.example': ['payment', 'delete'] } },
  profiles: { a: { baseUrl: 'http://a/v1', apiKey: 'ka', model: 'm', dialect: 'glm-web', dialectOptions: {}, temperature: 0, maxTokens: 100, stream: true, extraBody: '' } },
});

describe('settings patches', () => {
  it('sets fields over the stored ones and leaves the rest', () => {
    const s = patched(stored, { set: { language: 'zh_CN' } });
    expect(s.language).toBe('zh_CN');
    expect(s.apiKey).toBe('k1');
    expect(s.guards.allow).toEqual(stored.guards.allow);
  });

  it('new guard rules keep the always-allowed sites as stored', () => {
    const rules = stored.guards.rules.map((r) => (r.id === 'send' ? { ...r, on: false } : r));
    const s = patched(stored, { set: { guards: { rules: [], allow: {} } }, guardRules: rules });
    expect(s.guards.rules.find((r) => r.id === 'send')?.on).toBe(false);
    expect(s.guards.allow).toEqual({ 'shop.example': ['payment', 'delete'] });
  });

  it('allows and disallows a rule on a site; the last one removed drops the site', () => {
    expect(patched(stored, { allow: { site: 'https://www.news.example/x', rule: 'send' } }).guards.allow['news.example']).toEqual(['send']);
    const one = patched(stored, { disallow: { host: 'shop.example', rule: 'payment' } });
    expect(one.guards.allow).toEqual({ 'shop.example': ['delete'] });
    expect(patched(one, { disallow: { host: 'shop.example', rule: 'delete' } }).guards.allow).toEqual({});
  });

  it('saves and deletes an endpoint profile', () => {
    const b = { ...stored.profiles.a, baseUrl: 'http://b/v1' };
    const s = patched(stored, { profile: { name: 'b', endpoint: b } });
    expect(Object.keys(s.profiles).sort()).toEqual(['a', 'b']);
    expect(Object.keys(patched(s, { profile: { name: 'a', endpoint: null } }).profiles)).toEqual(['b']);
  });
});

describe('the base URL check', () => {
  it('names what is wrong: no scheme, no server after it, a space; a good one passes', () => {
    expect(baseUrlProblem('127.0.0.1:8000/v1')).toBe('Base URL must start with http:// or https://, e.g. http://127.0.0.1:8000/v1');
    expect(baseUrlProblem('http://')).toBe('Base URL needs a server name or address after http://, e.g. http://127.0.0.1:8000/v1');
    expect(baseUrlProblem('https://:8000/v1')).toBe('Base URL needs a server name or address after https://, e.g. http://127.0.0.1:8000/v1');
    expect(baseUrlProblem('http://127.0.0.1:8000/ v1')).toBe('Base URL must not contain spaces.');
    expect(baseUrlProblem('http://my host/v1')).toBe('Base URL must not contain spaces.');
    expect(baseUrlProblem('http://127.0.0.1:8000/v1')).toBeNull();
    expect(baseUrlProblem('HTTPS://api.example.com/v1')).toBeNull();
  });
});
