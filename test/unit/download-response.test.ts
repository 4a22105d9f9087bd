/**
 * Which responses are downloads, judged from their headers before any byte of the body is read
 * (issue 48 item 3: core/guards/download-response.ts), and how a download is told to the person
 * and the model (name, type, size, site).
 */
import { describe, expect, it } from 'vitest';
import { dispositionName, displayable, downloadOfResponse, fileNameOf } from '../../src/core/guards/download-response';
import { afterActionHit } from '../../src/core/guards/after';
import { DEFAULT_GUARDS } from '../../src/core/guards';
import { modelText } from '../../src/core/run';
import { translatorFor } from '../../src/core/locales';

const res = (url: string, headers: Record<string, string>, navigation = true, status = 200) =>
  ({ url, status, navigation, headers: Object.entries(headers).map(([name, value]) => ({ name, value })) });

describe('a response is a download', () => {
  it('when it says so (attachment), whatever its type, with the name it gives', () => {
    expect(downloadOfResponse(res('https://cdn.example/get?id=7', { 'Content-Type': 'text/html; charset=utf-8', 'Content-Disposition': 'attachment; filename="invoice.html"', 'Content-Length': '2048' })))
      .toEqual({ filename: 'invoice.html', size: 2048, type: 'text/html' });
    expect(downloadOfResponse(res('https://cdn.example/x', { 'content-disposition': 'ATTACHMENT', 'content-type': 'application/x-desktop' })))
      .toEqual({ filename: 'x', type: 'application/x-desktop' });
  });

  it('when the browser asked for a download (a download link: not a navigation), even a page', () => {
    expect(downloadOfResponse(res('https://shop.example/docs/terms.html', { 'content-type': 'text/html' }, false)))
      .toEqual({ filename: 'terms.html', type: 'text/html' });
  });

  it('when a page load has a type the browser does not show', () => {
    for (const type of ['application/octet-stream', 'application/x-msdownload', 'application/x-desktop', 'application/zip', 'application/vnd.debian.binary-package']) {
      expect(downloadOfResponse(res('https://files.example/setup', { 'content-type': type }))?.type).toBe(type);
    }
  });

  it('not a page, image, text, media, PDF, JSON or XML shown inline, nor a redirect, an error or no content', () => {
    for (const type of ['text/html', 'text/plain', 'image/png', 'video/mp4', 'audio/mpeg', 'application/pdf', 'application/json', 'application/xhtml+xml', 'image/svg+xml', 'application/ld+json', '']) {
      expect(downloadOfResponse(res('https://shop.example/a', type ? { 'content-type': type } : {}))).toBeNull();
    }
    for (const status of [204, 205, 301, 302, 404, 500]) {
      expect(downloadOfResponse(res('https://shop.example/f.exe', { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment' }, true, status))).toBeNull();
    }
  });

  it('types: what a frame shows', () => {
    expect(displayable('text/csv')).toBe(true);
    expect(displayable('application/x-sh')).toBe(false);
  });
});

describe('the file name', () => {
  it('filename* (RFC 5987) first, then filename, quoted or not, escapes undone', () => {
    expect(dispositionName('attachment; filename="a.txt"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.pdf')).toBe('résumé.pdf');
    expect(dispositionName('attachment; filename=plain.zip')).toBe('plain.zip');
    expect(dispositionName('attachment; filename="say \\"hi\\".txt"')).toBe('say "hi".txt');
    expect(dispositionName('attachment')).toBeNull();
    expect(dispositionName('attachment; filename*=UTF-8\'\'%E0%A4%A; filename="fallback.bin"')).toBe('fallback.bin');
  });

  it('never a path: only its last part; the URL\'s last part when none is given', () => {
    expect(fileNameOf('https://x.example/a/b', 'attachment; filename="../../.config/autostart/evil.desktop"')).toBe('evil.desktop');
    expect(fileNameOf('https://x.example/a/b', 'attachment; filename="..\\\\evil.exe"')).toBe('evil.exe');
    expect(fileNameOf('https://x.example/dl/report%202024.csv?x=1')).toBe('report 2024.csv');
    expect(fileNameOf('https://x.example/')).toBe('download');
  });
});

describe('told with name, type, size and site', () => {
  const d = [
    { id: -1, url: 'https://evil.example/f', filename: 'evil.desktop', type: 'application/x-desktop', size: 3_000_000, site: 'evil.example' },
    { id: -2, url: 'https://evil.example/g', filename: 'g.exe' },
  ];
  it('to the person, by the download guard', () => {
    expect(afterActionHit({ url: 'https://shop.example/', downloads: d }, { site: 'https://shop.example/', before: 'https://shop.example/' }, DEFAULT_GUARDS))
      .toEqual({ id: 'download', reason: 'this action started a download: "evil.desktop" (application/x-desktop, 2.9 MB) from evil.example, "g.exe"' });
    expect(afterActionHit({ url: 'https://shop.example/', downloads: d.slice(0, 1) }, { site: 'https://shop.example/', before: 'https://shop.example/', t: translatorFor('zh_CN') }, DEFAULT_GUARDS)?.reason)
      .toBe('此操作开始了下载：来自 evil.example 的 "evil.desktop" (application/x-desktop, 2.9 MB)');
  });
  it('to the model: a refused held response saved nothing; a begun one was cancelled and deleted', () => {
    expect(modelText.downloadUndone(d)).toBe('The page started downloading "evil.desktop" (application/x-desktop, 2.9 MB) from evil.example, "g.exe"; the user did not allow it, so nothing was saved.');
    expect(modelText.downloadUndone([{ ...d[1], id: 4 }])).toBe('The browser began downloading "g.exe"; the user did not allow it, so the download was cancelled and deleted.');
    expect(modelText.downloadKept(d.slice(0, 1))).toBe('The browser began downloading "evil.desktop" (application/x-desktop, 2.9 MB) from evil.example; the download was kept.');
  });
});
