/**
 * DOM quiet: resolves once no mutation has happened for quietMs (our own
 * overlay and select lists excluded), or at capMs.
 */
export function waitForQuiet(quietMs: number, capMs: number): Promise<{ quiet: boolean; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let quietTimer = 0;
    const finish = (quiet: boolean) => {
      observer.disconnect();
      clearTimeout(quietTimer);
      clearTimeout(capTimer);
      resolve({ quiet, ms: Math.round(performance.now() - started) });
    };
    const arm = () => {
      clearTimeout(quietTimer);
      quietTimer = window.setTimeout(() => finish(true), quietMs);
    };
    const observer = new MutationObserver((records) => {
      if (records.some((r) => !isOurs(r.target))) arm();
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const capTimer = window.setTimeout(() => finish(false), capMs);
    arm();
  });
}

function isOurs(node: Node): boolean {
  const el = node instanceof Element ? node : node.parentElement;
  return !!el?.closest('[data-wa-ui]');
}
