/**
 * The guards that look after an action: what the page did that a guard would have asked about
 * before, had it been known (a button's script or a redirect took the tab to another site, the
 * browser began a download). The run then waits for the person: keep it, or undo it (the tab goes
 * back, the download is cancelled). Pure: the background says where the tab is and which
 * downloads began (background/downloads.ts).
 */
import { hostKey, type GuardHit, type GuardId, type GuardSettings } from '.';
import type { Translate } from '../i18n';
import { english } from '../locales';
import { awayHost, destinationOf, httpHost, sameSite, siteKey } from '../site';
import { downloadDetails } from './download-response';
import type { PageDialog } from './page-dialog';
import type { Held } from './request-hold';

/** A download as the person is asked about it: "a.exe" (application/x-msdownload, 2.9 MB) from example.com. */
function downloadForPerson(d: LandedDownload, t: Translate): string {
  const details = downloadDetails(d);
  const named = `"${d.filename}"${details ? ` (${details})` : ''}`;
  return d.site ? t('downloadFromSite', named, d.site) : named;
}

type LandedDownload = { filename: string; size?: number; type?: string; site?: string };

export interface Landed<D extends LandedDownload = LandedDownload> {
  /** the tab's URL after the action */
  url: string;
  /** downloads the action started: suggested file names */
  downloads: D[];
  /** a confirm of the page held open for the person, and the guard it trips (guards/page-dialog.ts) */
  dialog?: { dialog: PageDialog; hit: GuardHit };
  /** requests of the page held for the person (guards/request-hold.ts), each with its rule and reason */
  requests?: Held[];
  /** a file chooser the action opened, waiting: the attached files it would get, and its page (background/act/files.ts) */
  chooser?: FileOffer;
}

/** Attached files a page's file chooser asked for, not given yet: given only once the person says yes. */
export interface FileOffer {
  /** the attached files the field would get (its accept list and multiple applied: core/files.ts) */
  files: string[];
  /** the URL of the document the file field is in (where the files would go) */
  url: string;
}

export interface AfterContext {
  /** the task's site */
  site: string;
  /** the page's URL before the action */
  before: string;
  apps?: { url: string }[];
  /** the guard the person approved before the action ran (its question was this one already) */
  approved?: GuardId | null;
  t?: Translate;
}

function ruleOn(guards: GuardSettings, site: string, id: GuardId): boolean {
  const allowed = guards.allow[hostKey(site)] ?? [];
  return guards.rules.some((r) => r.id === id && r.on) && !allowed.includes(id);
}

/**
 * The guard to ask after the action, or null. A page dialog held open asks first, then a file
 * chooser waiting for attached files (the password rule: attached files are the person's own data,
 * like their secrets) with the requests held (their rules judged them as they came), in one
 * question; a download asks (the download rule), unless the person
 * approved the action as a download before it ran; the tab on
 * another site than the task's asks (the leave-site rule) when the action moved it there from
 * another site, unless the person approved leaving before the action ran.
 */
export function afterActionHit(landed: Landed, ctx: AfterContext, guards: GuardSettings): GuardHit | null {
  const t = ctx.t ?? english;
  // A dialog the page waits on, and requests held: their guards were judged as they came (dialogs.ts, hold.ts).
  if (landed.dialog) return landed.dialog.hit;
  const hits: GuardHit[] = [];
  if (landed.chooser && ruleOn(guards, ctx.site, 'password')) {
    const { files, url } = landed.chooser;
    hits.push({ id: 'password', reason: t('whyFileChooser', files.map((f) => `"${f}"`).join(', '), destinationOf(url) ?? url) });
  }
  if (landed.requests?.length) {
    const all = [...new Set(landed.requests.map((r) => r.reason))];
    // "… to X" said once: when one request there carries the value, its longer reason says it for all
    const reasons = all.filter((r) => !all.some((o) => o !== r && o.startsWith(`${r}; `)));
    hits.push({ id: landed.requests[0].rule, reason: reasons.join('; ') });
  }
  if (hits.length) return { id: hits[0].id, reason: hits.map((h) => h.reason).join('; ') };
  // A download the person approved before the click (the download guard's guess) is not asked again.
  if (landed.downloads.length && ctx.approved !== 'download' && ruleOn(guards, ctx.site, 'download')) {
    return { id: 'download', reason: t('whyDownloadBegan', landed.downloads.map((d) => downloadForPerson(d, t)).join(', ')) };
  }
  const away = awayHost(ctx.site, landed.url, ctx.apps);
  const from = httpHost(ctx.before);
  if (!away || (from && sameSite(from, away)) || ctx.approved === 'leave-site' || !ruleOn(guards, ctx.site, 'leave-site')) return null;
  return { id: 'leave-site', reason: t('whyLeftSite', hostKey(ctx.site), hostKey(away)), site: siteKey(away) };
}
