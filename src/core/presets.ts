/**
 * Endpoint presets: each fills the base URL, the model name and the request options that endpoint
 * needs. Every field stays editable afterwards; a preset only fills the form.
 */
import type { Settings } from './settings';

export type PresetFields = Pick<Settings, 'baseUrl' | 'model' | 'temperature' | 'maxTokens' | 'stream' | 'extraBody'>;

export interface Preset {
  id: string;
  name: string;
  /** what the person still has to do, shown under the form */
  note: string;
  fields: PresetFields;
}

const GLM = { temperature: 0.001, maxTokens: 8192, stream: true };

export const PRESETS: Preset[] = [
  {
    id: 'zhipu', name: 'GLM-4.5V on Zhipu (BigModel) API',
    note: 'Paste your API key from the BigModel console.',
    // The hosted API rejects unknown fields: no skip_special_tokens.
    fields: { baseUrl: 'https://open.bigmodel.cn/api/paas/v4', model: 'glm-4.5v', ...GLM, extraBody: '' },
  },
  {
    id: 'vllm', name: 'GLM-4.5V on vLLM / SGLang',
    note: 'Set the host and the served model name (vllm serve zai-org/GLM-4.5V --served-model-name glm-4.5v). skip_special_tokens=false keeps the box tokens.',
    fields: { baseUrl: 'http://127.0.0.1:8000/v1', model: 'glm-4.5v', ...GLM, extraBody: '{"skip_special_tokens": false}' },
  },
  {
    id: 'openai', name: 'OpenAI',
    note: 'Paste your OpenAI API key. GPT models were not trained on this prompt; expect weaker results.',
    fields: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o', temperature: 0, maxTokens: 4096, stream: true, extraBody: '' },
  },
  {
    id: 'openrouter', name: 'OpenRouter',
    note: 'Paste your OpenRouter key; the model is z-ai/glm-4.5v or any vision model OpenRouter lists.',
    fields: { baseUrl: 'https://openrouter.ai/api/v1', model: 'z-ai/glm-4.5v', temperature: 0.001, maxTokens: 8192, stream: true, extraBody: '' },
  },
  {
    id: 'ollama', name: 'Ollama',
    note: 'Start Ollama with OLLAMA_ORIGINS=chrome-extension://* and pull a vision model (e.g. qwen2.5vl).',
    fields: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5vl', temperature: 0.001, maxTokens: 4096, stream: true, extraBody: '' },
  },
  {
    id: 'lmstudio', name: 'LM Studio',
    note: 'Start the local server in LM Studio and load a vision model; the model name is the one it shows.',
    fields: { baseUrl: 'http://127.0.0.1:1234/v1', model: 'glm-4.5v', temperature: 0.001, maxTokens: 4096, stream: true, extraBody: '' },
  },
];

export function presetById(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
