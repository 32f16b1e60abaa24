import { providedResource, requiredResources, withProviders } from './endpoint-dependencies.js';

describe(requiredResources.name, () => {
  it.each([
    ['/person/{person_id}/movie_credits', ['person']],
    ['/artists/{id}/albums', ['artist']],
    ['/webhooks/{webhookId}/logs', ['webhook']],
    ['/users/{user-id}/playlists', ['user']],
    ['/categories/{categoryId}/podcasts', ['category']],
    ['/repos/{owner}/{repo}/issues', ['owner', 'repo']],
    ['/tv/{tv_id}/season/{season_number}', ['tv', 'season']],
    ['/transactions/{key}/payments', ['transaction']],
    ['/apis/{apiId}/versions/{apiVersionId}', ['api', 'version']],
    ['/feeds/comments.{format}', []],
    ['/users/{id}.json', ['user']],
    ['/files/{file_id}:download', ['file']],
    ['/Accounts/{AccountSid}/Messages', ['account']],
    ['/{id}', []],
    ['/pets', []],
  ])('%s needs %p', (path, resources) => {
    expect(requiredResources(path)).toEqual(resources);
  });
});

describe(providedResource.name, () => {
  it.each([
    ['GET', '/search/person', 'person'],
    ['GET', '/me/playlists', 'playlist'],
    ['GET', '/hris/employees/', 'employee'],
    ['GET', '/people', 'person'],
    ['GET', '/me', 'user'],
    ['get', '/companies', 'company'],
    ['POST', '/playlists', undefined],
    ['GET', '/users/{user_id}/playlists', undefined],
    ['GET', '/', undefined],
    ['GET', '/users.json', 'user'],
    ['GET', '/orders?status=open', 'order'],
  ])('%s %s provides %p', (method, path, resource) => {
    expect(providedResource({ method, path })).toBe(resource);
  });
});

describe(withProviders.name, () => {
  const operation = (method: string, path: string) => ({ method, path });
  const paths = (operations: { method: string; path: string }[]) => operations.map((o) => `${o.method} ${o.path}`);

  it('should place the operation that finds an identifier right after the operation that needs it', () => {
    const ranked = [
      operation('PUT', '/playlists/{playlist_id}'),
      operation('POST', '/playlists/{playlist_id}/tracks'),
      operation('GET', '/search'),
      operation('GET', '/browse/categories'),
      operation('GET', '/me/playlists'),
    ];
    expect(paths(withProviders(ranked))).toEqual([
      'PUT /playlists/{playlist_id}',
      'GET /me/playlists',
      'POST /playlists/{playlist_id}/tracks',
      'GET /search',
      'GET /browse/categories',
    ]);
  });

  it('should find the caller for a user identifier, and each resource once', () => {
    const ranked = [
      operation('POST', '/users/{user_id}/playlists'),
      operation('GET', '/users/{user_id}/playlists'),
      operation('GET', '/search'),
      operation('GET', '/me'),
    ];
    expect(paths(withProviders(ranked))).toEqual(['POST /users/{user_id}/playlists', 'GET /me', 'GET /users/{user_id}/playlists', 'GET /search']);
  });

  it('should leave the order alone when the provider is already above, or there is none', () => {
    const above = [operation('GET', '/search/company'), operation('GET', '/company/{company_id}/images'), operation('GET', '/network/{network_id}')];
    expect(withProviders(above)).toEqual(above);
  });

  it('should place the providers of two identifiers in the order the path needs them', () => {
    const ranked = [operation('GET', '/repos/{owner}/{repo}/issues'), operation('POST', '/issues'), operation('GET', '/repos'), operation('GET', '/owners')];
    expect(paths(withProviders(ranked))).toEqual(['GET /repos/{owner}/{repo}/issues', 'GET /owners', 'GET /repos', 'POST /issues']);
  });

  it('should look up identifiers for the best two operations only', () => {
    const ranked = [operation('GET', '/tv/popular'), operation('POST', '/movies'), operation('GET', '/tv/{tv_id}/credits'), operation('GET', '/search/tv')];
    expect(withProviders(ranked)).toEqual(ranked);
  });
});
