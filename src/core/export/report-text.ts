import type { Translate } from '../i18n';
import { english } from '../locales';
import { ACTION_WORD_KEYS } from '../run/person-text';

/**
 * Every string a person reads in the HTML report (html-report.ts), in the person's language: the
 * words come from the message files (public/_locales, keys `report…`, and the panel's own where the
 * words are the same), written into the report at export because it opens outside the extension.
 * `{name}` marks a value filled in (fill()); the report's own script gets the same object, so the
 * page and the script never disagree.
 */
export function reportText(t: Translate) {
  return {
    /** the page's <html lang> */
    lang: t('reportLang'),
    reportTitle: t('reportTitle'),
    pageTitle: t('reportPageTitle', '{task}'),
    answer: t('detailAnswer'),
    noAnswer: t('reportNoAnswer'),
    stopReason: t('reportStopReason'),
    status: t('detailStatus'),
    statusNames: { finished: t('histStatusFinished'), stopped: t('histStatusStopped'), failed: t('histStatusFailed'), running: t('histStatusRunning') } as Record<string, string>,
    steps: t('detailSteps'),
    duration: t('detailDuration'),
    stillRunning: t('detailStillRunning'),
    tokens: t('detailTokens'),
    tokensValue: t('reportTokensValue', '{total}', '{prompt}', '{completion}'),
    notReported: t('detailNotReported'),
    cost: t('detailCost'),
    costUnknown: t('reportCostUnknown'),
    model: t('fieldModel'),
    startPage: t('detailStartPage'),
    started: t('detailStarted'),
    ended: t('detailEnded'),
    stepsHeading: t('reportStepsHeading'),
    turns: t('reportTurns'),
    playwright: t('reportPlaywright'),
    playwrightHint: t('reportPlaywrightHint'),
    /** "Answer:" before a turn's answer */
    answerLabel: t('histAnswer'),
    firstTurn: t('reportTurnFirst'),
    /** where a follow-up's steps begin: {n} its number, {task} its text */
    followUp: t('turnFollowUp', '{n}', '{task}'),
    /** a dialect's bare `null` (the end of the task), glossed (person-text.ts actionInWords) */
    nullEnd: t('actionNullEnd', '{word}'),
    /** an action in words (person-text.ts actionWords): each message with {1}, {2}, {3} where its values go */
    actionWords: Object.fromEntries(ACTION_WORD_KEYS.map((k) => [k, t(k, '{1}', '{2}', '{3}')])) as Record<string, string>,
    stepsHint: t('reportStepsHint'),
    playerHeading: t('reportPlayerHeading'),
    showStep: t('reportShowStep', '{n}'),
    counter: t('reportCounter', '{n}', '{total}'),
    prev: t('reportPrev'),
    next: t('reportNext'),
    showClean: t('reportShowClean'),
    showLabels: t('showLabels'),
    cleanLeftOut: t('reportCleanLeftOut'),
    keysHint: t('reportKeysHint'),
    noShot: t('reportNoShot'),
    altLabelled: t('reportAltLabelled', '{n}'),
    altClean: t('reportAltClean', '{n}'),
    actedAt: t('reportActedAt', '{x}', '{y}'),
    thought: t('reportThought'),
    action: t('detailAction'),
    outcome: t('reportOutcome'),
    approval: t('detailApproval'),
    memory: t('detailMemory'),
    reasoning: t('detailReasoning'),
    rawReply: t('detailRawReply'),
    elements: t('detailElements', '{n}'),
    timings: t('detailTimings'),
    ok: t('detailOk'),
    failed: t('detailFailed'),
    takeover: t('reportTakeover'),
    approvalNames: {
      none: t('reportApprovalNone'), auto: t('reportApprovalAuto'), approved: t('detailApprovalApproved'),
      edited: t('detailApprovalEdited'), rejected: t('detailApprovalRejected'),
    } as Record<string, string>,
    timingsValue: t('reportTimingsValue', '{observe}', '{model}', '{act}', '{total}'),
    stagesValue: t('observeStagesLine', '{settle}', '{label}', '{capture}', '{request}'),
    noSteps: t('detailNoSteps'),
    cleanLeftOutNote: t('reportCleanLeftOutNote', '{n}', '{total}'),
    empty: '—',
    ms: t('reportMs', '{n}'),
    seconds: t('reportSeconds', '{n}'),
    minutes: t('reportMinutes', '{m}', '{s}'),
    hours: t('reportHours', '{h}', '{m}'),
  };
}

export type ReportText = ReturnType<typeof reportText>;

/** In English: the runner's and the tests' default. */
export const REPORT_TEXT: ReportText = reportText(english);

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
