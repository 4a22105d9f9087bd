/** Streaming: the model's reply as it comes in, to the views. */
import { hideRun } from '../../core/run';
import type { RunStream } from '../../core/messages';
import type { ModelProgress } from '../model';
import type { Active } from './active';

const STREAM_EVERY_MS = 100;

/** The reply as it streams in, and retry notes, to the views (at most every 100 ms, and the last). */
export function streamTo(a: Active, index: number): ModelProgress {
  const runId = a.state.id;
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let latest: RunStream | null = null;
  const flush = () => {
    timer = null;
    last = Date.now();
    if (latest) chrome.runtime.sendMessage(latest).catch(() => undefined);
  };
  return {
    onDelta: (content, reasoning) => {
      // The run's secrets hidden as in the recorded reply (a password the model repeats, say).
      latest = { event: 'run/stream', runId, index, content: hideRun(a.state, content), reasoning: hideRun(a.state, reasoning), note: null };
      a.live = { ...latest, note: a.live?.index === index ? a.live.note : null };
      if (timer) return;
      timer = setTimeout(flush, Math.max(0, STREAM_EVERY_MS - (Date.now() - last)));
    },
    onRetry: (note) => {
      a.live = { event: 'run/stream', runId, index, content: '', reasoning: '', note };
      chrome.runtime.sendMessage(a.live).catch(() => undefined);
    },
  };
}
