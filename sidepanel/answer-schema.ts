/** The task form's answer schema field (docs/answer-schema.md), read for Start and for Save. */
import { readSchemaText } from '../src/core/answer-schema';
import { t } from './i18n';

/** The field's text as a schema (undefined when empty); a problem is thrown in the person's words. */
export function schemaOf(text: string): Record<string, unknown> | undefined {
  if (!text.trim()) return undefined;
  const read = readSchemaText(text);
  if (!read.ok) throw new Error(t('answerSchemaBad', read.problem));
  return read.schema;
}
