import { describe, expect, it } from 'vitest';
import { fieldValue, SET_BY_VALUE } from '../../src/core/field-value';

const value = (type: string, text: string) => {
  const v = fieldValue(type, text);
  return v && 'value' in v ? v.value : v && 'problem' in v ? `problem: ${v.problem}` : null;
};

describe('what a Type action sets in a field keystrokes cannot fill', () => {
  it('dates as people write them', () => {
    for (const [text, iso] of [
      ['2012-09-10', '2012-09-10'], ['2012/9/10', '2012-09-10'], ['09/10/2012', '2012-09-10'], ['9/10/2012', '2012-09-10'],
      ['25/12/2012', '2012-12-25'], ['10.09.2012', '2012-09-10'], ['September 10, 2012', '2012-09-10'], ['Sep 10 2012', '2012-09-10'],
      ['10 Sep 2012', '2012-09-10'], ['10th September 2012', '2012-09-10'], ['2024-02-29', '2024-02-29'],
    ]) expect(value('date', text), text).toBe(iso);
    for (const text of ['2023-02-29', '13/13/2012', '2012-13-01', 'tomorrow', '09/10/12', '']) expect(value('date', text), text).toMatch(/^problem: .*write it like 2012-09-10/);
  });

  it('times, dates with times, months and weeks', () => {
    expect(value('time', '14:30')).toBe('14:30');
    expect(value('time', '2:30 PM')).toBe('14:30');
    expect(value('time', '12 am')).toBe('00:00');
    expect(value('time', '12:05 p.m.')).toBe('12:05');
    expect(value('time', '09:15:30')).toBe('09:15:30');
    expect(value('time', '14h30')).toBe('14:30');
    for (const text of ['25:00', '13 pm', '14', '2:75']) expect(value('time', text), text).toMatch(/^problem/);
    expect(value('datetime-local', '2012-09-10T14:30')).toBe('2012-09-10T14:30');
    expect(value('datetime-local', '09/10/2012 2:30 PM')).toBe('2012-09-10T14:30');
    expect(value('datetime-local', 'September 10, 2012 at 9:05')).toBe('2012-09-10T09:05');
    expect(value('datetime-local', '2012-09-10')).toMatch(/^problem: .*date and time/);
    expect(value('month', '2012-09')).toBe('2012-09');
    expect(value('month', '9/2012')).toBe('2012-09');
    expect(value('month', 'September 2012')).toBe('2012-09');
    expect(value('month', '2012-13')).toMatch(/^problem/);
    expect(value('week', '2012-W37')).toBe('2012-W37');
    expect(value('week', 'week 5, 2013')).toBe('2013-W05');
    expect(value('week', '2012-W60')).toMatch(/^problem/);
  });

  it('colours and ranges', () => {
    expect(value('color', '#F00')).toBe('#ff0000');
    expect(value('color', 'ff8800')).toBe('#ff8800');
    expect(value('color', 'rgb(0, 128, 255)')).toBe('#0080ff');
    expect(value('color', 'Navy')).toBe('#000080');
    expect(value('color', 'rgb(300, 0, 0)')).toMatch(/^problem: .*colour/);
    expect(value('range', ' 40 ')).toBe('40');
    expect(value('range', '-2.5')).toBe('-2.5');
    expect(value('range', 'forty')).toMatch(/^problem/);
  });

  it('other fields are typed into with keys', () => {
    for (const type of ['text', 'email', 'number', 'password', 'search', 'tel', '']) expect(fieldValue(type, '2012-09-10'), type).toBeNull();
    expect([...SET_BY_VALUE].every((t) => fieldValue(t, 'x') !== null)).toBe(true);
  });
});
