// The entry of a `SpecThreads` worker thread: each export is a task it runs by name.
export { checkRegistration, chunksOf, operationsOf, specDocumentOf } from './spec-tasks.js';
