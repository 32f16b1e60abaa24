import { fileURLToPath } from 'node:url';
import { isObject } from './is-object.js';

/*
 * Errors in words that any reader may see (a refusal, an indexing status): a library's error
 * may quote its stack and this server's paths, which belong in the log only.
 */

/** Names worth keeping in a summary: they say what kind of failure it was (`RangeError: Invalid string length`). */
const BUILT_IN_ERRORS = new Set(['RangeError', 'TypeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError']);
const MAX_SUMMARY_CHARS = 200;
// Where this module runs from: libs/api-specs/src/ in the repository, or under its dist/.
const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url))
  .replace(/[\\/]$/, '')
  .replace(/[\\/]dist$/, '');
// From the first stack frame on: `at fn (/path/file.js:1:2)`, `at file:///path/file.js:1:2`,
// `at node:internal/x:1:2`, `at JSON.stringify (<anonymous>)`; a frame names a line (or no file).
const STACK_FRAME = /\s+at\s+(?:async\s+)?(?:(?:\S+\s+)?\(?(?:file:\/\/|node:|\/|[A-Za-z]:\\)[^\s()]*:\d+(?::\d+)?\)?|\S+\s+\((?:<anonymous>|native)\))/;
const NODE_MODULES_PATH = /(?:file:\/\/)?\S*node_modules\S*/g;
// Any absolute file path of two segments or more, or file URL (with its `:line:column`).
const ANY_PATH = /(?<=^|[\s'"`(=])(?:file:\/\/\S+|(?:\/|[A-Za-z]:\\)(?:[^\s'"`()<>:]+[\\/])+[^\s'"`()<>:]*(?::\d+)*)/g;

/**
 * A text that may quote an error of this server, without its internals: cut at the first stack
 * frame, on one line, with the server's own paths (the repository's, the working directory's,
 * anything under node_modules) as `…`. Paths the spec itself wrote stay (a refusal quotes them).
 */
export function withoutInternals(text: string): string {
  let cleaned = text;
  const frame = STACK_FRAME.exec(cleaned);
  if (frame) cleaned = cleaned.slice(0, frame.index);
  for (const root of new Set([REPOSITORY_ROOT, process.cwd()])) {
    if (root.length > 1) cleaned = cleaned.replace(new RegExp(`(?:file://)?${escapeRegExp(root)}[^\\s'"\`()]*`, 'g'), '…');
  }
  return cleaned.replace(NODE_MODULES_PATH, '…').replace(/\s+/g, ' ').trim();
}

/**
 * An unexpected error in words any reader may see: one line, no stack, no file path or file URL,
 * at most 200 characters; the name only for the built-in errors, whose name says what went
 * wrong (`RangeError: Invalid string length`). The server logs the error itself.
 */
export function errorSummary(error: unknown): string {
  const { name, message } =
    isObject(error) && typeof error.message === 'string' ? { name: String(error.name ?? ''), message: error.message } : { name: '', message: String(error) };
  const text = withoutInternals(message.split(/\r?\n/)[0]).replace(ANY_PATH, '…') || 'no details';
  const summary = BUILT_IN_ERRORS.has(name) && !text.startsWith(name) ? `${name}: ${text}` : text;
  return summary.length > MAX_SUMMARY_CHARS ? `${summary.slice(0, MAX_SUMMARY_CHARS - 1)}…` : summary;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
