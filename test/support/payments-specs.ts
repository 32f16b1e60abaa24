/** Small OpenAPI documents of a Payments API, built as the versions tests need them. */

export type Operation = { summary: string; parameters?: object[]; requestBody?: object; responses?: object };

/** A document whose operations answer `200 OK` unless they say otherwise. */
export function openapi(title: string, version: string, paths: Record<string, Record<string, Operation>>): object {
  const withResponses = Object.fromEntries(
    Object.entries(paths).map(([path, operations]) => [
      path,
      Object.fromEntries(Object.entries(operations).map(([method, op]) => [method, { responses: { '200': { description: 'OK' } }, ...op }])),
    ]),
  );
  return { openapi: '3.0.3', info: { title, version, description: `${title}: take card payments and refunds` }, paths: withResponses };
}

export const payment = { type: 'object', required: ['id'], properties: { id: { type: 'string' }, amount: { type: 'integer' }, currency: { type: 'string' } } };
