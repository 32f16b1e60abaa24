import { expandAbbreviations } from './query-normalizer.js';

describe(expandAbbreviations.name, () => {
  it('should spell out abbreviations beside them, whatever their case', () => {
    expect(expandAbbreviations('send SMS otp')).toBe('send SMS (text message) otp (one-time password verification code)');
    expect(expandAbbreviations('backup my db')).toBe('backup my db (database)');
  });

  it('should leave ordinary words and words that merely contain an abbreviation alone', () => {
    expect(expandAbbreviations('dbase imaging information')).toBe('dbase imaging information');
  });
});
