/**
 * The action waiting for the person (step-approval mode, or a guard tripped in auto mode; or an
 * action that ran and left the site or began a download: Keep or Undo, no edit): what it
 * would do in words, the model's thought, why the run stopped, and the target highlighted on the
 * step's labelled screenshot. Approve, Edit (another action in the dialect's syntax; the background
 * parses and checks it), Reject with feedback (the model is told; in a replay it is only kept in
 * the history), Stop. An error (a refused edit) is shown in the card, next to what caused it.
 * Shortcuts when no text field has focus: `a` approves, `r` goes to the feedback box, where Enter
 * rejects; Esc in the edit box cancels the edit.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { PendingView, RunView } from '../../src/core/messages';
import type { Viewport } from '../../src/core/marks';
import type { Point } from '../../src/core/action/action';
import type { ActedElement } from '../../src/core/run/state';
import { GUARD_NAME_KEYS, hostKey } from '../../src/core/guards';
import { PASSWORD_MASK } from '../../src/core/run/state';
import { ActionText } from './action-text';
import { cropAround, frameOf } from '../crop';
import { send } from '../api';
import { useCommand } from '../use-command';
import { t } from '../i18n';

type Approval = NonNullable<PendingView['approval']>;

/** Text fields keep their keys: the shortcuts must not fire while the person types. */
function inTextField(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  if (t.isContentEditable || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return true;
  return t instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(t.type);
}

export function ApprovalCard({ run, pending, approval }: { run: RunView; pending: PendingView; approval: Approval }) {
  const [editing, setEditing] = useState(false);
  // A masked password action is not offered for editing as is: "••••" would be typed.
  const proposed = pending.actionText?.includes(PASSWORD_MASK) ? '' : pending.actionText ?? '';
  const [edit, setEdit] = useState(proposed);
  const { command, error, clearError } = useCommand();
  const card = useRef<HTMLElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const editBox = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => { if (editing) editBox.current?.focus(); }, [editing]);
  const [feedback, setFeedback] = useState('');
  const [alwaysAllow, setAlwaysAllow] = useState(false);
  const [busy, setBusy] = useState(false);
  const feedbackBox = useRef<HTMLInputElement>(null);
  const host = hostKey(run.site);
  // A replay has no model to tell: the reason is only kept with the run. An action that already
  // ran (it left the site, began a download) is kept or undone, not edited.
  const after = !!approval.after;
  const rejectHint = after ? t('rejectHintAfter') : run.replay ? t('rejectHintReplay') : t('rejectHint');

  /** Esc in the edit box: the edit is dropped, nothing is sent. */
  function cancelEdit() {
    setEditing(false);
    setEdit(proposed);
    clearError();
    editButton.current?.focus();
  }

  async function decide(what: 'approve' | 'edit' | 'reject') {
    if (busy) return; // a second key press while the first is on its way
    setBusy(true);
    const allow = alwaysAllow && approval.rule !== null ? { alwaysAllow: true } : {};
    if (what === 'reject') await command(() => send('run/reject', { runId: run.id, feedback }));
    else if (what === 'edit') await command(() => send('run/approve', { runId: run.id, edit, ...allow }));
    else await command(() => send('run/approve', { runId: run.id, ...allow }));
    setBusy(false);
  }

  // A layout effect: the keys work as soon as the card is drawn (a plain effect comes a frame later).
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || inTextField(e.target)) return;
      // Not while the card is out of sight (the History view is shown).
      if (!card.current || card.current.getClientRects().length === 0) return;
      if (e.key === 'a') {
        e.preventDefault();
        void decide('approve');
      } else if (e.key === 'r') {
        e.preventDefault(); // the r is not typed into the box
        feedbackBox.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  return (
    <section class="approval" ref={card} data-testid="approval" aria-label={t('approvalCardLabel')}>
      <h2>{after ? t('approvalAfter', pending.index + 1) : approval.rule ? t('approvalCheck', pending.index + 1) : t('approvalAsk', pending.index + 1)}</h2>
      {approval.reason && (
        <p class="reason" data-testid="approval-reason">
          <b>{approval.rule ? t(GUARD_NAME_KEYS[approval.rule]) : t('checkWord')}:</b> {approval.reason}
        </p>
      )}
      {approval.rule === 'leave-site' && approval.site && <p class="hint" data-testid="approval-site-note">{t('leaveAllowsSite', approval.site)}</p>}
      <p class="action"><ActionText dialect={run.dialect} actionText={pending.actionText ?? ''} action={pending.action} element={approval.target} testId="approval-action" /></p>
      {pending.thought && pending.edited && <p class="hint" data-testid="approval-edited-note">{t('thoughtBeforeEdit')}</p>}
      {pending.thought && <p class="thought" data-testid="approval-thought">{pending.thought}</p>}
      {approval.point && (
        <p class="hint" data-testid="approval-point">
          {t(approval.target ? 'approvalPoint' : 'approvalPointNone', Math.round(approval.point.x), Math.round(approval.point.y))}
        </p>
      )}
      {approval.rule && (
        <label class="check">
          <input type="checkbox" data-testid="always-allow" checked={alwaysAllow} onChange={(e) => setAlwaysAllow((e.target as HTMLInputElement).checked)} />
          {t('alwaysAllowOn', host)}
        </label>
      )}
      <div class="row">
        <button type="button" class="primary" data-testid="approve" disabled={busy} onClick={() => decide('approve')}>{after ? t('keepIt') : t('approve')} <kbd>a</kbd></button>
        {!after && <button type="button" ref={editButton} data-testid="edit" aria-expanded={editing} onClick={() => (editing ? cancelEdit() : setEditing(true))}>{t('edit')}</button>}
        <button type="button" class="danger-text" data-testid="approval-stop" title={t('stopRun')} onClick={() => command(() => send('run/stop', { runId: run.id }))}>{t('stop')}</button>
      </div>
      {editing && !after && (
        <div class="row">
          <input type="text" data-testid="edit-action" aria-label={t('editLabel')} value={edit} placeholder={t('editPlaceholder')}
            ref={editBox} aria-describedby="edit-help"
            onInput={(e) => { setEdit((e.target as HTMLInputElement).value); clearError(); }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') { e.preventDefault(); void decide('edit'); }
              if (e.key === 'Escape') { e.preventDefault(); cancelEdit(); }
            }} />
          <button type="button" data-testid="apply-edit" disabled={busy || !edit.trim()} onClick={() => decide('edit')}>{t('runInstead')}</button>
          <small id="edit-help" class="hint wide">{t('editHelp')}</small>
        </div>
      )}
      {error && <p class="error" role="alert" data-testid="approval-error">{error}</p>}
      <div class="row">
        <input type="text" ref={feedbackBox} data-testid="reject-feedback" aria-label={rejectHint} value={feedback}
          placeholder={t('rejectPlaceholder')} title={rejectHint}
          onInput={(e) => setFeedback((e.target as HTMLInputElement).value)}
          onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); void decide('reject'); } }} />
        <button type="button" data-testid="reject" disabled={busy} onClick={() => decide('reject')} title={t('rejectTitle')}>
          {after ? t('undoIt') : t('reject')} <kbd>r</kbd>
        </button>
      </div>
      {/* the picture last: the action and its buttons stay together at the top of the card */}
      <Shot runId={run.id} index={pending.index} target={approval.target} point={approval.point} viewport={approval.viewport} />
    </section>
  );
}

/** Height of the picture around the target, CSS px. */
const CROP_HEIGHT = 220;

/**
 * The step's screenshot with a box over the target and, for an action at a point, a crosshair
 * there. With a target or a point it first shows the part of the page around it at the page's own
 * size (one CSS px of the page is one px here: a 1280 px page squeezed into the panel's ~330 px
 * made small targets hard to see); "Whole page" shows the whole viewport scaled to fit (at most
 * 60 % of the panel's height: a phone's tall picture no longer pushes the card past the panel).
 * The picture's box and crosshair are placed in percent of the picture, so they stay on the
 * target at any size.
 */
function Shot({ runId, index, target, point, viewport }: { runId: string; index: number; target: ActedElement | null; point: Point | null; viewport: Viewport }) {
  const [src, setSrc] = useState<string | null>(null);
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  const [whole, setWhole] = useState(false);
  // the crop box's width in panel px (the card's width less its padding), measured once laid out
  const [boxWidth, setBoxWidth] = useState(320);
  const measure = useCallback((el: HTMLDivElement | null) => { if (el && el.clientWidth > 0 && el.clientWidth !== boxWidth) setBoxWidth(el.clientWidth); }, [boxWidth]);
  useEffect(() => {
    send('run/screenshot', { runId, index }).then(setSrc, () => setSrc(null));
  }, [runId, index]);
  if (!src) return null;
  let box = null;
  const k = size && viewport.width > 0 ? size.w / viewport.width : 0; // image px per CSS px
  const cross = point && size && k > 0 ? { left: `${(point.x * k * 100) / size.w}%`, top: `${(point.y * k * 100) / size.h}%` } : null;
  const r = target && target.rect.width > 0 ? target.rect : null;
  if (r && size && viewport.width > 0 && size.h > 0) {
    box = {
      left: `${(r.x * k * 100) / size.w}%`, top: `${(r.y * k * 100) / size.h}%`,
      width: `${(r.width * k * 100) / size.w}%`, height: `${(r.height * k * 100) / size.h}%`,
    };
  }
  // what the crop frames, in the page's CSS px: the target with its label and some context
  const focus = frameOf(r, point);
  const picture = (
    <>
      <img src={src} alt={t('labelledShot', index + 1)}
        onLoad={(e) => { const i = e.target as HTMLImageElement; setSize({ w: i.naturalWidth, h: i.naturalHeight }); }} />
      {box && <div class="target" data-testid="approval-target" style={box} />}
      {cross && <div class="crosshair" data-testid="approval-crosshair" style={cross} />}
    </>
  );
  const toggle = focus && (
    <button type="button" class="link" data-testid="approval-whole" aria-pressed={whole} onClick={() => setWhole(!whole)}>
      {whole ? t('approvalAroundTarget') : t('approvalWholePage')}
    </button>
  );
  if (whole || !focus || !size) {
    return (
      <div class="shot-wrap">
        <div class="shot whole" data-testid="approval-shot">{picture}</div>
        {toggle}
      </div>
    );
  }
  const w = viewport.width;
  const h = (w * size.h) / size.w;
  // the whole frame in view, at the page's size when it fits, smaller when it does not
  const c = cropAround(focus, { width: w, height: h }, { width: boxWidth, height: CROP_HEIGHT });
  return (
    <div class="shot-wrap">
      <div class="shot-crop" ref={measure} style={{ height: `${c.height}px` }}>
        <div class="shot" data-testid="approval-shot" data-scale={c.scale.toFixed(3)} style={{ position: 'absolute', width: `${w * c.scale}px`, left: `${c.left}px`, top: `${c.top}px`, margin: 0 }}>{picture}</div>
      </div>
      {toggle}
    </div>
  );
}
