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
  });

  it('should leave out what a one-line reader cannot be sure of', () => {
    expect(specInfo('info:\n  title: >\n    Folded\n  version: &v 1.0\n')).toEqual({ title: undefined, version: undefined });
    expect(specInfo('info: {title: Flow, version: 1}\n')).toEqual({});
    expect(specInfo('swagger: "2.0"\npaths: {}\n')).toEqual({});
    expect(specInfo('info:\n  title: "unclosed\n')).toEqual({ title: undefined });
  });
});
