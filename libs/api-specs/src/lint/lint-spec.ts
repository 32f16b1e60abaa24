import { LINT_LIMITS, LINT_SEVERITIES, type LintFinding, type LintReport, type LintSummary } from '#contracts';
import type { SpecFormats } from '../formats/spec-formats.js';
import { SpecError } from '../spec-error.js';
import type { SpecRefusal, StoredSpec } from '../spec-tasks.js';

/**
 * A registered spec linted by its format (`SpecFormat.lint`), for a spec thread: every finding
 * counted in the summary, the worst first (then by path), at most `LINT_LIMITS.maxFindings` of them.
 */
export async function lintOf(formats: SpecFormats, { text, format }: StoredSpec): Promise<LintReport | SpecRefusal> {
  try {
    const read = formats.read(text, format);
    return lintReport(await read.format.lint(read.spec));
  } catch (error) {
    if (error instanceof SpecError) return { refused: error.message };
    throw error;
  }
}

function lintReport(findings: LintFinding[]): LintReport {
  const summary = Object.fromEntries(LINT_SEVERITIES.map((severity) => [severity, 0])) as LintSummary;
  for (const finding of findings) summary[finding.severity] += 1;
  const sorted = findings.toSorted((a, b) => rank(a) - rank(b) || compare(a.path, b.path) || compare(a.code, b.code));
  const truncated = sorted.length > LINT_LIMITS.maxFindings;
  return { summary, findings: truncated ? sorted.slice(0, LINT_LIMITS.maxFindings) : sorted, ...(truncated ? { truncated: true } : {}) };
}

function rank(finding: LintFinding): number {
  return LINT_SEVERITIES.indexOf(finding.severity);
}

/** By code unit, not locale: the same order on every machine. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
