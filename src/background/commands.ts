/**
 * Keyboard commands (manifest.json "commands"). "open-panel" opens the side panel in the window of
 * the tab the shortcut was pressed in. chrome.sidePanel.open needs the user gesture the shortcut
 * brings, so it is called at once, with nothing awaited before it
 * (https://developer.chrome.com/docs/extensions/reference/api/sidePanel#method-open).
 */

export const OPEN_PANEL = 'open-panel';

type Opener = Pick<typeof chrome.sidePanel, 'open'>;

/** Handles one command; resolves true when it opened the panel. The opener is a parameter for tests. */
export function onCommand(command: string, tab: chrome.tabs.Tab | undefined, panel: Opener = chrome.sidePanel): Promise<boolean> {
  if (command !== OPEN_PANEL) return Promise.resolve(false);
  // The panel is global (manifest side_panel), so it opens for the whole window of the tab.
  const where = tab?.windowId !== undefined ? { windowId: tab.windowId } : tab?.id !== undefined ? { tabId: tab.id } : null;
  if (!where) return Promise.resolve(false); // no tab came with the shortcut: nowhere to open it
  return panel.open(where).then(() => true, (err: unknown) => {
    console.warn('Web Agent: could not open the side panel:', err);
    return false;
  });
}
