import { describe, expect, it } from 'vitest';
import { checkSettings, DEFAULT_SETTINGS, normalizeSettings, parseExtraBody } from '../../src/core/settings';
import { explainModelError } from '../../src/core/model-errors';
import { formatCost, formatMoney } from '../../src/core/costs';

describe('settings', () => {
  it('defaults follow the GLM-4.5V reference client', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({ temperature: 0.001, maxTokens: 8192, extraBody: '{"skip_special_tokens": false}', maxSteps: 15 });
  });
  it('normalizes: trims, drops a trailing slash, ignores wrong types and unknown fields', () => {
    const s = normalizeSettings({ baseUrl: ' http://h:1/v1/ ', maxSteps: '3' as unknown as number, bogus: 1 } as never);
    expect(s.baseUrl).toBe('http://h:1/v1');
    expect(s.maxSteps).toBe(15);
    expect(s).not.toHaveProperty('bogus');
  });
  it('says what is wrong, field by field', () => {
    const p = checkSettings({ ...DEFAULT_SETTINGS, baseUrl: 'localhost:8000', model: '', maxSteps: 0, extraBody: '[1]' });
    expect(Object.keys(p).sort()).toEqual(['baseUrl', 'extraBody', 'maxSteps', 'model']);
    expect(checkSettings(DEFAULT_SETTINGS)).toEqual({});
  });
  it('extra body must be an object', () => {
    expect(parseExtraBody('')).toEqual({});
    expect(parseExtraBody('{"a":1}')).toEqual({ a: 1 });
    expect(parseExtraBody('nope')).toBeNull();
  });
});

describe('model error messages', () => {
  const base = { baseUrl: 'http://h:8000/v1', model: 'glm-4.5v' };
  it.each([
    [{ status: 401, message: 'bad key' }, 'refused the API key (HTTP 401)'],
    [{ status: 403, message: '' }, 'OLLAMA_ORIGINS'],
    [{ status: 404, message: 'The model `glm-4.5v` does not exist', available: ['a', 'b'] }, 'The server offers: a, b.'],
    [{ status: 400, message: 'This model does not support image input' }, 'does not accept images'],
    [{ status: 400, message: "This model's maximum context length is 8192 tokens" }, 'too long'],
    [{ status: 503, message: 'overloaded' }, 'failed (HTTP 503)'],
    [{ message: 'fetch failed' }, 'Cannot reach the model endpoint at http://h:8000/v1'],
  ])('%o -> %s', (f, expected) => {
    expect(explainModelError({ ...base, ...f })).toContain(expected);
  });
  it('a 401 to a request without a key says none was sent and where to enter one', () => {
    const none = explainModelError({ ...base, status: 401, message: 'Unauthorized', keySent: false });
    expect(none).toContain('none was sent');
    expect(none).toContain('Settings → API key');
    expect(none).not.toContain('refused the API key');
    expect(explainModelError({ ...base, status: 401, message: 'bad key', keySent: true })).toContain('refused the API key');
  });
  it('suggests /v1 when the base URL lacks it', () => {
    expect(explainModelError({ baseUrl: 'http://h:8000', model: 'm', message: 'fetch failed' })).toContain('end in /v1');
    expect(explainModelError({ baseUrl: 'http://h:8000', model: 'm', status: 404, message: 'Not Found' })).toContain('end in /v1');
  });
});

describe('the currency of the prices', () => {
  it('is USD by default, an ISO 4217 code, upper-cased when stored; anything else is named', () => {
    expect(normalizeSettings({}).currency).toBe('USD');
    expect(normalizeSettings({ currency: ' eur ' }).currency).toBe('EUR');
    expect(checkSettings(normalizeSettings({ currency: 'cny' })).currency).toBeUndefined();
    expect(checkSettings({ ...DEFAULT_SETTINGS, currency: 'eur' }).currency).toBeUndefined(); // as typed in the form, before storage upper-cases it
    expect(checkSettings(normalizeSettings({ currency: 'dollars' })).currency).toMatch(/ISO 4217/);
    expect(checkSettings(normalizeSettings({ currency: 'QQQ' })).currency).toMatch(/ISO 4217/); // well formed, no such currency
  });
  it('formats every cost in it, in the language asked, and falls back safely', () => {
    expect(formatMoney(0.0036, 'USD')).toBe('$0.0036');
    expect(formatMoney(12.5, 'EUR')).toBe('€12.50');
    expect(formatMoney(0.0036, 'USD', 'zh-CN')).toBe('US$0.0036');
    expect(formatMoney(0.0036, null)).toBe('0.0036'); // a trace from before the currency was kept
    expect(formatMoney(0.0036, 'not a code')).toBe('0.0036');
    expect(formatMoney(1, 'USD', 'no-such-locale-!!')).toBe('1.00 USD'); // Intl refuses: the code after the number
    expect(formatCost(null)).toMatch(/unknown/);
    expect(formatCost(0.5)).toBe('$0.50');
  });
});
