// npm-script entry: make sure a Chromium exists before the browser tests run.
import { register } from 'tsx/esm/api';
register();
const { ensureChromium } = await import('./chromium.ts');
console.log(`chromium: ${ensureChromium()}`);
