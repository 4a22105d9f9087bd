/** Export file names a person can sort (core/export/file-name.ts): site, local start time, task words. */
import { describe, expect, it } from 'vitest';
import { exportFileName, sortableTime } from '../../src/core/export/file-name';

const at = (y: number, mo: number, d: number, h: number, mi: number) => new Date(y, mo - 1, d, h, mi).getTime();

describe('export file names', () => {
  it('are site, local date and time, and the first words of the task', () => {
    expect(exportFileName({ startUrl: 'https://www.shop.example/books?q=1', startedAt: at(2025, 1, 31, 14, 22), task: 'Find the price of the hardcover edition of "The Pragmatic Programmer"' }, 'zip'))
      .toBe('shop.example-2025-01-31-1422-find-the-price-of-the-hardcover.zip');
    expect(exportFileName({ startUrl: 'http://127.0.0.1:4173/recipes/', startedAt: at(2024, 12, 1, 9, 5), task: 'Calories?' }, 'json'))
      .toBe('127.0.0.1-2024-12-01-0905-calories.json');
  });

  it('never cut a hyphenated word in two: "e-book" is one word', () => {
    expect(exportFileName({ startUrl: 'https://shop.example/', startedAt: at(2025, 1, 31, 14, 22), task: 'Find the price of the e-book edition' }, 'json'))
      .toBe('shop.example-2025-01-31-1422-find-the-price-of-the-e-book.json');
  });

  it('sort by site, then by time', () => {
    const names = [
      exportFileName({ startUrl: 'https://b.example/', startedAt: at(2025, 1, 1, 8, 0), task: 'x' }, 'html'),
      exportFileName({ startUrl: 'https://a.example/', startedAt: at(2025, 3, 1, 8, 0), task: 'a' }, 'html'),
      exportFileName({ startUrl: 'https://a.example/', startedAt: at(2025, 1, 9, 23, 59), task: 'z' }, 'html'),
      exportFileName({ startUrl: 'https://a.example/', startedAt: at(2025, 1, 10, 0, 1), task: 'b' }, 'html'),
    ];
    expect([...names].sort()).toEqual([names[2], names[3], names[1], names[0]]);
  });

  it('keep letters of any script and nothing a file system refuses', () => {
    const n = exportFileName({ startUrl: 'https://shop.example/', startedAt: at(2025, 5, 6, 7, 8), task: '查找 《程序员修炼之道》 的价格 / a:b*c?"<>|' }, 'zip');
    expect(n).toBe('shop.example-2025-05-06-0708-查找-程序员修炼之道-的价格-a-b-c.zip');
    expect(n).not.toMatch(/[\\/:*?"<>|\s]/);
    const long = exportFileName({ startUrl: 'https://s.example/', startedAt: at(2025, 5, 6, 7, 8), task: 'x'.repeat(500) }, 'zip');
    expect(long).toBe(`s.example-2025-05-06-0708-${'x'.repeat(48)}.zip`);
  });

  it('still name a run without a site, a task or a date', () => {
    expect(exportFileName({ startUrl: 'file:///tmp/page.html', startedAt: Number.NaN, task: '   ' }, 'json')).toBe('page-undated.json');
    expect(sortableTime(at(2025, 10, 11, 12, 13))).toBe('2025-10-11-1213');
  });
});
