import { describe, expect, it } from '@jest/globals';
import { defaultSpecFormats } from './spec-formats.module.js';
import { checkRegistration } from './spec-tasks.js';
import { parseWritten, writtenInfo } from './written-info.js';

const openApi = (info: string) => `openapi: 3.0.3\ninfo:\n${info}\npaths: {}\n`;

describe(writtenInfo.name, () => {
  it('should keep a YAML date or number version as written', () => {
    expect(writtenInfo(openApi('  title: Orders\n  version: 2024-06-20'))).toEqual({ title: 'Orders', version: '2024-06-20' });
    expect(writtenInfo(openApi('  title: Orders\n  version: 1.10'))).toEqual({ title: 'Orders', version: '1.10' });
  });

  it('should read a quoted version and trim the title', () => {
    expect(writtenInfo(openApi('  title: "  Orders API "\n  version: "1.10"'))).toEqual({ title: 'Orders API', version: '1.10' });
  });

  it('should read JSON, a number version as String(n)', () => {
    expect(writtenInfo('{"openapi": "3.0.3", "info": {"title": "Pets", "version": 2}}')).toEqual({ title: 'Pets', version: '2' });
    expect(writtenInfo('{"openapi": "3.0.3", "info": {"title": "Pets", "version": "1.10"}}')).toEqual({ title: 'Pets', version: '1.10' });
  });

  it('should give nothing for a text that is neither JSON nor YAML, or names nothing', () => {
    expect(writtenInfo('{"info": {')).toEqual({});
    expect(writtenInfo('type Query { a: String }')).toEqual({});
    expect(writtenInfo(openApi('  title: [a, b]\n  version: ""'))).toEqual({});
  });
});

describe(parseWritten.name, () => {
  const formats = defaultSpecFormats();

  it.each([
    ['OpenAPI', 'openapi: 3.0.3\ninfo: {title: A, version: 1.0}\npaths: {}\n'],
    ['Swagger', 'swagger: 2.0\ninfo: {title: A}\npaths: {}\n'],
    ['AsyncAPI', 'asyncapi: 3.0.0\ninfo: {title: A, version: 1.0.0}\n'],
    ['an empty tools list', 'tools: []\n'],
    ['a tools list', 'tools:\n  - name: read_file\n    inputSchema: {type: object}\n'],
  ])('should leave %s recognisable to the formats markers', (_, text) => {
    expect(formats.marked(parseWritten(text))).toBe(true);
  });

  it('should not mark a document no format names', () => {
    expect(formats.marked(parseWritten('name: left-pad\nversion: 1.3.0\n'))).toBe(false);
  });
});

describe(checkRegistration.name, () => {
  const formats = defaultSpecFormats();
  const check = (spec: string) => checkRegistration(formats, { spec, maxBytes: 1024 * 1024 });

  it('should keep a YAML date or number version as written', () => {
    expect(check(openApi('  title: Orders\n  version: 2024-06-20'))).toMatchObject({ kind: 'openapi', title: 'Orders', version: '2024-06-20' });
    expect(check(openApi('  title: Orders\n  version: 1.10'))).toMatchObject({ kind: 'openapi', title: 'Orders', version: '1.10' });
  });

  it('should keep a quoted version, and read a JSON number version', () => {
    expect(check(openApi('  title: Orders\n  version: "1.10"'))).toMatchObject({ version: '1.10' });
    expect(check('{"openapi": "3.0.3", "info": {"title": "Pets", "version": 2}, "paths": {}}')).toMatchObject({ title: 'Pets', version: '2' });
  });
});
