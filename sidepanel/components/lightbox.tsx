/**
 * A screenshot enlarged over the panel. Esc, a click on it or Close shuts it; "Open in a tab"
 * shows it at full size over the whole browser window (a side panel cannot grow past its own
 * width, so the picture goes to a new tab of its own, as a blob URL of this extension page).
 */
import { t } from '../i18n';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { dataUrlToBytes } from '../../src/core/export/data-url';

/** Opens an image data URL in a new browser tab (returns false when it is not one). */
export function openImageInTab(src: string): boolean {
  const img = dataUrlToBytes(src);
  if (!img) return false;
  // Not revoked: the tab may be reloaded; the blob lives as long as this panel page.
  const url = URL.createObjectURL(new Blob([img.bytes as BlobPart], { type: img.mime }));
  window.open(url, '_blank');
  return true;
}

export function Lightbox({ src, alt, onClose }: { src: string; alt: string; onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  // A layout effect: Esc works from the moment the picture is shown (an effect waits for a paint).
  useLayoutEffect(() => {
    const back = document.activeElement as HTMLElement | null;
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      onClose();
    };
    document.addEventListener('keydown', onKey, true);
    return () => { document.removeEventListener('keydown', onKey, true); back?.focus?.(); };
  }, [onClose]);
  return (
    <div class="lightbox" role="dialog" aria-modal="true" aria-label={alt} data-testid="lightbox" onClick={onClose}>
      <div class="lightbox-bar" onClick={(e) => e.stopPropagation()}>
        <button type="button" data-testid="lightbox-tab" title={t('openInTabTitle')} onClick={() => openImageInTab(src)}>{t('openInTab')}</button>
        <button type="button" ref={close} data-testid="lightbox-close" onClick={onClose}>{t('close')} <kbd>Esc</kbd></button>
      </div>
      <img src={src} alt={alt} />
    </div>
  );
}
