// The entry of a `SpecThreads` worker thread: each export is a task it runs by name, with the
// spec formats the app was given (`SpecThreadsOptions.formats`), loaded here by their modules.
import { workerData } from 'piscina';
import type { SpecFormat } from './formats/spec-format.js';
import { SpecFormats } from './formats/spec-formats.js';
import { changeReportOf as changeReport } from './changes/change-report.js';
import { lintOf as lint } from './lint/lint-spec.js';
import * as tasks from './spec-tasks.js';

type Input<K extends 'checkRegistration' | 'operationsOf' | 'specDocumentOf' | 'chunksOf'> = Parameters<(typeof tasks)[K]>[1];

const modules = (workerData as { formatModules: string[] }).formatModules;
const formats = new SpecFormats(await Promise.all(modules.map(async (url) => new ((await import(url)) as { default: new () => SpecFormat }).default())));

/** Nothing: answers once the thread has loaded the formats (`SpecThreads.run` waits for it untimed). */
export const ready = () => true;
export const checkRegistration = (input: Input<'checkRegistration'>) => tasks.checkRegistration(formats, input);
export const operationsOf = (input: Input<'operationsOf'>) => tasks.operationsOf(formats, input);
export const specDocumentOf = (input: Input<'specDocumentOf'>) => tasks.specDocumentOf(formats, input);
export const chunksOf = (input: Input<'chunksOf'>) => tasks.chunksOf(formats, input);
export const changeReportOf = (input: Parameters<typeof changeReport>[1]) => changeReport(formats, input);
export const lintOf = (input: Parameters<typeof lint>[1]) => lint(formats, input);
