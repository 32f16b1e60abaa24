import { DEFAULT_BODY_LIMIT_BYTES, gatewayBodyLimits } from './gateway-body-limits.js';

describe(gatewayBodyLimits.name, () => {
  const SPEC_LIMIT = 12_648_448;
  const { limitOf } = gatewayBodyLimits(SPEC_LIMIT);
  const of = (method: string, path: string) => limitOf({ method, path });

  it('should give the spec-sized limit to the routes that carry a spec, in any case and with a final slash', () => {
    expect([
      of('POST', '/api-management/apis'),
      of('POST', '/api-management/apis/'),
      of('PUT', '/api-management/apis/0b4c1a52-5f7e-4a8c-9d4e-1f2a3b4c5d6e'),
      of('POST', '/api-management/apis/0b4c1a52/versions'),
      of('PUT', '/api-management/apis/0b4c1a52/versions/2.0.0'),
      of('PUT', '/API-Management/APIs/0b4c1a52/versions/v%2F2'),
    ]).toEqual(Array(6).fill(SPEC_LIMIT));
  });

  it('should give every other route a small limit, the unknown ones too', () => {
    expect(of('POST', '/api-management/ai/feedback')).toBe(DEFAULT_BODY_LIMIT_BYTES);
    expect(of('POST', '/api-management/apis/import')).toBe(DEFAULT_BODY_LIMIT_BYTES);
    expect(of('POST', '/api-management/apis/0b4c1a52/refresh')).toBe(DEFAULT_BODY_LIMIT_BYTES);
    expect(of('PATCH', '/api-management/apis/0b4c1a52')).toBe(DEFAULT_BODY_LIMIT_BYTES);
    expect(of('PATCH', '/api-management/apis/0b4c1a52/versions/1')).toBe(DEFAULT_BODY_LIMIT_BYTES);
    expect(of('POST', '/auth/dev-token')).toBe(DEFAULT_BODY_LIMIT_BYTES);
    expect(of('POST', '/api-management/apis/0b4c1a52/versions/1/extra')).toBe(DEFAULT_BODY_LIMIT_BYTES);
    expect(of('POST', '/nowhere')).toBe(DEFAULT_BODY_LIMIT_BYTES);
    expect(of('POST', '/api-management/ai/search')).toBe(128 * 1024);
    expect(of('POST', '/mcp')).toBe(128 * 1024);
    expect(of('POST', '/api-management/ai/admin/reindex')).toBe(512 * 1024);
  });
});
