/**
 * Tabs still watched after their run (background/refuse.ts): a value the run typed is still in the
 * page, so what the page sends to other sites is refused. The person sees which tab, what value,
 * how much was refused, and can let the tab go.
 */
import { useEffect, useState } from 'preact/hooks';
import { send } from '../api';
import { t } from '../i18n';
import type { WatchedTab } from '../../src/core/messages';

const POLL_MS = 2_000;

export function WatchedTabs() {
  const [tabs, setTabs] = useState<WatchedTab[]>([]);
  useEffect(() => {
    let live = true;
    const read = () => send('watch/list', {}).then((w) => { if (live) setTabs(w); }, () => undefined);
    void read();
    const timer = setInterval(read, POLL_MS);
    return () => { live = false; clearInterval(timer); };
  }, []);
  if (!tabs.length) return null;
  const KEYS: Record<string, string> = { card: 'watchedCard', password: 'watchedPassword', secret: 'watchedSecret', file: 'watchedFile' };
  const what = (kinds: string[]) => kinds.map((k) => t(KEYS[k] ?? 'watchedSecret')).join(', ');
  return (
    <section class="watched-tabs" data-testid="watched-tabs">
      {tabs.map((w) => (
        <p key={w.tabId} class="note watched-tab" data-testid="watched-tab" data-tab={w.tabId}>
          {t('watchedTab', w.site, what(w.kinds), w.refused)}{' '}
          <button type="button" data-testid="watched-release" onClick={() => { void send('watch/release', { tabId: w.tabId }).then(setTabs, () => undefined); }}>{t('watchedRelease')}</button>
        </p>
      ))}
    </section>
  );
}
