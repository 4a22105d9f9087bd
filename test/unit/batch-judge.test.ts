/**
 * The batch judges: their requests, their reply readers on real-looking replies, and judgeFolder
 * (scripts/batch/judge.ts) against the fake model's stand-in judge, on task folders written to a
 * temporary directory with and without the success banner in the screenshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  keyPointsRequest, mind2webVerdictText, outcomeRequest, readKeyPoints, readOutcome, readScore, readWebVoyagerVerdict,
  screenshotScoreRequest, webVoyagerJudgeRequest, WEBVOYAGER_JUDGE_SYSTEM, type JudgePart,
} from '../../src/core/batch/judge';
import { judgeFolder } from '../../scripts/batch/judge';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import { judgeAnswer, showsBanner, SUCCESS_BANNER } from '../fixtures/model/judge';
import { blankImage, encodePng, fillRect, pngDataUrl } from '../../scripts/png';
import { parseColour } from '../fixtures/model/locate';

const partsOf = (content: unknown) => content as JudgePart[];

describe('WebVoyager judge', () => {
  it('sends the task, the response and the screenshots as auto_eval.py words them, temperature 0', () => {
    const req = webVoyagerJudgeRequest('Find the calories', '610 kcal', ['data:image/png;base64,AAA', 'data:image/png;base64,BBB']);
    expect(req.temperature).toBe(0);
    expect(req.messages[0]).toEqual({ role: 'system', content: WEBVOYAGER_JUDGE_SYSTEM });
    const parts = partsOf(req.messages[1].content);
    expect(parts[0]).toEqual({ type: 'text', text: 'TASK: Find the calories\nResult Response: 610 kcal\n2 screenshots at the end: ' });
    expect(parts.slice(1, 3)).toEqual([
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAA', detail: 'high' } },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,BBB', detail: 'high' } },
    ]);
    expect(parts[3]).toEqual({ type: 'text', text: 'Your verdict:\n' });
    // the rules DIALECTS.md lists
    for (const rule of [/screenshots win/, /believe the response/, /Every part must be met/, /Do not assume anything that the screenshots do not show/, /'SUCCESS' or 'NOT SUCCESS'/]) {
      expect(WEBVOYAGER_JUDGE_SYSTEM).toMatch(rule);
    }
  });

  it('reads verdicts as auto_eval.py does', () => {
    expect(readWebVoyagerVerdict('The screenshot shows the recipe with 4.6 stars and 181 reviews, matching the response.\n\nVerdict: SUCCESS')).toBe(true);
    expect(readWebVoyagerVerdict('The response names a product, but the screenshot shows a different colour. Therefore the task is NOT SUCCESS.')).toBe(false);
    // 'NOT SUCCESS' anywhere wins, even after a SUCCESS
    expect(readWebVoyagerVerdict('Part one is a SUCCESS, but the summary is missing: NOT SUCCESS')).toBe(false);
    expect(readWebVoyagerVerdict('**Final verdict:** SUCCESS')).toBe(true);
    expect(readWebVoyagerVerdict('I cannot tell from these screenshots.')).toBeNull();
    expect(readWebVoyagerVerdict('success')).toBeNull(); // auto_eval.py's test is case-sensitive
  });
});

describe('Online-Mind2Web judge (WebJudge)', () => {
  it('reads key points under their heading, bold or not', () => {
    expect(readKeyPoints('**Key Points**:\n1. Filter by 4 stars\n2. Sort by price')).toBe('1. Filter by 4 stars\n2. Sort by price');
    expect(readKeyPoints('Key Points: 1. Cheapest flight')).toBe('1. Cheapest flight');
    expect(readKeyPoints('1. Just a list')).toBe('1. Just a list');
  });

  it('reads stage-2 scores tolerantly, and no score as null', () => {
    expect(readScore('**Reasoning**: The page lists the cheapest flight.\n**Score**: 4')).toEqual({ score: 4, reasoning: 'The page lists the cheapest flight.' });
    expect(readScore('### Reasoning\nA cart page.\n### Score\n5')).toEqual({ score: 5, reasoning: 'A cart page.' });
    expect(readScore('Reasoning: blank page. Score: "2"').score).toBe(2);
    expect(readScore('reasoning: nothing\nscore: 3/5').score).toBe(3);
    expect(readScore('It shows the search results.')).toEqual({ score: null, reasoning: 'It shows the search results.' });
    expect(readScore('Score: 9').score).toBeNull();
    expect(readScore('Score: 4.5').score).toBeNull();
  });

  it('reads the outcome: Status success or failure, bold, quoted, any case', () => {
    expect(readOutcome('All key points are met.\nStatus: "success"')).toBe(true);
    expect(readOutcome('The filter was not applied.\n**Status**: "failure"')).toBe(false);
    expect(readOutcome('Status: Success')).toBe(true);
    expect(readOutcome("status: 'FAILURE'")).toBe(false);
    expect(readOutcome('Thoughts on success criteria.\nStatus: `failed`')).toBe(false);
    expect(readOutcome('The task looks successful.')).toBeNull();
  });

  it('builds the three stages: text-only key points, one screenshot per score request, kept screenshots with notes and the actions', () => {
    expect(typeof keyPointsRequest('Buy milk').messages[1].content).toBe('string');
    const score = partsOf(screenshotScoreRequest('Buy milk', '1. milk', 'data:image/png;base64,A').messages[1].content);
    expect(score.filter((p) => p.type === 'image_url')).toHaveLength(1);
    const out = outcomeRequest('Buy milk', '1. milk', [{ url: 'data:image/png;base64,A', reasoning: 'The cart shows milk.' }], ['Click [3] "Milk"', 'Click [7] "Add"'], 'Milk added');
    const parts = partsOf(out.messages[1].content);
    const text = (parts[0] as { text: string }).text;
    expect(text).toContain('Action history:\n1. Click [3] "Milk"\n2. Click [7] "Add"');
    expect(text).toContain('Final response: Milk added');
    expect(parts[1]).toEqual({ type: 'text', text: 'Screenshot 1: The cart shows milk.' });
    expect(parts[2].type).toBe('image_url');
    expect(out.temperature).toBe(0);
  });

  it('says in the verdict text which scores were missing and counted as 0', () => {
    const t = mind2webVerdictText('1. milk', [
      { name: 'screenshot1.png', score: 0, missing: true, reasoning: '' },
      { name: 'screenshot2.png', score: 4, missing: false, reasoning: '' },
    ], 'Status: "success"');
    expect(t).toContain('screenshot1.png: 0 (the reply gave no score 1–5; counted as 0)');
    expect(t).toContain('kept when 3 or more: 1 of 2');
  });
});

// --- judgeFolder against the fake model's stand-in judge ---

const banner = () => { const img = blankImage(200, 150); fillRect(img, 0, 0, 200, 30, parseColour(SUCCESS_BANNER)); return img; };
const plain = () => { const img = blankImage(200, 150); fillRect(img, 20, 60, 40, 20, [0, 80, 200]); return img; };

function messages(answer: string | null): unknown[] {
  const user = { role: 'user', content: [{ type: 'text', text: 'Now given a task: Add milk to the basket  Please interact with https://shop.example/ and get the answer. \nObservation: …' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,{b64_img}' } }] };
  return [
    { role: 'system', content: 'exported' }, user,
    { role: 'assistant', content: answer === null ? 'Thought: go\n\nAction: Click [3]' : `Thought: done\n\nAction: ANSWER; ${answer}` },
  ];
}

describe('judgeFolder', () => {
  let fake: FakeModel;
  let root: string;
  const KEY = 'sk-judge-secret-123';

  function folder(name: string, shots: Array<'banner' | 'plain'>, answer: string | null): string {
    const dir = path.join(root, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'interact_messages.json'), JSON.stringify(messages(answer)));
    shots.forEach((s, i) => writeFileSync(path.join(dir, `screenshot${i + 1}.png`), encodePng(s === 'banner' ? banner() : plain())));
    writeFileSync(path.join(dir, 'trace.json'), JSON.stringify({ steps: [{ actionText: 'Click [3]', target: null }, { actionText: 'ANSWER; Milk added', target: null }] }));
    return dir;
  }
  const opts = (judge: 'webvoyager' | 'mind2web') => ({ baseUrl: fake.baseUrl, apiKey: KEY, model: 'judge-model', judge });

  beforeAll(async () => {
    fake = await startFakeModel({ apiKey: KEY, models: ['judge-model'], judge: true, policy: () => ({ content: 'not a judge request' }) });
    root = mkdtempSync(path.join(tmpdir(), 'batch-judge-'));
  });
  afterAll(async () => {
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('the stand-in judge sees the banner only where it is painted', () => {
    expect(showsBanner(pngDataUrl(banner()))).toBe(true);
    expect(showsBanner(pngDataUrl(plain()))).toBe(false);
    expect(showsBanner('data:image/png;base64,AAAA')).toBe(false);
    expect(judgeAnswer({ messages: [{ role: 'user', content: 'hi' }] })).toBeNull();
  });

  it('WebVoyager: SUCCESS when the last screenshot shows the banner and there is an answer', async () => {
    const before = fake.judgings.length;
    const v = await judgeFolder(folder('taskShop--0', ['plain', 'plain', 'plain', 'banner'], 'Milk added'), opts('webvoyager'));
    expect('error' in v).toBe(false);
    if ('error' in v) return;
    expect(v).toMatchObject({ judge: 'webvoyager', success: true, model: 'judge-model', screenshots: 3 });
    expect(v.text).toContain('SUCCESS');
    expect(v.usage!.promptTokens).toBeGreaterThan(0);
    expect(fake.judgings.length - before).toBe(1);
    const sent = fake.judgings.at(-1)! as { temperature: number; stream?: boolean; messages: Array<{ content: unknown }> };
    expect(sent.temperature).toBe(0);
    expect(sent.stream ?? false).toBe(false);
    expect(partsOf(sent.messages[1].content).filter((p) => p.type === 'image_url')).toHaveLength(3);
    expect(fake.requests).toHaveLength(0); // answered apart from the run's policy
    expect(JSON.stringify(v)).not.toContain(KEY);
  });

  it('WebVoyager: NOT SUCCESS when the last screenshot has no banner, even with the banner earlier', async () => {
    const v = await judgeFolder(folder('taskShop--1', ['banner', 'plain'], 'Milk added'), { ...opts('webvoyager'), screenshots: 2 });
    expect(v).toMatchObject({ success: false, screenshots: 2 });
  });

  it('WebVoyager: a folder without an answer fails without asking the judge', async () => {
    const before = fake.judgings.length;
    const v = await judgeFolder(folder('taskShop--2', ['banner'], null), opts('webvoyager'));
    expect(v).toMatchObject({ judge: 'webvoyager', success: false, usage: null, screenshots: 0 });
    expect(!('error' in v) && v.text).toMatch(/No answer.*auto_eval\.py/s);
    expect(fake.judgings.length).toBe(before);
  });

  it('Mind2Web: key points, one score per screenshot, then the outcome; success with the banner', async () => {
    const before = fake.judgings.length;
    const v = await judgeFolder(folder('taskShop--3', ['plain', 'plain', 'banner'], 'Milk added'), opts('mind2web'));
    expect(v).toMatchObject({ judge: 'mind2web', success: true, screenshots: 3 });
    expect(fake.judgings.length - before).toBe(1 + 3 + 1);
    const last = fake.judgings.at(-1)! as { messages: Array<{ content: unknown }> };
    const parts = partsOf(last.messages[1].content);
    expect(parts.filter((p) => p.type === 'image_url')).toHaveLength(1); // only the banner scored ≥ 3
    expect((parts[0] as { text: string }).text).toContain('1. Click [3]'); // actions from trace.json
    if ('error' in v) return;
    expect(v.text).toContain('Add milk to the basket');
    expect(v.text).toContain('kept when 3 or more: 1 of 3');
    expect(v.usage!.promptTokens).toBe(1500 * 5);
  });

  it('Mind2Web: failure without the banner; an answerless run is still judged (and fails)', async () => {
    const plainRun = await judgeFolder(folder('taskShop--4', ['plain', 'plain'], 'Milk added'), { ...opts('mind2web'), actions: ['Click [1]'] });
    expect(plainRun).toMatchObject({ success: false });
    const before = fake.judgings.length;
    const noAnswer = await judgeFolder(folder('taskShop--5', ['banner'], null), opts('mind2web'));
    expect(noAnswer).toMatchObject({ judge: 'mind2web', success: false });
    expect(fake.judgings.length - before).toBe(3);
  });

  it('errors: no folder; a broken interact_messages.json; a refused key (never echoed)', async () => {
    const missing = await judgeFolder(path.join(root, 'nope'), opts('webvoyager'));
    expect(missing).toMatchObject({ error: expect.stringMatching(/Cannot read the task folder/) });
    const broken = folder('taskShop--7', ['banner'], 'x');
    writeFileSync(path.join(broken, 'interact_messages.json'), '{"cut');
    expect(await judgeFolder(broken, opts('mind2web'))).toMatchObject({ error: expect.stringMatching(/not JSON/) });
    const dir = folder('taskShop--6', ['banner'], 'x');
    const wrong = await judgeFolder(dir, { ...opts('webvoyager'), apiKey: 'sk-wrong-key-456' });
    expect(wrong).toMatchObject({ error: expect.stringMatching(/401/) });
    expect(JSON.stringify(wrong)).not.toContain('sk-wrong-key-456');
  });

  it('sends nothing through a symbolic link: a linked folder, linked messages or a linked screenshot are refused', async () => {
    const before = fake.judgings.length;
    // someone else's folder, linked in where a task's folder goes
    const victim = folder('victim', ['banner'], 'Milk added');
    const linked = path.join(root, 'taskShop--8');
    symlinkSync(victim, linked);
    expect(await judgeFolder(linked, opts('webvoyager'))).toMatchObject({ error: expect.stringMatching(/^Cannot read the task folder .*taskShop--8: it is not a folder \(a symbolic link is not followed\)$/) });
    const messagesLinked = folder('taskShop--9', ['banner'], 'Milk added');
    rmSync(path.join(messagesLinked, 'interact_messages.json'));
    symlinkSync(path.join(victim, 'interact_messages.json'), path.join(messagesLinked, 'interact_messages.json'));
    expect(await judgeFolder(messagesLinked, opts('webvoyager'))).toMatchObject({ error: expect.stringMatching(/interact_messages\.json is a symbolic link, which is not followed$/) });
    const shotLinked = folder('taskShop--10', ['plain'], 'Milk added');
    rmSync(path.join(shotLinked, 'screenshot1.png'));
    symlinkSync(path.join(victim, 'screenshot1.png'), path.join(shotLinked, 'screenshot1.png'));
    expect(await judgeFolder(shotLinked, opts('webvoyager'))).toMatchObject({ error: expect.stringMatching(/^Cannot read a screenshot in .*: screenshot1\.png is a symbolic link, which is not followed$/) });
    expect(fake.judgings.length, 'nothing reached the judge').toBe(before);
    // the folder itself, read where it is, is judged
    expect(await judgeFolder(victim, opts('webvoyager'))).toMatchObject({ success: true });
  });
});
