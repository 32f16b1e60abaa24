import type { OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { LABEL_LIMITS, TREE_IMPORT_LIMITS } from '#contracts';
// The gateway forwards these bodies as they come: the AI app's validators are what checks them.
import { InternalFeedbackDto, SearchFiltersDto, SearchRequestDto } from '#dtos';
import { CONTRACT_SCHEMAS } from './contract-schemas.generated.js';
import type { SchemaObject } from './contract-shapes.js';
import { type Note, SCHEMA_NOTES } from './openapi-notes.js';

/*
 * Where each schema of the gateway's document comes from, in one place:
 * - a request body the gateway validates: its class-validator DTO (Nest names the schema after
 *   the class), whose validators' limits replace what its `@ApiProperty` says;
 * - a request body the gateway forwards to the AI app: that app's DTO (`FORWARDED`);
 * - a query parameter: Nest's, with the limits of its `@Query()` DTO (`derived-parameters.ts`);
 * - a response: its contract type (`contract-shapes.ts`, generated into `CONTRACT_SCHEMAS`).
 * `openapi-notes.ts` adds the words. The controllers name the schemas by the marker classes of
 * `openapi-models.ts`, which hold no shape.
 */

/** Forwarded bodies: the validator's class, and the fields the gateway sets itself or that are internal. */
const FORWARDED: Record<string, { dto: string; omit?: string[] }> = {
  SearchRequestDoc: { dto: SearchRequestDto.name, omit: ['mode'] },
  SearchFiltersDoc: { dto: SearchFiltersDto.name },
  FeedbackRequestDoc: { dto: InternalFeedbackDto.name, omit: ['person', 'orgIds'] },
  // Not exported: `InternalFeedbackDto.operation` nests it.
  FeedbackOperationDoc: { dto: 'FeedbackOperationDto' },
};
const FORWARDED_DTOS: Function[] = [SearchRequestDto, InternalFeedbackDto];
/** What `@ApiProperty` leaves on a class (`DECORATORS.API_MODEL_PROPERTIES_ARRAY`, not exported by @nestjs/swagger). */
const SWAGGER_PROPERTIES = 'swagger/apiModelPropertiesArray';

/** What a validator limits, as JSON Schema says it: the keywords a documented request schema must carry. */
export const LIMIT_KEYWORDS = ['maxLength', 'minLength', 'maxItems', 'minItems', 'minimum', 'maximum', 'pattern', 'enum', 'maxProperties', 'format'];

type Json = Record<string, unknown>;
const BUILT_IN_TYPES = new Set(['Array', 'Object', 'String', 'Number', 'Boolean']);
type Schemas = Record<string, SchemaObject>;

/** Validators of this repository's own, which class-validator-jsonschema cannot read. */
const CUSTOM_VALIDATORS: Record<string, Json> = {
  isLabels: {
    type: 'object',
    additionalProperties: { type: 'string', minLength: LABEL_LIMITS.valueMinChars, maxLength: LABEL_LIMITS.valueMaxChars },
    maxProperties: LABEL_LIMITS.maxLabels,
  },
  isSpecInput: { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }] },
  isSpecTexts: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: TREE_IMPORT_LIMITS.maxSpecsPerCall },
};

/** The validators of the document's request bodies, as JSON Schema by schema name, refs named as the document names them. */
export function validatorSchemas(): Schemas {
  const schemas = validationMetadatasToSchemas({
    classValidatorMetadataStorage: documentedValidators(),
    refPointerPrefix: '#/components/schemas/',
    additionalConverters: CUSTOM_VALIDATORS,
  });
  const docName = new Map(Object.entries(FORWARDED).map(([name, { dto }]) => [dto, name]));
  const renamed = JSON.parse(JSON.stringify(schemas), (_key, value: unknown) => {
    if (!value || typeof value !== 'object' || typeof (value as Json).$ref !== 'string') return value;
    const { $ref, ...rest } = value as Json;
    const name = ($ref as string).replace('#/components/schemas/', '');
    // A validator it cannot read yields a $ref to the property's type (`Array`), beside what the other validators say.
    if (BUILT_IN_TYPES.has(name)) return rest;
    // Beside a nested DTO's $ref it writes `type: 'object'`, which OpenAPI 3.0 ignores.
    return { $ref: `#/components/schemas/${docName.get(name) ?? name}` };
  }) as Schemas;
  for (const [name, { dto, omit = [] }] of Object.entries(FORWARDED)) {
    const { properties = {}, required = [], ...rest } = renamed[dto];
    renamed[name] = {
      ...rest,
      properties: Object.fromEntries(Object.entries(properties).filter(([field]) => !omit.includes(field))),
      ...(required.some((field) => !omit.includes(field)) ? { required: required.filter((field) => !omit.includes(field)) } : {}),
    };
  }
  return renamed;
}

/**
 * class-validator's store, seen through to the DTOs of the gateway's document: classes it documents
 * (with `@ApiProperty`), and the forwarded ones with the classes they nest. A test process that
 * loads both apps has two `ReindexRequestDto`s, and schemas are named by class name.
 */
function documentedValidators(): ReturnType<typeof getMetadataStorage> {
  const storage = getMetadataStorage();
  const all = (storage as unknown as { validationMetadatas: Map<Function, { type: string; propertyName: string }[]> }).validationMetadatas;
  const documented = new Set([...all.keys()].filter((target) => Reflect.hasMetadata(SWAGGER_PROPERTIES, target.prototype)));
  const nest = (target: Function): void => {
    if (documented.has(target)) return;
    documented.add(target);
    for (const meta of all.get(target) ?? []) {
      if (meta.type === 'nestedValidation') nest(Reflect.getMetadata('design:type', target.prototype, meta.propertyName) as Function);
    }
  };
  FORWARDED_DTOS.forEach(nest);
  const validationMetadatas = new Map([...all].filter(([target]) => documented.has(target)));
  return Object.assign(Object.create(storage) as object, { validationMetadatas }) as unknown as typeof storage;
}

/** Puts the derived schema of every component in place of what Nest made of its class, and adds those they refer to. */
export function deriveSchemas(document: OpenAPIObject, validated: Schemas): void {
  const schemas = ((document.components ??= {}).schemas ??= {});
  const pending = Object.keys(schemas);
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    const derived = derivedSchema(name, schemas[name] as SchemaObject, validated);
    schemas[name] = withNotes(derived, SCHEMA_NOTES[name] ?? {}, name);
    for (const ref of JSON.stringify(derived).matchAll(/"#\/components\/schemas\/(\w+)"/g)) {
      if (!(ref[1] in schemas) && !pending.includes(ref[1])) {
        schemas[ref[1]] = {};
        pending.push(ref[1]);
      }
    }
  }
}

function derivedSchema(name: string, made: SchemaObject, validated: Schemas): SchemaObject {
  if (name in FORWARDED) return structuredClone(validated[name]);
  if (name in CONTRACT_SCHEMAS) return structuredClone(CONTRACT_SCHEMAS[name]);
  if (name in validated) return withLimits(made, validated[name]);
  throw new Error(`The document's schema ${name} comes from no contract type or validator: name it in contract-shapes.ts`);
}

/** `documented` with the limits the validators enforce, at every depth. */
export function withLimits(documented: SchemaObject, validated: SchemaObject): SchemaObject {
  const merged: Json = { ...documented };
  for (const keyword of LIMIT_KEYWORDS) {
    const value = (validated as Json)[keyword];
    if (value !== undefined) merged[keyword] = value;
  }
  const nested = (key: 'items' | 'additionalProperties') => {
    const [mine, theirs] = [documented[key], validated[key]];
    if (mine && theirs && typeof mine === 'object' && typeof theirs === 'object') merged[key] = withLimits(mine as SchemaObject, theirs as SchemaObject);
  };
  nested('items');
  nested('additionalProperties');
  if (documented.properties && validated.properties) {
    const theirs = validated.properties as Schemas;
    merged.properties = Object.fromEntries(
      Object.entries(documented.properties as Schemas).map(([field, mine]) => [
        field,
        field in theirs && !(mine as Json).$ref ? withLimits(mine, theirs[field]) : mine,
      ]),
    );
  }
  return merged as SchemaObject;
}

/** `schema` with `notes` on its properties; a note on a property the schema lacks is a contract that changed. */
function withNotes(schema: SchemaObject, notes: Record<string, Note>, where: string): SchemaObject {
  if (Object.keys(notes).length === 0) return schema;
  const properties = { ...(schema.properties as Schemas | undefined) };
  for (const [field, note] of Object.entries(notes)) {
    if (!properties[field]) throw new Error(`openapi-notes.ts describes ${where}.${field}, which its contract type does not have`);
    properties[field] = noted(properties[field], note, `${where}.${field}`);
  }
  return { ...schema, properties };
}

function noted(property: SchemaObject, { properties, type, ...words }: Note, where: string): SchemaObject {
  if (type === 'integer' && property.type !== 'number') throw new Error(`${where} is not a number, so not an integer`);
  const shaped = properties ? withNotes(property, properties, where) : property;
  // Beside a $ref, OpenAPI 3.0 ignores other keywords: Nest wraps the ref in allOf, and so does this.
  const base = (shaped as Json).$ref ? { allOf: [shaped] } : shaped;
  return { ...base, ...(type ? { type } : {}), ...words } as SchemaObject;
}
