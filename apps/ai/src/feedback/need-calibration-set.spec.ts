import { NEED_CALIBRATION_SET } from './need-calibration-set.js';

describe('NEED_CALIBRATION_SET', () => {
  it('should have unique domains of at least four needs each', () => {
    const domains = NEED_CALIBRATION_SET.map(({ domain }) => domain);
    expect(new Set(domains).size).toBe(domains.length);
    for (const { domain, needs } of NEED_CALIBRATION_SET) {
      expect(domain.trim()).not.toBe('');
      expect({ domain, needs: needs.length >= 4 }).toEqual({ domain, needs: true });
    }
  });

  it('should phrase every need exactly three different ways, none of them empty', () => {
    for (const { domain, needs } of NEED_CALIBRATION_SET) {
      for (const phrasings of needs) {
        expect({ domain, phrasings, count: phrasings.length }).toEqual({ domain, phrasings, count: 3 });
        expect(phrasings.every((phrasing) => phrasing.trim() !== '')).toBe(true);
        expect(new Set(phrasings.map((phrasing) => phrasing.trim().toLowerCase())).size).toBe(3);
      }
    }
  });

  it('should use no phrasing twice in the whole set', () => {
    const phrasings = NEED_CALIBRATION_SET.flatMap(({ needs }) => needs.flat()).map((phrasing) => phrasing.trim().toLowerCase());
    const repeated = phrasings.filter((phrasing, index) => phrasings.indexOf(phrasing) !== index);
    expect(repeated).toEqual([]);
  });
});
