/** The run moved to another tab during a step: said in the person's words (person-text.ts). */
import { personTextIn } from '../../src/core/run/person-text';
import { t } from '../i18n';
import type { StepView } from '../../src/core/messages';

export function TabNote({ step }: { step: StepView }) {
  if (!step.tabs?.length) return null;
  return (
    <>
      {step.tabs.map((c, i) => <p key={i} class="note tab-note" data-testid="tab-note" data-change={c.change}>{personTextIn(t).tabChange(c)}</p>)}
    </>
  );
}
