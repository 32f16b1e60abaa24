import { type ApiChange, CHANGE_REPORT_LIMITS, type ChangeGap, type ChangeReport, type ChangeSeverity } from '#contracts';

/**
 * The changes found so far, breaking first, and the parts that could not be compared: each
 * severity keeps at most `maxChanges` (the report never shows more), and the gaps at most
 * `maxGaps`, while the counts go on, so that a spec rewritten from scratch costs memory for one
 * report, not for every change it makes.
 */
export class ChangeLog {
  private readonly kept: Record<ChangeSeverity, ApiChange[]> = { breaking: [], 'non-breaking': [], info: [] };
  private readonly counts: Record<ChangeSeverity, number> = { breaking: 0, 'non-breaking': 0, info: 0 };
  private readonly gaps: ChangeGap[] = [];
  private gapCount = 0;

  add(change: ApiChange): void {
    this.counts[change.severity]++;
    const kept = this.kept[change.severity];
    if (kept.length < CHANGE_REPORT_LIMITS.maxChanges) kept.push(change);
  }

  /** A part not compared: the report will say it is not complete, and why. */
  gap(gap: ChangeGap): void {
    this.gapCount++;
    if (this.gaps.length < CHANGE_REPORT_LIMITS.maxGaps) this.gaps.push(gap);
  }

  report(): ChangeReport {
    const all = [...this.kept.breaking, ...this.kept['non-breaking'], ...this.kept.info];
    const total = this.counts.breaking + this.counts['non-breaking'] + this.counts.info;
    return {
      changes: all.slice(0, CHANGE_REPORT_LIMITS.maxChanges),
      breaking: this.counts.breaking,
      nonBreaking: this.counts['non-breaking'],
      info: this.counts.info,
      complete: this.gapCount === 0,
      ...(total > CHANGE_REPORT_LIMITS.maxChanges ? { truncated: true } : {}),
      ...(this.gapCount > 0 ? { incompleteReason: this.incompleteReason(), notCompared: this.gaps } : {}),
    };
  }

  private incompleteReason(): string {
    const [first] = this.gaps;
    const where = [first.operation, first.location].filter(Boolean).join(' ');
    const more = this.gapCount > 1 ? ` (and ${this.gapCount - 1} more part${this.gapCount === 2 ? '' : 's'} not compared)` : '';
    return `${where ? `${where}: ` : ''}${first.reason}${more}`;
  }
}
