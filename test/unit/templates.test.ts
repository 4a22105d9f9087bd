/** Saved-task files (core/templates.ts): read as untrusted input, written so that they read back the same. */
import { describe, expect, it } from 'vitest';
import { base64Bytes, checkTemplate, pickTemplate, readTemplateFile, templateFile, TEMPLATE_FORMAT } from '../../src/core/templates';
import { MAX_FILES_BYTES } from '../../src/core/files';

const file = (tasks: unknown[], extra: Record<string, unknown> = {}) => ({ format: TEMPLATE_FORMAT, version: 1, tasks, ...extra });
const soup = { name: 'Soup', task: 'Find the tomato soup recipe', startUrl: 'https://recipes.example/', dialect: 'glm-web', files: [{ name: 'notes.txt', type: 'text/plain', base64: Buffer.from('hello').toString('base64') }] };

describe('saved-task files', () => {
  it('read back what they were written with', () => {
    const read = readTemplateFile(JSON.parse(templateFile([soup, { name: 'Bare', task: 'Say hi' }])));
    expect(read).toEqual({ ok: true, templates: [soup, { name: 'Bare', task: 'Say hi' }], refused: [] });
  });
  it('refuse a field they do not know, rather than run the task without it (a later version\'s limit)', () => {
    const c = checkTemplate({ ...soup, sites: ['recipes.example'] });
    expect(c).toEqual({ ok: false, problem: expect.stringContaining('"sites"') });
    const read = readTemplateFile(file([soup], { signedBy: 'x' }));
    expect(read.ok).toBe(false);
    // a bad task is refused with its reason and its place; the good ones are kept
    const mixed = readTemplateFile(file([soup, { ...soup, name: 'Other', sites: [] }, { name: 'No task' }]));
    expect(mixed.ok && mixed.templates.map((t) => t.name)).toEqual(['Soup']);
    expect(mixed.ok && mixed.refused.map((r) => r.index)).toEqual([1, 2]);
  });
  it('check each field', () => {
    expect(checkTemplate({ ...soup, startUrl: 'javascript:alert(1)' }).ok).toBe(false);
    expect(checkTemplate({ ...soup, startUrl: 'file:///etc/passwd' }).ok).toBe(false);
    expect(checkTemplate({ ...soup, dialect: 'no-such-dialect' }).ok).toBe(false);
    expect(checkTemplate({ ...soup, name: '  ' }).ok).toBe(false);
    expect(checkTemplate({ ...soup, task: '' }).ok).toBe(false);
    expect(checkTemplate({ ...soup, files: [{ name: 'a', type: 'text/plain', base64: 'not base64!' }] }).ok).toBe(false);
    expect(checkTemplate({ ...soup, files: [{ name: 'a', type: 'text/plain', base64: 'aGk=', path: '/etc/passwd' }] }).ok).toBe(false);
    expect(readTemplateFile({ format: 'webagent-trace', version: 1, tasks: [soup] }).ok).toBe(false);
    expect(readTemplateFile(file([soup], { version: 2 })).ok).toBe(false);
    expect(readTemplateFile(file([])).ok).toBe(false);
  });
  it('hold files up to the cap of one run\'s files, counted from their base64', () => {
    expect(base64Bytes(Buffer.from('hello').toString('base64'))).toBe(5);
    expect(base64Bytes(Buffer.from('hell').toString('base64'))).toBe(4);
    const big = 'A'.repeat(Math.ceil(((MAX_FILES_BYTES + 3) * 4) / 3));
    expect(checkTemplate({ ...soup, files: [{ name: 'big', type: '', base64: big }] })).toEqual({ ok: false, problem: expect.stringContaining('20.0 MB') });
  });
  it('name the one to run when a file holds several', () => {
    const two = [soup, { name: 'Bare', task: 'Say hi' }];
    expect(pickTemplate([soup])).toBe(soup);
    expect(pickTemplate(two)).toMatch(/2 saved tasks: say which with --task-name \("Soup", "Bare"\)/);
    expect(pickTemplate(two, 'Bare')).toEqual({ name: 'Bare', task: 'Say hi' });
    expect(pickTemplate(two, 'Nope')).toMatch(/no saved task named "Nope"/);
  });
});
