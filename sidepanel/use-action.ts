/**
 * A part of the panel whose buttons run one action at a time (History, Site notes, Saved tasks):
 * while one runs the part is `busy`; its error or its notice is shown in the part's own lines, the
 * last action's only (`reset` clears what else the part shows of the last one).
 */
import { useState } from 'preact/hooks';
import { messageOf } from './api';

export function useAction(reset?: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  async function act(fn: () => Promise<void>): Promise<void> {
    setError(null);
    setNotice(null);
    reset?.();
    setBusy(true);
    try {
      await fn();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }
  return { act, busy, setBusy, error, notice, setError, setNotice };
}
