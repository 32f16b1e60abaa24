import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LintFinding, LintReport } from '#contracts';
import { AsyncApiFormat } from '../formats/asyncapi/asyncapi.format.js';
import { OpenApiFormat } from '../formats/openapi/openapi.format.js';
import { defaultSpecFormats } from '../spec-formats.module.js';
import { isRefusal, type SpecRefusal } from '../spec-tasks.js';
import { lintOf } from './lint-spec.js';
import { spectralFindings } from './spectral-lint.js';

const formats = defaultSpecFormats();

describe(spectralFindings.name, () => {
  it('should skip the Spectral rules that fail on a spec, saying so, and report what the others find', async () => {
    // Valid OpenAPI 3.1 (a boolean schema), on which Spectral's `oasExample` throws.
    const spec = {
      openapi: '3.1.0',
      info: { title: 'x', version: '1' },
      paths: { '/a': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: true, example: 1 } } } } } } },
    };
    const report = lintReport(await lintOf(formats, { text: JSON.stringify(spec) }));
    expect(report.findings.filter((finding) => finding.code === 'spectral-rule-failed')).toEqual(
      ['oas3-valid-media-example', 'oas3-valid-schema-example'].map((rule) => ({
        code: 'spectral-rule-failed',
        severity: 'info',
        message: `Spectral's rule ${rule} could not check this spec and was skipped (Function "oasExample" threw an exception)`,
        path: '',
      })),
    );
    expect(report.findings).toContainEqual(expect.objectContaining({ code: 'operation-description', operation: 'GET /a' }));
  });

  it('should not check examples against their schemas past 250 of them, and say so', async () => {
    const paths = Object.fromEntries(
      Array.from({ length: 126 }, (_, index) => [
        `/items${index}`,
        {
          get: {
            parameters: [{ name: 'q', in: 'query', schema: { type: 'integer' }, example: 'x' }],
            responses: { 200: { description: 'ok', content: { 'text/plain': { schema: { type: 'integer' }, example: 'y' } } } },
          },
        },
      ]),
    );
    const report = lintReport(await lintOf(formats, { text: JSON.stringify({ openapi: '3.0.3', info: { title: 'Examples', version: '1' }, paths }) }));
    expect(report.findings).toContainEqual({
      code: 'spectral-examples-skipped',
      severity: 'info',
      message: 'The spec has more than 250 examples: they were not checked against their schemas (oas3-valid-media-example, oas3-valid-schema-example)',
      path: '',
    });
    expect(report.findings.filter((finding) => finding.code.startsWith('oas3-valid'))).toEqual([]);
  });

  it('should lint keys such as __proto__ as data, polluting no prototype', async () => {
    const spec = `{"openapi": "3.0.3", "info": {"title": "x", "version": "1", "__proto__": {"polluted": "yes"}},
      "paths": {"/a": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
        "schema": {"type": "object", "properties": {"__proto__": {"type": "string", "example": 1}, "constructor": {"type": "string"}}}}}}}}}}}`;
    lintReport(await lintOf(formats, { text: spec }));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('Spectral in the OpenAPI and AsyncAPI formats', () => {
  let server: Server;
  let requests: string[];
  let canaryUrl: string;
  let folder: string;
  let canaryFile: string;

  beforeAll(async () => {
    requests = [];
    server = createServer((request, response) => {
      requests.push(request.url ?? '');
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ type: 'object', description: 'fetched' }));
    });
    // Loopback only: the canary must never be reachable from elsewhere.
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    canaryUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/canary.json`;
    folder = mkdtempSync(join(tmpdir(), 'lint-canary-'));
    canaryFile = join(folder, 'path-item.json');
    // Read, it would be an operation with a tag the spec does not declare: the one cause of an
    // `operation-tag-defined` finding in `refsOutside()`, whose own operations use declared tags.
    writeFileSync(canaryFile, JSON.stringify({ get: { tags: ['canary-tag-from-file'], responses: { 200: { description: 'ok' } } } }));
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  beforeEach(() => {
    requests.length = 0;
  });

  /** A petstore whose `$ref`s point at the canary server and the canary file, where `read` would refuse them but Spectral would follow them. */
  function refsOutside(): Record<string, unknown> {
    return {
      openapi: '3.0.3',
      info: { title: 'Canary', version: '1' },
      tags: [{ name: 'pets' }],
      paths: {
        '/remote': { $ref: canaryUrl },
        '/from-file': { $ref: canaryFile },
        '/from-file-url': { $ref: pathToFileURL(canaryFile).href },
        '/pets': {
          get: {
            tags: ['pets'],
            responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: `${canaryUrl}#/Pet` } } } } },
          },
        },
      },
    };
  }

  it('should fetch no $ref a registered spec names in a vendor extension (which reading lets through)', async () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 'Canary', version: '1' },
      paths: { '/pets': { get: { responses: { 200: { description: 'ok' } } } } },
      'x-canary': { $ref: canaryUrl },
      'x-file': { $ref: canaryFile },
    };
    const report = lintReport(await lintOf(formats, { text: JSON.stringify(document) }));
    expect(requests).toEqual([]);
    expect(report.findings).toContainEqual(expect.objectContaining({ code: 'invalid-ref', severity: 'error', path: 'x-canary.$ref' }));
  });

  it('should neither fetch nor read the $refs an OpenAPI document points outside itself with', async () => {
    const format = new OpenApiFormat();
    const findings = await format.lint({ kind: 'openapi', format: 'OpenAPI 3.0.3', document: { document: refsOutside(), flavor: 'openapi-3.0' } });
    expect(requests).toEqual([]);
    expect(fromFile(findings)).toEqual([]);
    // One finding for each document named (the URL and its `#/Pet`, the file by path and by URL, are one each).
    expect(findings.filter((finding) => finding.code === 'invalid-ref').map((finding) => finding.path)).toEqual(
      expect.arrayContaining(['paths./remote.$ref', 'paths./from-file.$ref']),
    );
  });

  it('should not fetch the $refs an AsyncAPI document points outside itself with', async () => {
    const document = {
      asyncapi: '2.6.0',
      info: { title: 'Canary', version: '1' },
      channels: { 'user/signedup': { subscribe: { message: { payload: { $ref: canaryUrl } } } }, 'user/left': { $ref: canaryFile } },
    };
    const findings = await new AsyncApiFormat().lint({ kind: 'asyncapi', format: 'AsyncAPI 2.6.0', document });
    expect(requests).toEqual([]);
    expect(findings).toContainEqual(
      expect.objectContaining({ code: 'invalid-ref', path: 'channels.user/signedup.subscribe.message.payload.$ref', operation: 'SUBSCRIBE user/signedup' }),
    );
  });

  // The canaries work: Spectral as it comes fetches the URL and reads the file.
  it("should see the canaries taken with Spectral's default resolver", async () => {
    const [{ default: core }, { default: rulesets }] = await Promise.all([import('@stoplight/spectral-core'), import('@stoplight/spectral-rulesets')]);
    const spectral = new core.Spectral();
    spectral.setRuleset({ extends: [[rulesets.oas as never, 'recommended']] });
    const results = await spectral.run(JSON.stringify(refsOutside()));
    expect(requests.length).toBeGreaterThan(0);
    expect(fromFile(results.map((result) => ({ code: String(result.code), path: result.path.join('.') })))).not.toEqual([]);
  });
});

function lintReport(result: LintReport | SpecRefusal): LintReport {
  if (isRefusal(result)) throw new Error(`Refused: ${result.refused}`);
  return result;
}

/** What Spectral reports only when it has read the canary file: its operation's undeclared tag, or anything inside it. */
function fromFile<T extends Pick<LintFinding, 'code' | 'path'>>(findings: T[]): T[] {
  return findings.filter((finding) => finding.code === 'operation-tag-defined' || /^paths\.\/from-file(-url)?\.get/.test(finding.path));
}
