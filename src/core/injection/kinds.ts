/** The kinds of text aimed at the agent that the injection detector tells apart (injection/index.ts). */
export const INJECTION_KINDS = ['override', 'role', 'address', 'command', 'format', 'marker', 'secrecy'] as const;
export type InjectionKind = typeof INJECTION_KINDS[number];

/**
 * One pattern and the kind of hit it is. `anchors`: words (as the folded text's words, split at
 * anything but a-z, 0-9 and "_") of which every match holds at least one; a text without any of
 * them is not run through the pattern. Absent: always run.
 */
export interface InjectionPattern { kind: InjectionKind; re: RegExp; anchors?: readonly string[] }
