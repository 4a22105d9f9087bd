/**
 * How big an emulated phone is drawn in the person's window (background/act/device.ts): the whole
 * phone fits the tab's height (and width), at most at its own size. Without it Chrome draws the
 * phone at its own size, cut off at the bottom of a window shorter than the phone. It changes what
 * a person watching sees, not the page's viewport nor its screenshot. Pure.
 */
export function phoneScale(tab: { width: number; height: number }, phone: { width: number; height: number }): number {
  if (!(tab.width > 0 && tab.height > 0)) return 1;
  return Math.min(1, tab.height / phone.height, tab.width / phone.width);
}
