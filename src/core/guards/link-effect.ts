/**
 * The first line's judgement of where a press goes (docs/guards.md, "The gate"): the address of
 * the link an element is or is inside, or the one its inline click handler opens, judged as the
 * GET request following it would be (guards/request-effect.ts: strong words at the start of the path's
 * last segment). A link "View details" to /order/place would place an order: the person is asked
 * before the press, not only when the request leaves (the second line). A field's Enter submits a
 * form, whose method the gate does not know: that request is left to the second line.
 */
import type { GuardHit, GuardSettings, Reached } from '.';
import type { Translate } from '../i18n';
import { english } from '../locales';
import { effectCheck } from './request-effect';

const WHY = { payment: 'whyLinkPayment', delete: 'whyLinkDelete', send: 'whyLinkSend' } as const;

/** The first press of `reached` whose link or script address would order or pay, delete or send, as a guard hit; null when none. */
export function linkEffect(reached: Reached[], ctx: { site: string; guards: GuardSettings; t?: Translate }): GuardHit | null {
  const t = ctx.t ?? english;
  for (const r of reached) {
    const target = r.target;
    // a press, or Enter / Space on something that is not a field (a link, a button)
    if (!target || r.how === 'type' || target.field || target.editable) continue;
    for (const url of [target.href, target.navigatesTo]) {
      if (!url || target.download || !/^https?:/i.test(url)) continue;
      const hit = effectCheck({ url, method: 'GET', body: null }, { site: ctx.site, guards: ctx.guards, t });
      if (hit && hit.id in WHY) return { id: hit.id, reason: t(WHY[hit.id as keyof typeof WHY], hit.what.replace(/^GET /, ''), hit.effect ?? '') };
    }
  }
  return null;
}
