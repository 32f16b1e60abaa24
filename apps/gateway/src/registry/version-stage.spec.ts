import { BadRequestException } from '@nestjs/common';
import { nextStage } from './version-stage.js';

describe(nextStage.name, () => {
  const deprecated = { lifecycle: 'deprecated' as const, sunsetDate: '2027-06-30' };
  const production = { lifecycle: 'production' as const, sunsetDate: null };

  it('should retire a deprecated version with a sunset date in one step, clearing the date', () => {
    expect(nextStage(deprecated, { lifecycle: 'retired' })).toEqual({ lifecycle: 'retired', sunsetDate: null });
    expect(nextStage(deprecated, { lifecycle: 'retired', sunsetDate: null })).toEqual({ lifecycle: 'retired', sunsetDate: null });
  });

  it('should clear the sunset date of a version that goes back to production', () => {
    expect(nextStage(deprecated, { lifecycle: 'production' })).toEqual({ lifecycle: 'production', sunsetDate: null });
  });

  it('should keep, change or clear the sunset date of a version that stays deprecated', () => {
    expect(nextStage(deprecated, {})).toEqual(deprecated);
    expect(nextStage(deprecated, { sunsetDate: '2027-12-31' })).toEqual({ lifecycle: 'deprecated', sunsetDate: '2027-12-31' });
    expect(nextStage(deprecated, { sunsetDate: null })).toEqual({ lifecycle: 'deprecated', sunsetDate: null });
    expect(nextStage(production, { lifecycle: 'deprecated', sunsetDate: '2027-01-31' })).toEqual({ lifecycle: 'deprecated', sunsetDate: '2027-01-31' });
  });

  it('should refuse a sunset date for a version that is not deprecated', () => {
    expect(() => nextStage(production, { sunsetDate: '2027-06-30' })).toThrow(BadRequestException);
    expect(() => nextStage(production, { sunsetDate: '2027-06-30' })).toThrow('set lifecycle to "deprecated" with it');
    expect(() => nextStage(deprecated, { lifecycle: 'retired', sunsetDate: '2027-06-30' })).toThrow('a retired version has none');
  });
});
