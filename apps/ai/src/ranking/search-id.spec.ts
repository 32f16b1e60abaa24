import { newSearchId, searchIdTime } from './search-id.js';

describe(newSearchId.name, () => {
  it('should make a version 7 UUID of the RFC 9562 variant', () => {
    expect(newSearchId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('should carry the millisecond it was made, read back by searchIdTime', () => {
    const at = Date.parse('2026-12-05T12:34:56.789Z');
    expect(newSearchId(at).slice(0, 13)).toBe('01a24633-4c95');
    expect(searchIdTime(newSearchId(at))).toBe(at);
  });

  it('should never make the same id twice in the same millisecond', () => {
    const at = Date.now();
    expect(new Set(Array.from({ length: 1000 }, () => newSearchId(at))).size).toBe(1000);
  });
});

describe(searchIdTime.name, () => {
  it('should say nothing of an id that is not a UUIDv7', () => {
    expect(searchIdTime('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(searchIdTime('not-a-uuid')).toBeUndefined();
  });
});
