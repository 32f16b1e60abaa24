import { route, routeUrl } from './route.js';

describe('routeUrl', () => {
  const versionChanges = route<unknown>()('GET', '/apis/:apiId/versions/:version/changes');

  it('fills each path parameter, URL-encoded', () => {
    expect(routeUrl(versionChanges, { apiId: 'a b', version: '1.0/beta' })).toBe('/apis/a%20b/versions/1.0%2Fbeta/changes');
  });

  it('appends the query, repeating a list and leaving undefined values out', () => {
    const list = route<unknown>()('GET', '/apis');
    expect(routeUrl(list, {}, { orgId: 'payments', tag: ['a', 'b'], page: 2, label: undefined })).toBe('/apis?orgId=payments&tag=a&tag=b&page=2');
  });

  it("passes a caller's query on as it came: its keys, their order and repeats", () => {
    const list = route<unknown>()('GET', '/apis/:apiId/operations');
    const query = new URLSearchParams('path=/pet/{petId}&method=get&method=post&note=a+b');
    expect(routeUrl(list, { apiId: 'x' }, query)).toBe('/apis/x/operations?path=%2Fpet%2F%7BpetId%7D&method=get&method=post&note=a+b');
    expect(routeUrl(list, { apiId: 'x' }, new URLSearchParams())).toBe('/apis/x/operations');
  });

  it('refuses a missing parameter rather than calling a wrong path', () => {
    expect(() => routeUrl(versionChanges, { apiId: 'x' } as never)).toThrow('no value for :version');
  });
});
