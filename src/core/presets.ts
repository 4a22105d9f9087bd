/**
 * Endpoint presets: each fills the base URL, the model name and the request options that endpoint
 * needs. Every field stays editable afterwards; a preset only fills the form.
 */
import type { Settings } from './settings';

export type PresetFields = Pick<Settings, 'baseUrl' | 'model' | 'temperature' | 'maxTokens' | 'stream' | 'extraBody'>;

export interface Preset {
  id: string;
  /** message keys (public/_locales): the preset's name, and what the person still has to do (shown under the form) */
  nameKey: string;
  noteKey: string;
  fields: PresetFields;
}

const GLM = { temperature: 0.001, maxTokens: 8192, stream: true };

export const PRESETS: Preset[] = [
  {
    id: 'zhipu', nameKey: 'presetZhipuName',
    noteKey: 'presetZhipuNote',
    // The hosted API rejects unknown fields: no skip_special_tokens.
    fields: { baseUrl: 'https://open.bigmodel.cn/api/paas/v4', model: 'glm-4.5v', ...GLM, extraBody: '' },
  },
  {
    id: 'vllm', nameKey: 'presetVllmName',
    noteKey: 'presetVllmNote',
    fields: { baseUrl: 'http://127.0.0.1:8000/v1', model: 'glm-4.5v', ...GLM, extraBody: '{"skip_special_tokens": false}' },
  },
  {
    id: 'openai', nameKey: 'presetOpenaiName',
    noteKey: 'presetOpenaiNote',
    fields: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o', temperature: 0, maxTokens: 4096, stream: true, extraBody: '' },
  },
  {
    id: 'openrouter', nameKey: 'presetOpenrouterName',
    noteKey: 'presetOpenrouterNote',
    fields: { baseUrl: 'https://openrouter.ai/api/v1', model: 'z-ai/glm-4.5v', temperature: 0.001, maxTokens: 8192, stream: true, extraBody: '' },
  },
  {
    id: 'ollama', nameKey: 'presetOllamaName',
    noteKey: 'presetOllamaNote',
    fields: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5vl', temperature: 0.001, maxTokens: 4096, stream: true, extraBody: '' },
  },
  {
    id: 'lmstudio', nameKey: 'presetLmstudioName',
    noteKey: 'presetLmstudioNote',
    fields: { baseUrl: 'http://127.0.0.1:1234/v1', model: 'glm-4.5v', temperature: 0.001, maxTokens: 4096, stream: true, extraBody: '' },
  },
];

export function presetById(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
