import { type ApiChange, CHANGE_REPORT_LIMITS, type ChangeReport, type ChangeSeverity } from '#contracts';

/**
 * The changes found so far, breaking first: each severity keeps at most `maxChanges` (the report
 * never shows more), while the counts go on, so that a spec rewritten from scratch costs memory
 * for one report, not for every change it makes.
 */
export class ChangeLog {
  private readonly kept: Record<ChangeSeverity, ApiChange[]> = { breaking: [], 'non-breaking': [], info: [] };
  private readonly counts: Record<ChangeSeverity, number> = { breaking: 0, 'non-breaking': 0, info: 0 };

  add(change: ApiChange): void {
    this.counts[change.severity]++;
    const kept = this.kept[change.severity];
    if (kept.length < CHANGE_REPORT_LIMITS.maxChanges) kept.push(change);
  }

  report(): ChangeReport {
    const all = [...this.kept.breaking, ...this.kept['non-breaking'], ...this.kept.info];
    const total = this.counts.breaking + this.counts['non-breaking'] + this.counts.info;
    return {
      changes: all.slice(0, CHANGE_REPORT_LIMITS.maxChanges),
      breaking: this.counts.breaking,
      nonBreaking: this.counts['non-breaking'],
      info: this.counts.info,
      ...(total > CHANGE_REPORT_LIMITS.maxChanges ? { truncated: true } : {}),
    };
  }
}
