/** Files for file inputs (core/files.ts): the size cap, `accept`, one or several, what the model is told. */
import { describe, expect, it } from 'vitest';
import { accepts, formatBytes, pickFiles, whyNotAttach, MAX_FILES_BYTES, type FileMeta } from '../../src/core/files';
import { createRun, modelText, reduce } from '../../src/core/run';
import { toTrace } from '../../src/core/trace';
import { fromTrace, parseTrace } from '../../src/core/trace/import';

const txt: FileMeta = { name: 'Notes.TXT', type: 'text/plain', size: 22 };
const png: FileMeta = { name: 'cat.png', type: 'image/png', size: 3000 };
const pdf: FileMeta = { name: 'cv.pdf', type: 'application/pdf', size: 50_000 };
const odd: FileMeta = { name: 'data', type: '', size: 10 };

describe('files', () => {
  it('accept: extensions (any case), MIME groups, exact MIME types; empty takes all', () => {
    expect(accepts('', odd)).toBe(true);
    expect(accepts('.txt', txt)).toBe(true);
    expect(accepts('.pdf, .doc', txt)).toBe(false);
    expect(accepts('image/*', png)).toBe(true);
    expect(accepts('image/*', pdf)).toBe(false);
    expect(accepts('application/pdf', pdf)).toBe(true);
    expect(accepts('IMAGE/PNG', png)).toBe(true);
    expect(accepts('image/*', odd)).toBe(false);
  });

  it('one file for a single input, all accepted for a multiple one; refused and left over are named', () => {
    expect(pickFiles([txt, png, pdf], 'image/*,.pdf', false)).toEqual({ chosen: [png], refused: [txt], left: [pdf] });
    expect(pickFiles([txt, png, pdf], 'image/*,.pdf', true)).toEqual({ chosen: [png, pdf], refused: [txt], left: [] });
    expect(pickFiles([], '', true)).toEqual({ chosen: [], refused: [], left: [] });
  });

  it('a Type text that names attached files prefers them; one that names none changes nothing', () => {
    expect(pickFiles([txt, png, pdf], '', false, 'cv.pdf').chosen).toEqual([pdf]);
    expect(pickFiles([txt, png, pdf], '', true, 'upload cat.png and cv.pdf').chosen).toEqual([png, pdf]);
    expect(pickFiles([txt, png, pdf], '', false, 'my resume').chosen).toEqual([txt]);
  });

  it('the size cap counts what is already attached and says so', () => {
    expect(whyNotAttach([], { ...pdf, size: MAX_FILES_BYTES })).toBeNull();
    expect(whyNotAttach([txt], { ...pdf, size: MAX_FILES_BYTES })).toBe('"cv.pdf" (20.0 MB) was not attached: the files of one run may add up to 20.0 MB, and 22 B is already attached.');
    expect(whyNotAttach([txt, png], { name: 'x', type: '', size: 100 }, 3000)).toBe('"x" (100 B) was not attached: the files of one run may add up to 3 KB, and 3 KB are already attached.');
    expect(formatBytes(1536)).toBe('2 KB');
  });

  it('what the model is told: chosen, refused, left; nothing attached; nothing accepted', () => {
    const files = [txt, png, pdf];
    expect(modelText.fileChoice(files, pickFiles(files, 'image/*,.pdf', false), 'image/*,.pdf'))
      .toBe('The file chooser got the attached file "cat.png". Not chosen, because the field accepts only image/*,.pdf: "Notes.TXT". The field takes one file, so "cv.pdf" was not chosen.');
    expect(modelText.fileChoice([], pickFiles([], '', false), '')).toBe(modelText.noFilesAttached);
    expect(modelText.fileChoice([txt], pickFiles([txt], 'image/*', true), 'image/*'))
      .toBe('This opened a file chooser, but none of the attached files ("Notes.TXT") is of a type the field accepts (image/*), so no file was chosen.');
  });

  it('the run keeps the attached files\' names, sizes and types (attached at start or later); the trace carries them and imports them back', () => {
    let s = createRun({ id: 'r', task: 't', startUrl: 'https://a.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 5, at: 1, files: [txt] });
    expect(s.files).toEqual([txt]);
    s = reduce(s, { type: 'files', at: 2, files: [txt, png] });
    const t = toTrace(s, []);
    expect(t.run.files).toEqual([{ name: 'Notes.TXT', size: 22, type: 'text/plain' }, { name: 'cat.png', size: 3000, type: 'image/png' }]);
    const back = parseTrace(JSON.parse(JSON.stringify(t)));
    expect(back.ok && fromTrace(back.trace).files).toEqual([txt, png]);
    const none = toTrace(createRun({ id: 'r', task: 't', startUrl: 'https://a.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 5, at: 1 }), []);
    expect('files' in none.run).toBe(false);
  });
});
