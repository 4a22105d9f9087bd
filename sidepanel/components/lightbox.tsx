/**
 * A screenshot at full size over the panel. A click anywhere or Esc closes it; focus moves to its
 * close button while it is open and goes back to where it was after.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';

export function Lightbox({ src, alt, onClose }: { src: string; alt: string; onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  // A layout effect: Esc works as soon as the picture is drawn (a plain effect comes a frame later).
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      onClose();
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      before?.focus?.();
    };
  }, []);
  return (
    <div class="lightbox" role="dialog" aria-modal="true" aria-label={alt} data-testid="lightbox" onClick={onClose}>
      <img src={src} alt={alt} />
      <button type="button" ref={close} class="lightbox-close" data-testid="lightbox-close" aria-label="Close (Esc)">✕</button>
    </div>
  );
}
