/**
 * Sites allowed up front (docs/allowed-sites.md) in the panel: the task form's "Where it may act"
 * (only the start site, the start site and these sites, or anywhere), and the run's line saying
 * where it may act and where it acted.
 */
import type { RunView } from '../../src/core/messages';
import { siteOfTyped, sitesActedOn, type AllowedSites } from '../../src/core/allowed-sites';
import { t } from '../i18n';

export type SitesMode = 'start' | 'list' | 'any';
export interface SitesChoice { mode: SitesMode; list: string }

/** What Start sends for the choice (absent: only the start site; a list is checked by the worker). */
export function allowedOf(c: SitesChoice): string | undefined {
  return c.mode === 'any' ? 'any' : c.mode === 'list' && c.list.trim() ? c.list : undefined;
}

/** A saved task's sites back in the form. */
export function choiceOf(a: AllowedSites | undefined): SitesChoice {
  return a === 'any' ? { mode: 'any', list: '' } : a?.length ? { mode: 'list', list: a.join(', ') } : { mode: 'start', list: '' };
}

export function SitesField({ value, onChange }: { value: SitesChoice; onChange: (c: SitesChoice) => void }) {
  return (
    <div class="sites-field" title={t('sitesTitle')}>
      <label class="label" for="sites-mode">{t('sitesLabel')}</label>
      <select id="sites-mode" data-testid="sites-mode" value={value.mode} onChange={(e) => onChange({ ...value, mode: (e.target as HTMLSelectElement).value as SitesMode })}>
        <option value="start">{t('sitesStart')}</option>
        <option value="list">{t('sitesList')}</option>
        <option value="any">{t('sitesAny')}</option>
      </select>
      {value.mode === 'list' && (
        <input type="text" data-testid="sites-list" value={value.list} placeholder={t('sitesListPlaceholder')} aria-label={t('sitesList')}
          onInput={(e) => onChange({ ...value, list: (e.target as HTMLInputElement).value })} />
      )}
    </div>
  );
}

/** Where the run may act (its start site, the sites allowed before and during it, or anywhere) and where it acted. */
export function RunSites({ run }: { run: RunView }) {
  const acted = sitesActedOn(run.steps);
  const may = run.anySite ? t('sitesAnywhere') : [siteOfTyped(run.startUrl) ?? run.startUrl, ...(run.sitesAllowed ?? []), ...(run.sitesGranted ?? [])].join(', ');
  return (
    <p class="hint run-sites" data-testid="run-sites">
      <span data-testid="sites-may">{t('sitesAllowedLine', may)}</span>
      {acted.length > 0 && <> · <span data-testid="sites-acted">{t('sitesActed', acted.join(', '))}</span></>}
    </p>
  );
}
