import { DIALECTS } from './src/core/dialects/registry';
import { toMessages } from './src/core/dialects/request';
const shot = { imageWidth: 1280, imageHeight: 800, viewport: { width: 1280, height: 800 } };
for (const [id, d] of Object.entries(DIALECTS)) {
  const parts = d.buildRequest({ task: 'Find the price of "Clean Code"', site: 'http://127.0.0.1/', now: new Date(0), history: [{ index: 0, thought: 'THOUGHT-ONE', action: 'ACTION-ONE', observation: 'Success', hasScreenshot: true }], memory: '', marks: [], shot, apps: [] });
  const msgs = toMessages(parts, ['data:image/png;base64,AAAA', 'data:image/png;base64,BBBB']) as any[];
  console.log('==', id, msgs.map((m) => m.role + ':' + (typeof m.content === 'string' ? 'str' : m.content.map((c: any) => c.type).join('+'))).join(' | '));
  const text = msgs.flatMap((m) => typeof m.content === 'string' ? [m.content] : m.content.filter((c: any) => c.type === 'text').map((c: any) => c.text)).join('\n');
  console.log(text.slice(0, 200).replace(/\n/g, '⏎'));
  const i = text.indexOf('THOUGHT-ONE'); console.log('  thought at', i, text.slice(Math.max(0, i - 80), i + 60).replace(/\n/g, '⏎'));
}
