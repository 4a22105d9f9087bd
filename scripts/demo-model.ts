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
import { ELEMENTS_START, parsePrompt, scriptedPolicy, type Goal, type PromptParts } from './scripted-model';
import { DEFAULT_SETTINGS } from '../src/core/settings';
import { DIALECTS, type DialectId } from '../src/core/dialects/registry';
import { look, nextMove, stopLooking, type DemoMove, type DemoTask } from './demo-look';
import { dialectOfRequest, lastImage, looksIn, requestText, speak } from './demo-speakers';

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

const FORMATS: Array<{ re: RegExp; option: DemoTask['format'] }> = [
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

/** The dialects the demo model plays: glm-web by the element list, the others it speaks by reading the screenshot (demo-speakers.ts). */
export const PLAYED_DIALECTS: readonly DialectId[] = (Object.keys(DIALECTS) as DialectId[]).filter((id) => id === 'glm-web' || looksIn(id));

/**
 * What the demo model answers, as an HTTP 400 (the run stops at once and shows it), to a request
 * it cannot play: AppAgent's step (its model picks the numbered tags drawn on the screenshot),
 * Explore, Record a demonstration, Check coordinates, the batch judge, a plain chat. A reply in
 * some grammar would only be read as unreadable three times over.
 */
export const NOT_PLAYED = 'The scripted demo model (not a real model) plays the demo bookshop in the dialects '
  + `${PLAYED_DIALECTS.join(', ')}. It cannot play appagent (its model reads the numbered tags on the screenshot), `
  + 'Explore, Record a demonstration, Check coordinates or the batch judge: those need a real model.';

/** Is this request a glm-web step (the web prompt's element list and history, one picture)? */
export function isWebStep(body: Record<string, unknown>): boolean {
  return webStep(body) !== null;
}

/** The glm-web step's parts, or null when the request is not one. */
function webStep(body: Record<string, unknown>): PromptParts | null {
  const p = parsePrompt(body);
  return p && p.imageUrl !== '' && p.text.includes(ELEMENTS_START) && p.text.includes('# Task:\n') ? p : null;
}

/** The book and the format a task asks for (paperback when none is named), read from a request's text; null: not the shop's. */
export function demoTaskOf(text: string, titles = demoCatalog().map((b) => b.title)): DemoTask | null {
  const lower = text.toLowerCase();
  const title = [...titles].sort((a, b) => b.length - a.length).find((x) => lower.includes(x.toLowerCase()));
  if (!title) return null;
  // the format is named near the title, in the task's sentence (not in the prompt's own words)
  const at = lower.indexOf(title.toLowerCase());
  const near = text.slice(Math.max(0, at - 120), at + title.length + 120);
  return { title, format: FORMATS.find((f) => f.re.test(near))?.option ?? 'Paperback' };
}

/** The reply to a step of a dialect that gets only a screenshot: the screenshot read, the page's next move, in the dialect's words. */
async function lookingReply(id: DialectId, body: Record<string, unknown>, said: string, titles: string[]): Promise<ModelReply | null> {
  const task = demoTaskOf(said, titles);
  const image = lastImage(body);
  if (!image) return null;
  const screen = await look(image);
  const move: DemoMove = task ? nextMove(task, screen, said) : { kind: 'answer', text: NOT_A_MODEL };
  const content = speak(id, move, screen, said);
  return content === null ? null : { content };
}

/** The scripted model's reply to one request (glm-web; any other dialect's request is told what this is). */
export function demoReply(prompt: Parameters<ReturnType<typeof scriptedPolicy>>[0], titles?: string[]): ModelReply {
  if (!prompt) return { content: `${NOT_A_MODEL} This request is not a glm-web step.` };
  const goals = demoGoals(prompt.task, titles);
  if (!goals) return scriptedPolicy([{ do: 'answer', text: NOT_A_MODEL, thought: 'This task is not one of the demo bookshop\'s.' }], 'glm')(prompt);
  return scriptedPolicy(goals, 'glm', { readPage: true })(prompt);
}

/** The demo model on 127.0.0.1 (`port` 0: a free one); the extension's "Test connection" is answered OK. */
export async function startDemoModel(port = 0): Promise<ChatServer> {
  const titles = demoCatalog().map((b) => b.title);
  let n = 0;
  const server = await startChatServer({
    models: [DEMO_MODEL],
    port,
    answer: async (body) => {
      if (isConnectionTest(body)) return { json: completion('chatcmpl-demo-test', body, 'OK', usageOf(20, 'OK')) };
      let reply: ModelReply | null;
      const web = webStep(body);
      if (web) reply = demoReply(web, titles);
      else {
        const said = requestText(body);
        const id = dialectOfRequest(said);
        try {
          reply = id && PLAYED_DIALECTS.includes(id) ? await lookingReply(id, body, said, titles) : null;
        } catch (e) {
          return { status: 400, message: `The scripted demo model could not read the screenshot: ${e instanceof Error ? e.message : String(e)}` };
        }
      }
      if (!reply) return { status: 400, message: NOT_PLAYED };
      return { reply, id: `chatcmpl-demo-${n}`, usage: usageOf(1000 + n++, reply.content) };
    },
  });
  // the screenshot reader (a worker thread) stops with the server
  return { baseUrl: server.baseUrl, close: async () => { await server.close(); await stopLooking(); } };
}

export const DEFAULT_DEMO_PORT = 8765;

/**
 * npm run demo-model's flags: --port (the model's; the shop listens on the next port), default
 * DEFAULT_DEMO_PORT; --dialect, the dialect to set in Settings (the model plays whichever of
 * PLAYED_DIALECTS a request is in: the flag only says which to choose), default glm-web.
 */
export function demoModelArgs(args: string[]): { port: number; dialect: DialectId } {
  const { values } = parseArgs({ args, options: { port: { type: 'string' }, dialect: { type: 'string' } }, strict: true });
  const port = values.port === undefined ? DEFAULT_DEMO_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65534) throw new Error(`--port must be a whole number from 1 to 65534 (got ${values.port}).`);
  const dialect = (values.dialect ?? 'glm-web') as DialectId;
  if (!PLAYED_DIALECTS.includes(dialect)) {
    const why = dialect === 'appagent' ? ' (its model reads the numbered tags drawn on the screenshot, which the demo model cannot)' : '';
    throw new Error(`--dialect ${values.dialect}: the demo model does not play it${why}; it plays ${PLAYED_DIALECTS.join(', ')}.`);
  }
  return { port, dialect };
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
