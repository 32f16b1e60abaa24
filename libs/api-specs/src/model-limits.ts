import { SEARCH_LIMITS, type ApiModel, type ApiModelOperation } from '#contracts';
import { truncate } from './clean-text.js';

/**
 * What of a model goes into the index, whatever the document held: names, addresses and lists
 * beyond anything a real API writes are cut (a 2 MB server URL, 50,000 tags), since the index,
 * its cards and facets only ever show them. Texts that are cut where they are used (descriptions,
 * summaries) are left to that.
 */
export const MODEL_LIMITS = {
  /** Identifiers: operationIds, schema, field, parameter and scheme names. */
  nameChars: 200,
  /** Paths, channels and server URLs: an MCP client names an operation by a path of at most this many. */
  addressChars: 2000,
  servers: 20,
  securitySchemes: 50,
  /** Tags of the API, and of one operation (Magento's API has 363). */
  tags: 1000,
  /** Inputs, body fields and output lines of one operation, and fields of one schema (DocuSign has a schema of 674 fields). */
  parts: 1000,
} as const;

/** The model within MODEL_LIMITS. A tag longer than a search filter may name cannot be filtered on: it is left out. */
export function boundModel(model: ApiModel): ApiModel {
  const name = (text: string) => truncate(text, MODEL_LIMITS.nameChars);
  const address = (text: string) => truncate(text, MODEL_LIMITS.addressChars);
  return {
    ...model,
    servers: model.servers.slice(0, MODEL_LIMITS.servers).map(address),
    securitySchemes: model.securitySchemes
      .slice(0, MODEL_LIMITS.securitySchemes)
      .map((scheme) => ({ ...scheme, name: name(scheme.name), ...(scheme.type ? { type: name(scheme.type) } : {}) })),
    tags: model.tags.filter((tag) => usableTag(tag.name)).slice(0, MODEL_LIMITS.tags),
    operations: model.operations.map((operation) => boundOperation(operation, name, address)),
    schemas: model.schemas.map((schema) => ({
      ...schema,
      name: name(schema.name),
      fields: schema.fields.slice(0, MODEL_LIMITS.parts).map((field) => ({ ...field, name: name(field.name) })),
    })),
  };
}

function boundOperation(operation: ApiModelOperation, name: (text: string) => string, address: (text: string) => string): ApiModelOperation {
  const { body, outputs } = operation;
  return {
    ...operation,
    method: name(operation.method),
    path: address(operation.path),
    ...(operation.operationId !== undefined ? { operationId: name(operation.operationId) } : {}),
    tags: operation.tags.filter(usableTag).slice(0, MODEL_LIMITS.tags),
    inputs: operation.inputs.slice(0, MODEL_LIMITS.parts).map((input) => ({ ...input, name: name(input.name), in: name(input.in) })),
    ...(body ? { body: { label: name(body.label), fields: body.fields.slice(0, MODEL_LIMITS.parts).map(name) } } : {}),
    ...(outputs ? { outputs: { label: name(outputs.label), lines: outputs.lines.slice(0, MODEL_LIMITS.parts).map(address) } } : {}),
  };
}

function usableTag(tag: string): boolean {
  return tag.length <= SEARCH_LIMITS.tagMaxChars;
}
