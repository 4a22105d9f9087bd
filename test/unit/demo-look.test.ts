/**
 * The demo model's reading of the demo bookshop (scripts/demo-look.ts nextMove), on words as the
 * screenshot reader gives them: the page as it is now decides the move.
 */
import { describe, expect, it } from 'vitest';
import { CURSOR_IN_BOX, nextMove, type Screen, type Word } from '../../scripts/demo-look';

/** Words of one line, from x, each 10 px a letter. */
function line(y: number, text: string, x = 20, height = 16): Word[] {
  const out: Word[] = [];
  for (const w of text.split(' ')) {
    out.push({ text: w, x, y, width: w.length * 10, height });
    x += w.length * 10 + 10;
  }
  return out;
}
const screen = (...lines: Word[][]): Screen => ({ words: lines.flat(), width: 1280, height: 800 });
const task = { title: 'Clean Code', format: 'Hardcover' as const };

describe('the demo model reads the shop', () => {
  it('home page: types the title into the search box, then presses Enter once the title is in it', () => {
    const home = screen(line(100, 'Find your next book'), [...line(178, 'Search books by title or author'), ...line(176, 'Search', 850)]);
    expect(nextMove(task, home, '')).toMatchObject({ kind: 'type', text: 'Clean Code' });
    expect(nextMove(task, home, CURSOR_IN_BOX)).toMatchObject({ kind: 'type' });
    const typed = screen(line(100, 'Find your next book'), [...line(178, 'Clean Code'), ...line(176, 'Search', 850)]);
    expect(nextMove(task, typed, '')).toMatchObject({ kind: 'enter' });
  });

  it('results: clicks the book, not the heading nor a sponsored result; scrolls when it is not wholly on the screen', () => {
    const results = screen(line(104, 'Results for "clean code"'), line(188, 'Sponsored: Clean Code'), line(400, 'Clean Code'));
    expect(nextMove(task, results, '')).toMatchObject({ kind: 'click', at: { y: 408 } });
    const cut = screen(line(104, 'Results for "clean code"'), line(188, 'Sponsored: Clean Code'), line(790, 'Clean Code'));
    expect(nextMove(task, cut, '')).toMatchObject({ kind: 'scroll' });
  });

  it('book page: opens the Format list, chooses the format asked for, answers the big price of that format', () => {
    const paper = screen(line(104, 'Clean Code', 20, 25), line(208, 'Format'), line(240, 'Paperback'), line(300, '$37.99', 20, 25), line(384, 'Add Paperback to cart - $37.99'));
    expect(nextMove(task, paper, '')).toMatchObject({ kind: 'click', at: { y: 248 } });
    const open = screen(line(208, 'Format'), line(240, 'Paperback'), line(276, 'Paperback'), line(304, 'Hardcover'), line(332, 'E-book'), line(384, 'Add Paperback to cart - $37.99'));
    const choose = nextMove(task, open, '');
    expect(choose).toMatchObject({ kind: 'click', at: { y: 312 } });
    const hard = screen(line(208, 'Format'), line(240, 'Hardcover'), line(300, '$49.99', 20, 25), line(384, 'Add Hardcover to cart - $49.99'));
    expect(nextMove(task, hard, '')).toEqual({ kind: 'answer', text: '$49.99' });
    // nothing on the page says the format (the reader missed it): the model remembers choosing it
    const unread = screen(line(208, 'Format'), line(300, '$49.99', 20, 25));
    expect(nextMove(task, unread, (choose as { thought: string }).thought)).toEqual({ kind: 'answer', text: '$49.99' });
  });

  it('a screen that is none of the shop\'s pages: it gives up, saying why', () => {
    expect(nextMove(task, screen(line(100, 'Welcome to another site')), '')).toMatchObject({ kind: 'give-up' });
  });
});
