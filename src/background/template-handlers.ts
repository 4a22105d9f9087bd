/** The side panel's saved-task messages (core/messages.ts `templates/*`; the store: template-store.ts). */
import type { ViewMessages } from '../core/messages';
import { checkTemplate, readTemplateFile, templateFile } from '../core/templates';
import { personT } from './person';
import { loadSettings } from './settings-store';
import { deleteTemplate, exportTemplates, listTemplates, saveTemplate, stageTemplate } from './template-store';
import { startRun } from './run';

type Names = 'templates/list' | 'templates/save' | 'templates/delete' | 'templates/export' | 'templates/import' | 'templates/start';
type Handlers = { [K in Names]: (req: ViewMessages[K]['req']) => Promise<ViewMessages[K]['res']> };

export const templateHandlers: Handlers = {
  'templates/list': () => listTemplates(),
  'templates/save': async ({ template, withFiles }) => {
    const t = personT(await loadSettings());
    // what the panel sends is checked as a file's would be (the runner reads the same fields)
    const checked = checkTemplate(template, t);
    if (!checked.ok) throw new Error(t('tplNotSaved', checked.problem));
    await saveTemplate(checked.template, !!withFiles);
    return listTemplates();
  },
  'templates/delete': async ({ id }) => {
    await deleteTemplate(String(id));
    return listTemplates();
  },
  'templates/export': async ({ ids }) => {
    const list = await exportTemplates(Array.isArray(ids) ? ids.map(String) : undefined);
    return { text: templateFile(list), count: list.length };
  },
  'templates/import': async ({ file }) => {
    const t = personT(await loadSettings());
    const read = readTemplateFile(file, t);
    if (!read.ok) throw new Error(t('tplNotImported', read.problem));
    for (const x of read.templates) await saveTemplate(x);
    return { added: read.templates.length, refused: read.refused, list: await listTemplates() };
  },
  'templates/start': async ({ id, tabId }) => {
    const t = personT(await loadSettings());
    const tpl = await stageTemplate(String(id));
    if (!tpl) throw new Error(t('tplGone'));
    const runId = await startRun({ task: tpl.task, tabId, ...(tpl.startUrl ? { url: tpl.startUrl } : {}), ...(tpl.dialect ? { config: { dialect: tpl.dialect } } : {}), ...(tpl.answerSchema ? { answerSchema: tpl.answerSchema } : {}), ...(tpl.allowedSites ? { allowedSites: tpl.allowedSites } : {}) });
    return { runId };
  },
};
