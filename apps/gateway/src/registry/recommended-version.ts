import type { LifecycleStage, VersionSummary } from '#contracts';

/** The stages of a version that is still being made: none is recommended over one in production. */
const PRE_RELEASE: readonly LifecycleStage[] = ['design', 'development', 'testing', 'preview'];

export interface VersionFacts {
  version: string;
  lifecycle: LifecycleStage;
  createdAt: Date;
}

/**
 * Version names in release order, as people write them: `v2` after `1.10.0`, `1.10` after `1.9`,
 * `2.0.0-beta.1` before `2.0.0`, dates (`2024-05-01`) in date order. Digits compare as numbers.
 */
export function compareVersions(a: string, b: string): number {
  const [coreA, preA] = splitPreRelease(a);
  const [coreB, preB] = splitPreRelease(b);
  const byCore = coreA.localeCompare(coreB, 'en', { numeric: true, sensitivity: 'base' });
  if (byCore !== 0) return byCore;
  // `2.0.0` is released after `2.0.0-rc.1`.
  if (!preA || !preB) return preA ? -1 : preB ? 1 : 0;
  return preA.localeCompare(preB, 'en', { numeric: true, sensitivity: 'base' });
}

/** The first number of a version (`2` of `v2.1.0`, `2024` of `2024-05-01`), or the whole name when it has none. */
export function majorOf(version: string): string {
  return version.match(/\d+/)?.[0].replace(/^0+(?=\d)/, '') ?? version.trim().toLowerCase();
}

/**
 * The version search shows and routes act on when none is named: the highest `production` one;
 * else the newest still being made (design … preview); else the newest deprecated one; else,
 * every version being retired, the newest (and the API is retired: search leaves it out).
 */
export function recommendedVersion<T extends VersionFacts>(versions: readonly T[]): T {
  if (versions.length === 0) throw new Error('An API has at least one version');
  const production = versions.filter((item) => item.lifecycle === 'production');
  if (production.length > 0) return production.reduce((best, item) => (compareVersions(item.version, best.version) > 0 ? item : best));
  const newest = (items: readonly T[]) =>
    items.reduce((best, item) =>
      item.createdAt.getTime() > best.createdAt.getTime() ||
      (item.createdAt.getTime() === best.createdAt.getTime() && compareVersions(item.version, best.version) > 0)
        ? item
        : best,
    );
  const preRelease = versions.filter((item) => PRE_RELEASE.includes(item.lifecycle));
  if (preRelease.length > 0) return newest(preRelease);
  const deprecated = versions.filter((item) => item.lifecycle === 'deprecated');
  return newest(deprecated.length > 0 ? deprecated : versions);
}

/**
 * The version a new one follows, to compare it with: the one its file held before (a tree import),
 * else the highest production version of its major version, else the recommended production one.
 * `1.1.0` beside `2.0.0` follows `1.0.0`, not `2.0.0`: a change to 1.x must be measured against 1.x.
 */
export function followedVersion<T extends VersionFacts>(versions: readonly T[], version: string, heldBefore?: T): T | undefined {
  if (heldBefore) return heldBefore;
  const production = versions.filter((item) => item.lifecycle === 'production');
  const sameMajor = production.filter((item) => majorOf(item.version) === majorOf(version));
  if (sameMajor.length) return recommendedVersion(sameMajor);
  return production.length ? recommendedVersion(production) : undefined;
}

/** Where users of a deprecated version should go: the recommended version, when it is another one still in use. */
export function moveToFor(version: Pick<VersionFacts, 'version' | 'lifecycle'>, recommended: Pick<VersionFacts, 'version' | 'lifecycle'>): string | undefined {
  if (version.lifecycle !== 'deprecated' || version.version === recommended.version) return undefined;
  return recommended.lifecycle === 'deprecated' || recommended.lifecycle === 'retired' ? undefined : recommended.version;
}

/** Newest release first. */
export function inReleaseOrder<T extends { version: string }>(versions: readonly T[]): T[] {
  return [...versions].sort((a, b) => compareVersions(b.version, a.version));
}

/** A version as cards and records list it. */
export function versionSummary(version: { version: string; lifecycle: LifecycleStage; sunsetDate: string | null }): VersionSummary {
  return { version: version.version, lifecycle: version.lifecycle, ...(version.sunsetDate ? { sunsetDate: version.sunsetDate } : {}) };
}

function splitPreRelease(version: string): [string, string | undefined] {
  const trimmed = version.trim().replace(/^v(?=\d)/i, '');
  // A hyphen after a dotted core starts a pre-release (`1.0.0-beta`); in a date (`2024-05-01`) it does not.
  const match = trimmed.match(/^(\d+(?:\.\d+)+)-(.+)$/);
  return match ? [match[1], match[2]] : [trimmed, undefined];
}
