/**
 * The bundled scripted demo model: an OpenAI-compatible server on 127.0.0.1 that plays the demo
 * bookshop's tasks ("Find the price of the hardcover edition of …", any book of its catalogue) by
 * reading the element list in each prompt (glm-web). It is not a real model: any other task gets
 * an answer that says so. `npm run demo` says so when it uses it; `npm run demo-model` starts it
 * alone (scripts/demo-model-server.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { completion, isConnectionTest, startChatServer, usageOf, type ChatServer, type ModelReply } from './chat-server';
import { ELEMENTS_START, parsePrompt, scriptedPolicy, type Goal } from './scripted-model';
import { DEFAULT_SETTINGS } from '../src/core/settings';

export const DEMO_TASK = 'Find the price of the hardcover edition of "The Pragmatic Programmer"';
export const DEMO_MODEL = 'demo-scripted';
/** The Settings profile `npm run demo -- --keep` saves: named so nobody takes it for a model. */
export const DEMO_PROFILE = 'Demo (scripted, not a model)';
export const DEMO_SITE = path.join(import.meta.dirname, 'demo-site');

/** The demo shop's books (demo-site/catalog.js, a script for the page: run here with a stand-in window). */
export function demoCatalog(): Array<{ title: string }> {
  const w: { CATALOG?: Array<{ title: string }> } = {};
  new Function('window', readFileSync(path.join(DEMO_SITE, 'catalog.js'), 'utf8'))(w);
  return w.CATALOG ?? [];
}

const FORMATS = [
  { re: /hard\s*cover|hardback|精装/i, option: 'Hardcover' },
  { re: /e-?book|kindle|电子/i, option: 'E-book' },
  { re: /paper\s*back|soft\s*cover|平装/i, option: 'Paperback' },
];

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The plan for a task on the demo shop: a book's price (in a format: paperback when none is named), or null. */
export function demoGoals(task: string, titles = demoCatalog().map((b) => b.title)): Goal[] | null {
  const t = task.toLowerCase();
  const title = [...titles].sort((a, b) => b.length - a.length).find((x) => t.includes(x.toLowerCase()));
  if (!title) return null;
  const format = FORMATS.find((f) => f.re.test(task))?.option ?? 'Paperback';
  const goals: Goal[] = [
    { do: 'type', find: /search books/i, text: title, thought: 'The shop has a search box; I will search for the book by title.' },
    { do: 'click', find: new RegExp(`^${esc(title)}$`), thought: 'The results list the book; I will open its page.' },
  ];
  if (format !== 'Paperback') {
    goals.push(
      { do: 'click', find: /format|paperback/i, tag: 'select', thought: 'The price depends on the format; I will open the Format list.' },
      { do: 'click', find: new RegExp(`^${esc(format)}$`), thought: `The list shows the formats; I will choose ${format}.` },
    );
  }
  goals.push({ do: 'answer', from: new RegExp(`Add ${esc(format)} to cart - (\\$[\\d.]+)`), thought: `The button now shows the ${format.toLowerCase()} price.` });
  return goals;
}

/** What the scripted model says to a task it has no plan for (it is not a model). */
export const NOT_A_MODEL = 'I am the scripted demo model, not a real model: I can only find the price of a book in the demo bookshop, '
  + 'such as: Find the price of the hardcover edition of "Clean Code" (paperback, hardcover or e-book; any book of the shop). '
  + 'For any other task, set up a real model in Settings.';

export const DEMO_GOALS: Goal[] = demoGoals(DEMO_TASK)!;

/**
 * What the demo model answers, as an HTTP 400 (the run stops at once and shows it), to a request
 * that is not a glm-web step: another dialect's, Explore, Record a demonstration, Check
 * coordinates, the batch judge. It cannot play those, and a reply in glm-web's grammar would only
 * be read as unreadable three times over.
 */
export const ONLY_GLM_WEB = 'The scripted demo model (not a real model) speaks only the glm-web dialect on the demo bookshop. '
  + 'In Settings choose the dialect "glm-web" to try it; other dialects, Explore, Record a demonstration, '
  + 'Check coordinates and the batch judge need a real model.';

/** Is this request a glm-web step (the web prompt's element list and history, one picture)? */
export function isWebStep(body: Record<string, unknown>): boolean {
  const p = parsePrompt(body);
  return !!p && p.imageUrl !== '' && p.text.includes(ELEMENTS_START) && p.text.includes('# Task:\n');
}

/** The scripted model's reply to one request (glm-web; any other dialect's request is told what this is). */
export function demoReply(prompt: Parameters<ReturnType<typeof scriptedPolicy>>[0], titles?: string[]): ModelReply {
  if (!prompt) return { content: `${NOT_A_MODEL} It speaks the glm-web dialect only: choose that dialect in Settings.` };
  const goals = demoGoals(prompt.task, titles);
  if (!goals) return scriptedPolicy([{ do: 'answer', text: NOT_A_MODEL, thought: 'This task is not one of the demo bookshop\'s.' }], 'glm')(prompt);
  return scriptedPolicy(goals, 'glm', { readPage: true })(prompt);
}

/** The demo model on 127.0.0.1 (`port` 0: a free one); the extension's "Test connection" is answered OK. */
export function startDemoModel(port = 0): Promise<ChatServer> {
  const titles = demoCatalog().map((b) => b.title);
  let n = 0;
  return startChatServer({
    models: [DEMO_MODEL],
    port,
    answer: (body) => {
      if (isConnectionTest(body)) return { json: completion('chatcmpl-demo-test', body, 'OK', usageOf(20, 'OK')) };
      if (!isWebStep(body)) return { status: 400, message: ONLY_GLM_WEB };
      const reply = demoReply(parsePrompt(body), titles);
      return { reply, id: `chatcmpl-demo-${n}`, usage: usageOf(1000 + n++, reply.content) };
    },
  });
}

export const DEFAULT_DEMO_PORT = 8765;

/** npm run demo-model's --port (the model's; the shop listens on the next port), default DEFAULT_DEMO_PORT. */
export function demoModelPort(args: string[]): number {
  const { values } = parseArgs({ args, options: { port: { type: 'string' } }, strict: true });
  const port = values.port === undefined ? DEFAULT_DEMO_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65534) throw new Error(`--port must be a whole number from 1 to 65534 (got ${values.port}).`);
  return port;
}

/** npm run demo's flags: --keep leaves the browser, the shop and the scripted model running after the demo run. */
export function demoArgs(args: string[]): { keep: boolean } {
  const { values } = parseArgs({ args, options: { keep: { type: 'boolean' } }, strict: true });
  return { keep: !!values.keep };
}

/**
 * The settings --keep saves: the scripted model as the endpoint and as a profile named so nobody
 * takes it for a model (the panel shows the profile that matches the saved endpoint).
 */
export function demoSettings(baseUrl: string) {
  const { temperature, maxTokens, stream, extraBody } = DEFAULT_SETTINGS;
  const endpoint = { baseUrl, apiKey: '', model: DEMO_MODEL, dialect: 'glm-web', temperature, maxTokens, stream, extraBody, dialectOptions: {} };
  return { ...endpoint, profiles: { [DEMO_PROFILE]: endpoint } };
}
