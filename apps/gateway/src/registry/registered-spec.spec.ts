import { defaultSpecFormats } from '#api-specs';
import { registeredSpec } from './registered-spec.js';

const formats = defaultSpecFormats();
const openapi = (name: string, version: string, spec: string) => registeredSpec({ name, version, spec, kind: 'openapi' }, formats);

describe('registeredSpec', () => {
  it('should tell JSON from YAML as registration does', () => {
    expect(openapi('A', '1', '  \n{"openapi":"3.0.3"}').type).toEqual({ extension: 'json', mediaType: 'application/json' });
    expect(openapi('A', '1', '\uFEFF{"openapi":"3.0.3"}').type.extension).toBe('json');
    expect(openapi('A', '1', 'openapi: 3.0.3\ninfo: {title: x}').type).toEqual({ extension: 'yaml', mediaType: 'application/yaml' });
    expect(openapi('A', '1', '# {not json}\nopenapi: 3.0.3').type.extension).toBe('yaml');
  });

  it('should serve a kind this build does not know as plain text', () => {
    expect(registeredSpec({ name: 'Old', version: '1', spec: 'x', kind: 'wsdl' }, formats)).toMatchObject({
      type: { mediaType: 'text/plain' },
      fileName: 'Old-1.txt',
    });
  });

  it('should name the file after the API in characters any header and file system take', () => {
    expect(openapi('Payments API', '2.1.0', '{}').fileName).toBe('Payments-API-2.1.0.json');
    expect(openapi('../../etc/"passwd"\r\n', 'v1 beta', 'openapi: 3.0.3').fileName).toBe('etc-passwd-v1-beta.yaml');
    expect(openapi('Café Ünïcode', '1', '{}').fileName).toBe('Cafe-Unicode-1.json');
    expect(openapi('日本', '***', '{}').fileName).toBe('spec.json');
  });
});
