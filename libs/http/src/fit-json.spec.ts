import { fitJson } from './fit-json.js';

describe(fitJson.name, () => {
  it('should leave an answer that fits as it is, with no cuts', () => {
    const answer = {
      servers: [{ url: 'https://api.example.com/v1' }],
      operations: Array.from({ length: 3000 }, (_, i) => ({ method: 'GET', path: `/items/${i}` })),
    };
    const { value, cuts } = fitJson(answer, 1_000_000, { items: 5000 });
    expect(value).toEqual(answer);
    expect(cuts).toEqual([]);
  });

  it('should cut a 2 MB server URL and 50,000 scopes to fit, keeping every field in place and its type', () => {
    const answer = {
      servers: [{ url: `https://${'a'.repeat(2 * 1024 * 1024)}.example.com` }],
      securitySchemes: [
        {
          name: 'oauth',
          type: 'oauth2',
          flows: [{ flow: 'implicit', scopes: Array.from({ length: 50_000 }, (_, i) => ({ name: `scope:${i}`, description: 'x'.repeat(200) })) }],
        },
      ],
    };
    const { value, cuts } = fitJson(answer, 50_000);
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(50_000);
    expect(typeof value.servers[0].url).toBe('string');
    expect(value.servers[0].url.endsWith('…')).toBe(true);
    expect(value.securitySchemes[0].flows[0].scopes.length).toBeGreaterThan(0);
    expect(value.securitySchemes[0].flows[0].scopes[0]).toMatchObject({ name: 'scope:0' });
    expect(cuts.join('\n')).toMatch(/^servers\[0\]\.url: [\d,]+ of 2,097,\d+ characters$/m);
    expect(cuts.join('\n')).toMatch(/securitySchemes\[0\]\.flows\[0\]\.scopes: [\d,]+ of 50,000 items/);
  });

  it('should name a few cuts and count the rest', () => {
    const answer = Array.from({ length: 20 }, () => 'y'.repeat(20_000));
    const { cuts } = fitJson(answer, 1_000_000);
    expect(cuts).toHaveLength(6);
    expect(cuts[5]).toBe('and 15 more cuts');
  });

  it('should bound an answer whose lists share one huge object many times (aliases)', () => {
    const shared = { enum: Array.from({ length: 1000 }, () => 'z'.repeat(1000)) };
    const answer = { variables: Array.from({ length: 1000 }, () => shared) };
    const started = Date.now();
    const { value } = fitJson(answer, 100_000);
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(100_000);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('should cut a huge key and leave undefined fields out, as JSON would', () => {
    const { value } = fitJson({ ['k'.repeat(50_000)]: 1, gone: undefined }, 20_000);
    const keys = Object.keys(value);
    expect(keys).toHaveLength(1);
    expect(keys[0].length).toBeLessThanOrEqual(10_000);
  });
});
