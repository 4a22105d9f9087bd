/**
 * The labeling corpus (test/fixtures/pages/marks/): which pages, how to serve them, how to open one.
 *
 * 1. Every *.html directly in the folder is a corpus page (frames/ holds iframe contents only).
 * 2. The folder is served twice: http://127.0.0.1:P1/ (the page) and http://localhost:P2/ (a
 *    second origin for cross-origin iframes, passed to the page as ?x=http://localhost:P2).
 * 3. A page may ask for a device pixel ratio with <meta name="bench-dpr" content="2">.
 * 4. /lib/ serves the web-component libraries (wc-libs.ts) on both origins.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveDir, type StaticServer } from '../../scripts/static-server';
import { libMounts } from './wc-libs';

export const CORPUS_DIR = path.resolve(import.meta.dirname, '..', 'fixtures', 'pages', 'marks');
export const VIEWPORT = { width: 1280, height: 800 };

export interface CorpusPage {
  /** file name, e.g. "news-sticky-header.html" */
  name: string;
  /** device pixel ratio the page asks for (1 unless <meta name="bench-dpr">) */
  dpr: number;
}

export function listPages(filter?: string): CorpusPage[] {
  const names = readdirSync(CORPUS_DIR).filter((f) => f.endsWith('.html')).sort();
  const wanted = filter ? filter.split(',').map((s) => s.trim()).filter(Boolean) : [];
  return names
    .filter((n) => !wanted.length || wanted.some((w) => n.includes(w)))
    .map((name) => {
      const html = readFileSync(path.join(CORPUS_DIR, name), 'utf8');
      const m = /<meta\s+name="bench-dpr"\s+content="([\d.]+)"/i.exec(html);
      return { name, dpr: m ? Number(m[1]) : 1 };
    });
}

export interface Corpus {
  /** the page's URL on the first origin, with ?x= naming the second origin */
  url(name: string): string;
  close(): Promise<void>;
}

export async function serveCorpus(): Promise<Corpus> {
  const mounts = await libMounts();
  const a: StaticServer = await serveDir(CORPUS_DIR, 0, { mounts });
  const b: StaticServer = await serveDir(CORPUS_DIR, 0, { mounts });
  const second = b.url.replace('127.0.0.1', 'localhost').replace(/\/$/, '');
  return {
    url: (name) => `${a.url}${name}?x=${second}`,
    close: async () => { await a.close(); await b.close(); },
  };
}
