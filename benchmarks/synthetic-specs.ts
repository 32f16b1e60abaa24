/**
 * Made-up specs for measurements and their tests: a large OpenAPI document whose lint takes
 * seconds to a minute and a small one (fair share: `bench-fairness.ts`,
 * `test/spec-fairness.e2e.spec.ts`), and one of a given size (URL imports: `bench-imports.ts`,
 * `test/import-bounds.e2e.spec.ts`).
 */

/**
 * `operations` operations that all read one shared schema of `fields` fields: Spectral resolves
 * the `$ref` at every use and checks each copy, so its lint grows with both (2,000 × 50: 580 kB,
 * linted in about 16 s on a quiet core; a change report with another version of it, about 2 s).
 */
export function heavyOpenApi(version: string, operations = 2000, fields = 50): object {
  const properties: Record<string, object> = {};
  const example: Record<string, string> = {};
  for (let field = 0; field < fields; field += 1) {
    properties[`field${field}`] = { type: 'string', description: `Field ${field}` };
    example[`field${field}`] = `value ${field}`;
  }
  const content = { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } };
  const paths: Record<string, object> = {};
  for (let index = 0; index < operations; index += 1) {
    const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
    paths[`/things${index}/{id}`] = {
      get: { operationId: `getThing${index}`, summary: `Read thing ${index}`, parameters: [id], responses: { '200': { description: 'The thing', content } } },
    };
  }
  return { openapi: '3.0.3', info: { title: 'Warehouse', version }, paths, components: { schemas: { Thing: { type: 'object', properties, example } } } };
}

/** Two operations; `withDelete` adds a third (so that versions differ). */
export function smallOpenApi(version: string, withDelete = false): object {
  const ok = { '200': { description: 'OK' } };
  const item: Record<string, object> = { get: { operationId: 'getNote', summary: 'Read a note', responses: ok } };
  if (withDelete) item.delete = { operationId: 'deleteNote', summary: 'Delete a note', responses: ok };
  return {
    openapi: '3.0.3',
    info: { title: 'Notes', version },
    paths: { '/notes': { get: { operationId: 'listNotes', summary: 'List notes', responses: ok } }, '/notes/{id}': item },
  };
}

/** An OpenAPI document of about `bytes`, in operations with long descriptions, as real large specs are. */
export function largeSpec(bytes: number): string {
  const description = 'Lists the items of one warehouse, page by page, with their stock and reservations. '.repeat(40);
  const operation = (i: number) => ({ get: { summary: `Items of warehouse ${i}`, description, responses: { '200': { description: 'OK' } } } });
  const count = Math.floor(bytes / JSON.stringify({ '/warehouses/0000/items': operation(1000) }).length);
  const paths = Object.fromEntries(Array.from({ length: count }, (_, i) => [`/warehouses/${i}/items`, operation(i)]));
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Warehouses', version: '1' }, paths });
}
