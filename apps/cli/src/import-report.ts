import type { TreePlan, TreePlanAction, TreePlanEntry } from '#contracts';
import type { SyncResult } from './import-sync.js';

/** How the import ran: what the headline says. */
export interface RunFlags {
  dryRun: boolean;
  failOnBreaking: boolean;
  prune: boolean;
}

const LISTED: TreePlanAction[] = ['added', 'updated', 'deleted'];

function headline(result: SyncResult, flags: RunFlags): string {
  const { tree, orgId } = result.plan;
  if (result.stopped) return `Stopped before writing tree "${tree}" into org ${orgId} (--fail-on-breaking): ${blockingText(result.plan)}; nothing written`;
  if (flags.dryRun) return `Plan for tree "${tree}" in org ${orgId} (dry run: nothing written)`;
  return `Imported tree "${tree}" into org ${orgId}`;
}

function blockingText(plan: TreePlan): string {
  return `${plan.blocking} change${plan.blocking === 1 ? '' : 's'} would break a version in production without a new major version, or could not be compared in full`;
}

/** `Name 1.2.0`, what changed, and what the entry says beside. */
function describe(entry: TreePlanEntry): string {
  const parts = [[entry.name, entry.version].filter(Boolean).join(' ')];
  if (entry.newApi) parts.push('(new API)');
  if (entry.adopted) parts.push('(adopted)');
  if (entry.what?.length) parts.push(`[${entry.what.join(', ')}]`);
  const comparison = entry.comparison;
  if (comparison)
    parts.push(
      `vs ${comparison.base.version}: ${comparison.breaking} breaking, ${comparison.nonBreaking} non-breaking${comparison.complete ? '' : ', incomplete'}`,
    );
  if (entry.note) parts.push(`— ${entry.note}`);
  const reached = reachedText(entry);
  if (reached) parts.push(`— ${reached}`);
  return parts.join(' ');
}

/** The consumers an entry's breaking changes reach, or that a deletion removes the version from. */
function reachedText(entry: TreePlanEntry): string | undefined {
  const names = (consumers: { name: string }[]) => consumers.map((consumer) => consumer.name).join(', ');
  if (entry.consumers?.length) return `used by ${names(entry.consumers)} (they are told)`;
  const impact = entry.comparison?.impact;
  if (!impact) return undefined;
  const parts = [
    ...(impact.affected.length ? [`breaks ${names(impact.affected)}`] : []),
    ...(impact.mayBeAffected.length ? [`may break ${names(impact.mayBeAffected)} (no operations named, or not compared)`] : []),
  ];
  return parts.length ? parts.join('; ') : undefined;
}

/** The console's summary: a count per outcome, the paths of what changes, every failure and every blocking change. */
export function planText(result: SyncResult, flags: RunFlags, scanSkipped: number): string {
  const { plan } = result;
  const lines = [headline(result, flags)];
  const of = (action: TreePlanAction) => plan.entries.filter((entry) => entry.action === action);
  for (const action of ['added', 'updated', 'unchanged', 'deleted', 'skipped'] as const) {
    if (action === 'deleted' && !flags.prune) continue;
    const entries = of(action);
    lines.push(`${action.padEnd(10)} ${entries.length + (action === 'skipped' ? scanSkipped : 0)}`);
    if (LISTED.includes(action)) lines.push(...entries.map((entry) => `  ${entry.path}  ${describe(entry)}`));
    if (action === 'skipped') lines.push(...entries.map((entry) => `  ${entry.path}: ${entry.note}`));
  }
  const failed = of('failed');
  lines.push(`${'failed'.padEnd(10)} ${failed.length}`, ...failed.map((entry) => `  ${entry.path}: ${entry.reason}`));
  const blocking = plan.entries.filter((entry) => entry.blocking);
  const warned = plan.entries.filter((entry) => !entry.blocking && entry.warnings?.length);
  if (blocking.length + warned.length > 0) {
    lines.push(`${'breaking'.padEnd(10)} ${blocking.length + warned.length}`);
    for (const entry of blocking) {
      lines.push(`  ${entry.path}: ${describe(entry)}${entry.comparison?.incompleteReason ? ` (${entry.comparison.incompleteReason})` : ''}`);
      lines.push(...(entry.comparison?.changes ?? []).filter((change) => change.severity === 'breaking').map((change) => `    ${changeText(change)}`));
    }
    for (const entry of warned) lines.push(...entry.warnings!.map((warning) => `  ${entry.path}: ${warning}`));
  }
  return lines.join('\n');
}

function changeText(change: { operation?: string; message: string }): string {
  return change.operation ? `${change.operation}: ${change.message}` : change.message;
}

/** Text made safe for a pull-request comment: one line, no HTML, no table or code breaks. */
function safe(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').trim();
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/\s+/g, ' ')}\``;
}

/** The plan as Markdown for a pull-request comment: the verdict, the counts, then breaking changes first, with their operations. */
export function planMarkdown(result: SyncResult, flags: RunFlags): string {
  const { plan } = result;
  const lines = [`### API catalogue: tree ${code(plan.tree)} → org ${code(plan.orgId)}`, ''];
  if (result.stopped) lines.push(`> ⛔ **${safe(blockingText(plan))}.** Nothing was written (\`--fail-on-breaking\`).`);
  else if (plan.blocking > 0) lines.push(`> ⚠️ **${safe(blockingText(plan))}.**`);
  else lines.push('> ✅ No change breaks a version in production.');
  if (plan.counts.failed > 0) lines.push('>', `> ❌ **${plan.counts.failed} item${plan.counts.failed === 1 ? '' : 's'} failed** and will not be published.`);
  lines.push('', flags.dryRun || result.stopped ? '_A plan: nothing was written._' : '_Written._', '');
  const actions: TreePlanAction[] = ['added', 'updated', 'unchanged', ...(flags.prune ? (['deleted'] as const) : []), 'skipped', 'failed'];
  lines.push(`| ${actions.join(' | ')} |`, `|${actions.map(() => '---:').join('|')}|`, `| ${actions.map((action) => plan.counts[action]).join(' | ')} |`, '');

  const blocking = plan.entries.filter((entry) => entry.blocking);
  const breaking = plan.entries.filter((entry) => !entry.blocking && (entry.comparison?.breaking ?? 0) > 0);
  if (blocking.length + breaking.length > 0) {
    lines.push('#### Breaking changes', '');
    for (const entry of [...blocking, ...breaking]) {
      const comparison = entry.comparison!;
      const against = `${comparison.base.version} (revision ${comparison.base.revision}, ${comparison.base.lifecycle})`;
      lines.push(
        `**${safe(entry.name ?? '')} ${safe(entry.version ?? '')}** in ${code(entry.path)}, against ${safe(against)}: ` +
          `${comparison.breaking} breaking, ${comparison.nonBreaking} non-breaking${entry.blocking ? ' — **blocks**' : ' — a new major version, allowed'}`,
      );
      if (!comparison.complete) lines.push(`- ⚠️ Not complete: ${safe(comparison.incompleteReason ?? 'the comparison stopped early')}`);
      const reached = reachedText(entry);
      if (reached) lines.push(`- 👥 ${safe(reached)}`);
      for (const change of comparison.changes.filter((change) => change.severity === 'breaking')) {
        lines.push(`- ${change.operation ? `${code(change.operation)}: ` : ''}${safe(change.message)}`);
      }
      lines.push('');
    }
  }
  const failed = plan.entries.filter((entry) => entry.action === 'failed');
  if (failed.length) lines.push('#### Failed', '', ...failed.map((entry) => `- ${code(entry.path)}: ${safe(entry.reason ?? '')}`), '');
  for (const action of LISTED) {
    const entries = plan.entries.filter((entry) => entry.action === action && !entry.blocking);
    if (action === 'deleted' && !flags.prune) continue;
    if (entries.length === 0) continue;
    lines.push(`<details><summary>${action[0].toUpperCase()}${action.slice(1)}: ${entries.length}</summary>`, '');
    lines.push(...entries.map((entry) => `- ${code(entry.path)} ${safe(describe(entry))}`), '', '</details>', '');
  }
  return lines.join('\n');
}
