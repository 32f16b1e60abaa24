import type { LifecycleStage } from '#contracts';
import { compareVersions, inReleaseOrder, majorOf, moveToFor, recommendedVersion } from './recommended-version.js';

const at = (day: number) => new Date(Date.UTC(2026, 0, day));
const version = (name: string, lifecycle: LifecycleStage, day = 1) => ({ version: name, lifecycle, createdAt: at(day) });

describe('version order and the recommended version', () => {
  it.each([
    ['1.10.0', '1.9.0'],
    ['v2', '1.10.0'],
    ['2.0.0', '2.0.0-rc.1'],
    ['2.0.0-rc.2', '2.0.0-rc.1'],
    ['2024-05-01', '2023-12-31'],
    ['1.0.1', '1.0'],
  ])('should put %s after %s', (later, earlier) => {
    expect(compareVersions(later, earlier)).toBeGreaterThan(0);
    expect(compareVersions(earlier, later)).toBeLessThan(0);
  });

  it('should read the first number as the major version', () => {
    expect([majorOf('v2.1.0'), majorOf('2024-05-01'), majorOf('02'), majorOf('beta')]).toEqual(['2', '2024', '2', 'beta']);
  });

  it('should recommend the highest production version, whenever it was added', () => {
    const versions = [
      version('2.0.0', 'production', 1),
      version('10.0.0', 'production', 2),
      version('11.0.0', 'preview', 3),
      version('1.0.0', 'deprecated', 4),
    ];
    expect(recommendedVersion(versions).version).toBe('10.0.0');
  });

  it('should fall back to the newest pre-release, then the newest deprecated, then the newest retired', () => {
    expect(recommendedVersion([version('3', 'design', 3), version('2', 'preview', 2), version('1', 'deprecated', 9)]).version).toBe('3');
    expect(recommendedVersion([version('1', 'deprecated', 1), version('2', 'deprecated', 2), version('3', 'retired', 3)]).version).toBe('2');
    expect(recommendedVersion([version('1', 'retired', 1), version('2', 'retired', 2)]).version).toBe('2');
  });

  it('should send users of a deprecated version to the recommended one, only when that one is in use', () => {
    expect(moveToFor(version('1', 'deprecated'), version('2', 'production'))).toBe('2');
    expect(moveToFor(version('1', 'deprecated'), version('2', 'deprecated'))).toBeUndefined();
    expect(moveToFor(version('1', 'production'), version('2', 'production'))).toBeUndefined();
  });

  it('should list newest release first', () => {
    expect(inReleaseOrder([{ version: '1.9' }, { version: '1.10' }, { version: '1.10-beta' }]).map((item) => item.version)).toEqual([
      '1.10',
      '1.10-beta',
      '1.9',
    ]);
  });
});
