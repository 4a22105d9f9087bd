/**
 * Every string a person reads in the HTML report (html-report.ts), in one place so that a
 * translation can replace the whole object. `{name}` marks a value filled in (fill()); the
 * report's own script gets the same object, so the page and the script never disagree.
 */
export const REPORT_TEXT = {
  lang: 'en',
  reportTitle: 'Run report',
  pageTitle: 'Run report: {task}',
  answer: 'Answer',
  noAnswer: 'No answer.',
  stopReason: 'Why it ended',
  status: 'Status',
  statusNames: { finished: 'finished', stopped: 'stopped', failed: 'failed', running: 'running' } as Record<string, string>,
  steps: 'Steps',
  duration: 'Duration',
  stillRunning: 'still running',
  tokens: 'Tokens',
  tokensValue: '{total} ({prompt} prompt + {completion} completion)',
  notReported: 'not reported',
  cost: 'Cost',
  costUnknown: 'unknown (no price for this model)',
  model: 'Model',
  startPage: 'Start page',
  started: 'Started',
  ended: 'Ended',
  stepsHeading: 'Every step',
  stepsHint: 'Thought, action and outcome of every step. Search with Ctrl+F; click a step to see it in the player.',
  playerHeading: 'Step player',
  showStep: 'Show step {n} in the player',
  counter: 'Step {n} of {total}',
  prev: '← Previous',
  next: 'Next →',
  showClean: 'Show clean view',
  showLabels: 'Show labels',
  cleanLeftOut: 'Clean view left out',
  keysHint: '← → or j k: step · Home End · c: clean / labelled · z or a click on the picture: full window, Esc closes',
  noShot: 'screenshot excluded',
  altLabelled: 'Screenshot of step {n} (labelled)',
  altClean: 'Screenshot of step {n} (clean view)',
  actedAt: 'acted at ({x}, {y})',
  thought: 'Thought',
  action: 'Action',
  outcome: 'Outcome',
  approval: 'Approval',
  memory: 'Memory',
  reasoning: 'Reasoning',
  rawReply: 'Raw reply',
  elements: 'Elements ({n})',
  timings: 'Timings',
  ok: 'ok',
  failed: 'failed',
  takeover: 'You took over the browser',
  approvalNames: { none: 'none (no action was proposed)', auto: 'automatic', approved: 'approved by you', edited: 'edited by you', rejected: 'rejected by you' } as Record<string, string>,
  timingsValue: 'observe {observe} · model {model} · act {act} · total {total}',
  noSteps: 'This run has no steps.',
  cleanLeftOutNote: 'The clean view of {n} of {total} steps was left out to keep this report small.',
  empty: '—',
  ms: '{n} ms',
  seconds: '{n} s',
  minutes: '{m} min {s} s',
  hours: '{h} h {m} min',
};

export type ReportText = typeof REPORT_TEXT;

/** A string with its `{name}` places filled in. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}

/** 850 ms, 4.2 s, 3 min 05 s, 1 h 02 min. */
export function durationText(ms: number | null, text: ReportText = REPORT_TEXT): string {
  if (ms === null || !Number.isFinite(ms)) return text.empty;
  if (ms < 1000) return fill(text.ms, { n: Math.round(ms) });
  const s = ms / 1000;
  if (s < 60) return fill(text.seconds, { n: s.toFixed(1) });
  const m = Math.floor(s / 60);
  if (m < 60) return fill(text.minutes, { m, s: String(Math.floor(s % 60)).padStart(2, '0') });
  return fill(text.hours, { h: Math.floor(m / 60), m: String(m % 60).padStart(2, '0') });
}
