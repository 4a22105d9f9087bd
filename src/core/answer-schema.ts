/**
 * Structured answers (docs/answer-schema.md): a task may carry a JSON Schema for its answer. The
 * model is told the schema in its dialect's words (Dialect.answerFormat); its final answer is read
 * as JSON and validated here with @cfworker/json-schema (an interpreter: no code generated at run
 * time, which the extension's pages and worker do not allow). An answer that does not validate
 * goes back to the model with the validator's message, at most MAX_ANSWER_TRIES answers in all;
 * then the run stops with the reason. Pure.
 */
import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';

/** answers the model may give a run with a schema before it stops (the first and two more) */
export const MAX_ANSWER_TRIES = 3;
/** a schema is a description, not a document: this many characters of JSON at most */
export const MAX_SCHEMA_CHARS = 32_000;

const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);
/** keywords whose value is one schema */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems'];
/** keywords whose value is a list of schemas */
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** keywords whose value maps names to schemas */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** nesting a schema may have (a description of an answer, not a maze) */
const MAX_DEPTH = 32;

const isSchema = (x: unknown) => typeof x === 'boolean' || (!!x && typeof x === 'object' && !Array.isArray(x));

/**
 * What the validator does not check itself (it has no meta-schema): the keywords an answer's schema
 * uses have values of their kind ("type" a type name, "required" names, a sub-schema an object).
 * The first problem, with its place; null when none.
 */
function shapeProblem(x: unknown, where: string, depth: number): string | null {
  if (typeof x === 'boolean') return null;
  if (!isSchema(x)) return `${where || '/'} is not a schema (an object or true/false)`;
  if (depth > MAX_DEPTH) return `the schema nests deeper than ${MAX_DEPTH} levels`;
  const o = x as Record<string, unknown>;
  if (o.type !== undefined) {
    const types = Array.isArray(o.type) ? o.type : [o.type];
    if (!types.length || types.some((t) => typeof t !== 'string' || !TYPES.has(t))) return `${where}/type must be one of ${[...TYPES].join(', ')} (or a list of them)`;
  }
  if (o.required !== undefined && (!Array.isArray(o.required) || o.required.some((r) => typeof r !== 'string'))) return `${where}/required must be a list of property names`;
  if (o.enum !== undefined && !Array.isArray(o.enum)) return `${where}/enum must be a list`;
  if (o.pattern !== undefined) {
    try {
      new RegExp(String(o.pattern), 'u');
    } catch {
      return `${where}/pattern is not a regular expression`;
    }
  }
  for (const k of ONE) {
    if (o[k] === undefined) continue;
    // draft 2019 and before: "items" may be a list of schemas
    const subs = k === 'items' && Array.isArray(o[k]) ? o[k] as unknown[] : [o[k]];
    for (const [i, s] of subs.entries()) {
      const p = shapeProblem(s, `${where}/${k}${subs.length > 1 || Array.isArray(o[k]) ? `/${i}` : ''}`, depth + 1);
      if (p) return p;
    }
  }
  for (const k of LIST) {
    if (o[k] === undefined) continue;
    if (!Array.isArray(o[k])) return `${where}/${k} must be a list of schemas`;
    for (const [i, s] of (o[k] as unknown[]).entries()) {
      const p = shapeProblem(s, `${where}/${k}/${i}`, depth + 1);
      if (p) return p;
    }
  }
  for (const k of MAP) {
    if (o[k] === undefined) continue;
    if (!isSchema(o[k]) || typeof o[k] === 'boolean') return `${where}/${k} must be an object of schemas`;
    for (const [name, s] of Object.entries(o[k] as Record<string, unknown>)) {
      const p = shapeProblem(s, `${where}/${k}/${name}`, depth + 1);
      if (p) return p;
    }
  }
  return null;
}

export type SchemaCheck = { ok: true; schema: Record<string, unknown> } | { ok: false; problem: string };

/** Problems in English words with their place; the panel and the runner give them as they are (a schema is technical text). */
export function checkSchema(x: unknown): SchemaCheck {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return { ok: false, problem: 'a JSON Schema must be a JSON object (for example {"type": "object", "properties": {…}})' };
  let text: string;
  try {
    text = JSON.stringify(x);
  } catch {
    return { ok: false, problem: 'the schema cannot be written as JSON' };
  }
  if (text.length > MAX_SCHEMA_CHARS) return { ok: false, problem: `the schema has ${text.length} characters of JSON; at most ${MAX_SCHEMA_CHARS}` };
  const shape = shapeProblem(x, '', 0);
  if (shape) return { ok: false, problem: shape };
  try {
    // a schema the validator cannot use (a $ref to nowhere) fails on the first value it is given
    new Validator(x as Schema, '2020-12', false).validate(null);
  } catch (e) {
    // its first line says what; the rest lists the schemas it knows
    return { ok: false, problem: `the validator cannot use it: ${(e instanceof Error ? e.message : String(e)).split('\n')[0].trim()}` };
  }
  return { ok: true, schema: JSON.parse(text) as Record<string, unknown> };
}

/** A schema given as text (the panel's field, the runner's file): parsed, then checked. */
export function readSchemaText(text: string): SchemaCheck {
  let x: unknown;
  try {
    x = JSON.parse(text);
  } catch (e) {
    return { ok: false, problem: `it is not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  return checkSchema(x);
}

/** The schema as the model reads it: compact JSON. */
export function schemaText(schema: Record<string, unknown>): string {
  return JSON.stringify(schema);
}

/**
 * The JSON an answer may hold, most likely first: the whole text; a fenced ```json block in it;
 * the span from its first "{" or "[" to its last "}" or "]" (a grammar whose answer sits in prose:
 * glm-pc's explanation, AppAgent's Thought).
 */
function jsonCandidates(answer: string): string[] {
  const t = answer.trim();
  const out = [t];
  const fenced = /```(?:json)?[ \t]*\n?([\s\S]*?)```/i.exec(t);
  if (fenced) out.push(fenced[1].trim());
  const open = t.search(/[{[]/);
  const close = Math.max(t.lastIndexOf('}'), t.lastIndexOf(']'));
  if (open > 0 || (open === 0 && close < t.length - 1)) {
    if (close > open) out.push(t.slice(open, close + 1));
  }
  return out;
}

/** The first candidate that parses as JSON; else the whole text's parse error. */
function parseAnswer(answer: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const [whole, ...rest] = jsonCandidates(answer);
  let error = '';
  for (const text of [whole, ...rest]) {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch (e) {
      if (text === whole) error = e instanceof Error ? e.message : String(e);
    }
  }
  return { ok: false, error };
}

export type AnswerCheck = { ok: true; value: unknown } | { ok: false; error: string };

/** The validator's errors as one line: where, and what ("at /price: Instance type "string" is invalid. Expected "number"."). */
function errorsText(errors: OutputUnit[]): string {
  // the deepest errors say what is wrong; the ones above them only that a part did not match
  const deepest = errors.filter((e) => !errors.some((o) => o !== e && o.instanceLocation.startsWith(`${e.instanceLocation}/`)));
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const e of deepest.length ? deepest : errors) {
    const where = e.instanceLocation.replace(/^#/, '') || '/';
    // "False boolean schema." is what the validator says of a property the schema does not allow
    const line = `at ${where}: ${/^False boolean schema\.?$/.test(e.error) ? 'the schema does not allow this here' : e.error}`;
    if (!seen.has(line)) { seen.add(line); lines.push(line); }
    if (lines.length >= 5) break;
  }
  return lines.join('; ');
}

/** Whether the answer is JSON that the schema accepts; else the validator's message (what the model is told). */
export function checkAnswer(schema: Record<string, unknown>, answer: string | null): AnswerCheck {
  if (answer === null || !answer.trim()) return { ok: false, error: 'no answer was given' };
  const parsed = parseAnswer(answer);
  if (!parsed.ok) return { ok: false, error: `the answer is not JSON (${parsed.error})` };
  const value = parsed.value;
  const r = new Validator(schema as Schema, '2020-12', false).validate(value);
  return r.valid ? { ok: true, value } : { ok: false, error: errorsText(r.errors) };
}
