import type { DiagnosticSeverity, Parser } from '@asyncapi/parser';
import { SpecError } from '../../spec-error.js';
import { errorSummary, withoutInternals } from '../../error-summary.js';
import type { AsyncApiDocument } from './read-asyncapi.js';

/** Problems named in the error; the rest are counted. */
const MAX_PROBLEMS = 3;
const MAX_PROBLEM_CHARS = 300;

type Resolver = { schema: string; order: number; read: (uri: { toString(): string }) => string };

/**
 * Resolvers that read nothing. @asyncapi/parser always keeps its own `file`, `http` and `https`
 * resolvers and falls back to them when one given here throws or has no `order` (0 counts as
 * none), so these come first (order 1) and answer every URI with an empty object, noting it.
 */
function refusingResolvers(refused: string[]): Resolver[] {
  return ['file', 'http', 'https'].map((schema) => ({
    schema,
    order: 1,
    read: (uri) => {
      refused.push(uri.toString());
      return '{}';
    },
  }));
}

let shared: Promise<{ parser: Parser; error: DiagnosticSeverity }> | undefined;

/**
 * One parser per thread: building its rulesets is the slow part of a first parse. Loaded on first
 * use: the package takes seconds to load, which a process that only detects formats (the folder
 * import) never needs.
 */
function parser(): Promise<{ parser: Parser; error: DiagnosticSeverity }> {
  shared ??= import('@asyncapi/parser').then(({ DiagnosticSeverity, Parser }) => ({
    // Its own resolver (used only when a parse names none) refuses too.
    parser: new Parser({ __unstable: { resolver: { cache: false, resolvers: refusingResolvers([]) } } }),
    error: DiagnosticSeverity.Error,
  }));
  return shared;
}

/**
 * Validates a document with @asyncapi/parser (the AsyncAPI JSON Schemas and the parser's core
 * and recommended rules), reading no file and no URL: a SpecError names the first few errors with
 * their paths (`channels./user/signedup.publish.message: must have required property 'payload'`).
 * Warnings pass. An external `$ref` (which `readAsyncApi` refuses before this, vendor extensions
 * included) is never fetched, and refused here as there. When the parser itself fails (it reports
 * its own exception as a diagnostic, stack and file paths included), the reason is one line
 * without them, `The AsyncAPI parser could not process the spec (RangeError: Invalid string length)`.
 */
export async function validateAsyncApi(document: AsyncApiDocument): Promise<void> {
  const refused: string[] = [];
  const { parser: asyncApiParser, error } = await parser();
  const { diagnostics } = await asyncApiParser.parse(parserInput(document), {
    // Per parse, so that what is refused is this document's (and nothing is cached across parses).
    __unstable: { resolver: { resolvers: refusingResolvers(refused) } },
  });
  if (refused.length > 0) {
    throw new SpecError(`External $ref "${refused[0].slice(0, 200)}" is not allowed: bundle the spec into one document`);
  }
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === error);
  if (errors.length === 0) return;
  const crash = errors.find((diagnostic) => diagnostic.code === UNCAUGHT_ERROR);
  if (crash) throw new SpecError(`The AsyncAPI parser could not process the spec (${errorSummary(thrownError(crash.message))})`);
  const problems = errors.slice(0, MAX_PROBLEMS).map(({ path, message }) => {
    const where = path.map(String).join('.');
    return truncated(where ? `${where}: ${message}` : message);
  });
  const more = errors.length > MAX_PROBLEMS ? `; and ${errors.length - MAX_PROBLEMS} more` : '';
  throw new SpecError(`The AsyncAPI document is not valid: ${problems.join('; ')}${more}`);
}

/**
 * The document without the parser's own markers: one that claims to be parsed already
 * (`x-parser-spec-parsed`) would be taken as it is, unvalidated.
 */
function parserInput(document: AsyncApiDocument): { asyncapi: string } & AsyncApiDocument {
  return { ...Object.fromEntries(Object.entries(document).filter(([key]) => !key.startsWith('x-parser-'))), asyncapi: String(document.asyncapi) };
}

/** The diagnostic @asyncapi/parser makes of an exception it caught (`createUncaghtDiagnostic`). */
const UNCAUGHT_ERROR = 'uncaught-error';

/** `… Name: RangeError, message: Invalid string length, stack: RangeError: …\n    at …` as the error it was. */
function thrownError(message: string): { name: string; message: string } {
  const match = /Name: (\w+), message: ([\s\S]*?), stack: /.exec(message);
  return match ? { name: match[1], message: match[2] } : { name: '', message };
}

function truncated(text: string): string {
  const line = withoutInternals(text);
  return line.length > MAX_PROBLEM_CHARS ? `${line.slice(0, MAX_PROBLEM_CHARS)}…` : line;
}
