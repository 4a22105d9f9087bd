import { defineConfig, type Plugin } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import { readFileSync } from 'node:fs';
import manifest from './manifest.json' with { type: 'json' };
import pkg from './package.json' with { type: 'json' };
import { withoutSourceMapComment } from './scripts/release.ts';

/**
 * OCR's files, shipped in the extension (src/offscreen/ocr.ts loads them from there, never from a
 * CDN): Tesseract's worker, its WebAssembly core (SIMD, LSTM only) and the English trained data
 * (tessdata_best, integer: @tesseract.js-data/eng). The worker's source map comment is left out:
 * its map is not shipped (the release package refuses source maps, docs/release.md).
 */
const OCR_FILES: Record<string, string> = {
  'ocr/worker.min.js': 'node_modules/tesseract.js/dist/worker.min.js',
  'ocr/tesseract-core-simd-lstm.wasm.js': 'node_modules/tesseract.js-core/tesseract-core-simd-lstm.wasm.js',
  'ocr/eng.traineddata.gz': 'node_modules/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz',
};

function ocrFiles(): Plugin {
  return {
    name: 'ocr-files',
    apply: 'build',
    generateBundle() {
      for (const [fileName, from] of Object.entries(OCR_FILES)) {
        const source = fileName.endsWith('.js') ? withoutSourceMapComment(readFileSync(from, 'utf8')) : readFileSync(from);
        this.emitFile({ type: 'asset', fileName, source });
      }
    },
  };
}

export default defineConfig(({ mode }) => ({
  // the release build (npm run package: mode "release") leaves out what only the tests use (src/core/release.ts)
  define: { __RELEASE__: JSON.stringify(mode === 'release') },
  // the version has one home, package.json (docs/release.md); manifest.json has none
  plugins: [preact(), crx({ manifest: { ...manifest, version: pkg.version } }), ocrFiles()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The extension runs from disk; keep files readable for reviewers and traces.
    minify: false,
    sourcemap: false,
    // the offscreen document is no manifest entry: named here to be built
    rollupOptions: { input: { ocr: 'src/offscreen/ocr.html' } },
  },
}));
