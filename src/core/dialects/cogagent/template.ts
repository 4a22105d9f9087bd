/**
 * The query text of CogAgent-9B-20241220, as its own client builds it (THUDM/CogAgent
 * `app/client.py` formatting_input, the README's query format):
 *
 *   Task: {task}
 *   History steps: 
 *   0. {grounded operation}\t{action sentence}
 *   (Platform: WIN)
 *   (Answer in Action-Operation-Sensitive format.)
 *
 * "History steps: " keeps its trailing space and is there even with no step; each earlier step
 * is one line, numbered from 0; the query ends with a line break. Model-facing text: never
 * translated.
 *
 * Deliberate choices (docs/dialects.md, "cogagent"):
 * - The platform is WIN: the dialect observes a desktop browser tab (`observes.device`
 *   'desktop'). `Mobile` would be right only for a phone-emulated tab, which this dialect does
 *   not ask for; `Mac` would make the model write macOS key names, which we read as well.
 * - The answer format is the default Action-Operation-Sensitive: the Action sentence is the step's
 *   thought (and the run's answer at END()), the marker asks the person before a sensitive action.
 * - A step whose observation is not plain "Success" (an error, a stored variable's value, a
 *   note) gets it after a tab at the end of its line ("\tObservation: …", on one line): the format
 *   has no place for observations, and the model must learn what failed and what it stored.
 */

export const TASK_PREFIX = 'Task: ';
export const HISTORY_HEAD = 'History steps: ';
/** The dialect observes a desktop browser (the client's identify_os gives WIN or Mac). */
export const PLATFORM = 'WIN';
export const PLATFORM_LINE = `(Platform: ${PLATFORM})`;
export const ANSWER_FORMAT = 'Action-Operation-Sensitive';
export const FORMAT_LINE = `(Answer in ${ANSWER_FORMAT} format.)`;

/** The markers ending a reply: general (一般) and sensitive (敏感) operations. Chinese whatever the task's language. */
export const MARK_GENERAL = '<<一般操作>>';
export const MARK_SENSITIVE = '<<敏感操作>>';

/** The label our departure puts before a step's observation on its history line. */
export const OBSERVATION_LABEL = 'Observation: ';
