/**
 * Fields that keystrokes cannot fill: a date, time, month or week field is split into segments
 * (typing "09/10/2012" into one does nothing), a colour field opens a picker, a range is a
 * slider. For these a Type action sets the field's value the way the page would get it from a
 * person: the text the model wrote is read here as the value the field's type takes (HTML's
 * value formats), then the content script sets it and sends `input` and `change`
 * (content-scripts/field.ts), and the value is read back (background/act/field.ts). Pure.
 *
 * Read (the model writes dates as people do):
 * - date: `2012-09-10`, `2012/9/10`, `09/10/2012` (month first, as en-US shows it; day first
 *   when the first number is over 12), `10.09.2012` (day first), `September 10, 2012`,
 *   `10 Sep 2012`; the year has 4 digits; the date must exist;
 * - time: `14:30`, `14:30:15`, `2:30 PM`, `2 pm`, `14h30`;
 * - datetime-local: a date and a time, separated by `T`, a space, a comma or "at";
 * - month: `2012-09`, `09/2012`, `September 2012`, `Sep 2012`;
 * - week: `2012-W37`, `2012 W37`, `week 37, 2012`, `W37 2012`;
 * - color: `#f00`, `#ff0000`, `rgb(255, 0, 0)`, and the basic colour names (lower case out);
 * - range: a number (the field itself keeps it within its min, max and step).
 */

export const SET_BY_VALUE = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

export type FieldValue = { value: string } | { problem: string };

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const COLOURS: Record<string, string> = {
  black: '#000000', white: '#ffffff', red: '#ff0000', green: '#008000', lime: '#00ff00', blue: '#0000ff', yellow: '#ffff00',
  cyan: '#00ffff', aqua: '#00ffff', magenta: '#ff00ff', fuchsia: '#ff00ff', gray: '#808080', grey: '#808080', silver: '#c0c0c0',
  maroon: '#800000', olive: '#808000', navy: '#000080', purple: '#800080', teal: '#008080', orange: '#ffa500', pink: '#ffc0cb', brown: '#a52a2a',
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function monthOf(word: string): number | null {
  const w = word.toLowerCase().replace(/\.$/, '');
  if (w.length < 3) return null;
  const i = MONTHS.findIndex((m) => m.startsWith(w));
  return i >= 0 ? i + 1 : null;
}

function isoDate(y: number, m: number, d: number): string | null {
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1) return null;
  const days = new Date(Date.UTC(2000, m, 0)).getUTCDate(); // days in the month (a leap year: 29 in February)
  if (d > days || (m === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)))) return null;
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

function readDate(text: string): string | null {
  const t = text.trim().replace(/,/g, ' ').replace(/\s+/g, ' ');
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(t);
  if (m) return isoDate(+m[1], +m[2], +m[3]);
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (m) return +m[1] > 12 ? isoDate(+m[3], +m[2], +m[1]) : isoDate(+m[3], +m[1], +m[2]);
  m = /^(\d{1,2})[.-](\d{1,2})[.-](\d{4})$/.exec(t);
  if (m) return isoDate(+m[3], +m[2], +m[1]);
  m = /^([a-z]+\.?) (\d{1,2})(?:st|nd|rd|th)? (\d{4})$/i.exec(t);
  if (m && monthOf(m[1])) return isoDate(+m[3], monthOf(m[1])!, +m[2]);
  m = /^(\d{1,2})(?:st|nd|rd|th)? ([a-z]+\.?) (\d{4})$/i.exec(t);
  if (m && monthOf(m[2])) return isoDate(+m[3], monthOf(m[2])!, +m[1]);
  return null;
}

function readTime(text: string): string | null {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const m = /^(\d{1,2})(?:[:h](\d{2}))?(?::(\d{2}))? ?(a\.?m\.?|p\.?m\.?)?$/.exec(t);
  if (!m || (m[2] === undefined && !m[4])) return null;
  let h = +m[1];
  const min = m[2] === undefined ? 0 : +m[2];
  const s = m[3] === undefined ? null : +m[3];
  if (m[4]) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (m[4].startsWith('p') ? 12 : 0);
  }
  if (h > 23 || min > 59 || (s !== null && s > 59)) return null;
  return `${pad(h)}:${pad(min)}${s === null ? '' : `:${pad(s)}`}`;
}

function readDateTime(text: string): string | null {
  const t = text.trim();
  const m = /^(.+?)(?:T|,? at |, | )(\d{1,2}(?:[:h]\d{2})?(?::\d{2})? ?(?:[ap]\.?m\.?)?)$/i.exec(t);
  if (!m) return null;
  const date = readDate(m[1]);
  const time = readTime(m[2]);
  return date && time ? `${date}T${time}` : null;
}

function readMonth(text: string): string | null {
  const t = text.trim().replace(/,/g, ' ').replace(/\s+/g, ' ');
  let m = /^(\d{4})[-/.](\d{1,2})$/.exec(t);
  if (m) return +m[2] >= 1 && +m[2] <= 12 ? `${m[1]}-${pad(+m[2])}` : null;
  m = /^(\d{1,2})[/.-](\d{4})$/.exec(t);
  if (m) return +m[1] >= 1 && +m[1] <= 12 ? `${m[2]}-${pad(+m[1])}` : null;
  m = /^([a-z]+\.?) (\d{4})$/i.exec(t);
  if (m && monthOf(m[1])) return `${m[2]}-${pad(monthOf(m[1])!)}`;
  return null;
}

function readWeek(text: string): string | null {
  const t = text.trim().toLowerCase().replace(/,/g, ' ').replace(/\s+/g, ' ');
  const first = /^(\d{4}) ?-?w(\d{1,2})$/.exec(t);
  const last = first ? null : /^(?:week|w) ?(\d{1,2}) (\d{4})$/.exec(t);
  if (!first && !last) return null;
  const [y, w] = first ? [first[1], +first[2]] : [last![2], +last![1]];
  return w >= 1 && w <= 53 ? `${y}-W${pad(w)}` : null;
}

function readColour(text: string): string | null {
  const t = text.trim().toLowerCase();
  let m = /^#?([0-9a-f]{6})$/.exec(t);
  if (m) return `#${m[1]}`;
  m = /^#?([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(t);
  if (m) return `#${m[1]}${m[1]}${m[2]}${m[2]}${m[3]}${m[3]}`;
  m = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/.exec(t);
  if (m && [m[1], m[2], m[3]].every((x) => +x <= 255)) return `#${[m[1], m[2], m[3]].map((x) => (+x).toString(16).padStart(2, '0')).join('')}`;
  return COLOURS[t] ?? null;
}

const FORMS: Record<string, { read: (t: string) => string | null; example: string }> = {
  date: { read: readDate, example: '2012-09-10 or 09/10/2012' },
  time: { read: readTime, example: '14:30 or 2:30 PM' },
  'datetime-local': { read: readDateTime, example: '2012-09-10 14:30' },
  month: { read: readMonth, example: '2012-09 or September 2012' },
  week: { read: readWeek, example: '2012-W37' },
  color: { read: readColour, example: '#ff0000' },
  range: { read: (t) => (/^-?\d+(?:\.\d+)?$/.test(t.trim()) ? String(Number(t.trim())) : null), example: 'a number such as 40' },
};

/**
 * The value a field of `type` takes for the text the model wrote, or what is wrong with it (in
 * the model's words: the reply goes back to it as the action's result); null for a type that
 * keystrokes fill.
 */
export function fieldValue(type: string, text: string): FieldValue | null {
  const form = FORMS[type];
  if (!form) return null;
  const value = form.read(text);
  return value === null ? { problem: `"${text.slice(0, 60)}" is not a ${type === 'datetime-local' ? 'date and time' : type === 'color' ? 'colour' : type} this field can take; write it like ${form.example}.` } : { value };
}
