import { specInfo } from '../apps/web/src/spec-info.js';

describe('specInfo', () => {
  it('should read the title and version of a JSON spec', () => {
    expect(specInfo('{"openapi":"3.0.3","info":{"title":"Payments","version":"2.1.0"},"paths":{}}')).toEqual({ title: 'Payments', version: '2.1.0' });
    expect(specInfo('{"info":{"title":"Numbered","version":2}}')).toEqual({ title: 'Numbered', version: '2' });
    expect(specInfo('{"info": [broken')).toEqual({});
  });

  it('should read plain and quoted scalars of the top-level info block of a YAML spec', () => {
    const yaml = [
      'openapi: 3.0.3',
      'x-title: not this',
      'info:',
      '  # a comment',
      '  contact:',
      '    title: nor this',
      "  title: 'Pet''s store' # the name",
      '  version: 1.0.7',
      'paths: {}',
      'title: nor this either',
    ].join('\r\n');
    expect(specInfo(yaml)).toEqual({ title: "Pet's store", version: '1.0.7' });
    expect(specInfo('info:\n    "title": "Tab\\tand \\"quotes\\""\n    version: "3.1"\n')).toEqual({ title: 'Tab\tand "quotes"', version: '3.1' });
    // A version is text (#42): a YAML date or a number stays as written, for the upload form as for the CLI.
    expect(specInfo('openapi: 3.0.3\ninfo:\n  title: Dated\n  version: 2024-06-20\n').version).toBe('2024-06-20');
    expect(specInfo('openapi: 3.0.3\ninfo:\n  title: Decimal\n  version: 1.10\n').version).toBe('1.10');
  });

  it('should leave out what a one-line reader cannot be sure of', () => {
    expect(specInfo('info:\n  title: >\n    Folded\n  version: &v 1.0\n')).toEqual({ title: undefined, version: undefined });
    expect(specInfo('info: {title: Flow, version: 1}\n')).toEqual({});
    expect(specInfo('swagger: "2.0"\npaths: {}\n')).toEqual({});
    expect(specInfo('info:\n  title: "unclosed\n')).toEqual({ title: undefined });
  });
});

describe('specInfo of other kinds of spec', () => {
  it('should read the info block of an AsyncAPI document, in YAML or JSON', () => {
    const yaml = ['asyncapi: 3.0.0', 'info:', '  title: Account Service', "  version: '1.0.0'", '  description: Signs users up', 'channels: {}'].join('\n');
    expect(specInfo(yaml, 'account-service.yml')).toEqual({ title: 'Account Service', version: '1.0.0' });
    expect(specInfo('{"asyncapi":"2.6.0","info":{"title":"Streetlights","version":"1.0.0"},"channels":{}}')).toEqual({
      title: 'Streetlights',
      version: '1.0.0',
    });
  });

  it("should name a .proto file after its first service, with the package's version", () => {
    const proto = [
      '// service Commented { }',
      '/* package not.this.v9; */',
      'syntax = "proto3";',
      'package payments.v1;',
      'option go_package = "example.com/payments/v1;service Fake {";',
      'message RefundRequest { string id = 1; }',
      'service PaymentService {',
      '  rpc Refund(RefundRequest) returns (RefundRequest);',
      '}',
      'service Second {}',
    ].join('\n');
    expect(specInfo(proto, 'payments.proto')).toEqual({ title: 'PaymentService', version: 'v1' });
    // Pasted, without a file name: its syntax line says what it is.
    expect(specInfo(proto)).toEqual({ title: 'PaymentService', version: 'v1' });
    expect(specInfo('package acme.inventory.v2beta1;\nmessage Item {}\n', 'items.txt')).toEqual({ title: 'acme.inventory.v2beta1', version: 'v2beta1' });
    expect(specInfo('syntax = "proto2";\npackage shop;\nservice Orders {}', 'orders.proto')).toEqual({ title: 'Orders', version: undefined });
    // Nothing to go by but the file's name.
    expect(specInfo('syntax = "proto3";\nmessage Empty {}\n', 'empty.proto')).toEqual({ title: 'empty', version: undefined });
    // Without a syntax line or package, its top-level service says what it is.
    expect(specInfo('// Orders\nservice Orders {\n  rpc Get(Empty) returns (Empty);\n}\n', 'orders.proto')).toEqual({ title: 'Orders', version: undefined });
  });

  it('should name a GraphQL schema after its file', () => {
    const sdl = 'type Query {\n  "Look up a pull request"\n  pullRequest(id: ID!): PullRequest\n}\n';
    expect(specInfo(sdl, 'github.graphql')).toEqual({ title: 'github' });
    expect(specInfo(sdl, 'schema/Issues API.graphqls')).toEqual({ title: 'Issues API' });
    expect(specInfo('# info:\ntype Query { a: Int }', 'b.gql')).toEqual({ title: 'b' });
    expect(specInfo(sdl)).toEqual({});
  });

  it('should name a JSON or YAML spec without a title after its file, as before', () => {
    expect(specInfo('openapi: 3.0.3\npaths: {}\n', 'shop.yaml')).toEqual({ title: 'shop' });
    expect(specInfo('{"openapi":"3.0.3","info":{"version":"2"}}', 'parcels.json')).toEqual({ title: 'parcels', version: '2' });
    // A YAML document whose text merely mentions a package is not read as a .proto.
    expect(specInfo('info:\n  title: Packages\n  version: 1\ndescription: |\n  package x;\n', 'p.yaml')).toEqual({ title: 'Packages', version: '1' });
  });
});
