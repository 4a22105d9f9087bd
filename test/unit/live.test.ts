import { describe, expect, it } from 'vitest';
import { liveReply } from '../../sidepanel/live';

describe('the reply as it streams in', () => {
  it('shows the thought so far, and the reasoning apart', () => {
    expect(liveReply('Thought: I will sea', '').thought).toBe('I will sea');
    expect(liveReply('Thought: I will search.\nAction: Cl', '').thought).toBe('I will search.');
    expect(liveReply('<think>the box is at', '')).toMatchObject({ thought: '', reasoning: 'the box is at' });
    const glm = liveReply('<think>look left</think><answer>Thought: Click it.\nAction: <|begin_of_box|>Click [3]', 'server reasoning');
    expect(glm.thought).toBe('Click it.');
    expect(glm.reasoning).toContain('look left');
    expect(glm.reasoning).toContain('server reasoning');
  });

  it('does not flash half-received labels or tags', () => {
    expect(liveReply('Thou', '').thought).toBe('');
    expect(liveReply('<thi', '').thought).toBe('');
  });
});
