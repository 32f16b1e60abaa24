import { registeredSpec, specTextFormat } from './registered-spec.js';

describe('registeredSpec', () => {
  it('should tell JSON from YAML as registration does', () => {
    expect(specTextFormat('  \n{"openapi":"3.0.3"}')).toBe('json');
    expect(specTextFormat('\uFEFF{"openapi":"3.0.3"}')).toBe('json');
    expect(specTextFormat('openapi: 3.0.3\ninfo: {title: x}')).toBe('yaml');
    expect(specTextFormat('# {not json}\nopenapi: 3.0.3')).toBe('yaml');
  });

  it('should name the file after the API in characters any header and file system take', () => {
    expect(registeredSpec({ name: 'Payments API', version: '2.1.0', spec: '{}' }).fileName).toBe('Payments-API-2.1.0.json');
    expect(registeredSpec({ name: '../../etc/"passwd"\r\n', version: 'v1 beta', spec: 'openapi: 3.0.3' }).fileName).toBe('etc-passwd-v1-beta.yaml');
    expect(registeredSpec({ name: 'Café Ünïcode', version: '1', spec: '{}' }).fileName).toBe('Cafe-Unicode-1.json');
    expect(registeredSpec({ name: '日本', version: '***', spec: '{}' }).fileName).toBe('spec.json');
  });
});
