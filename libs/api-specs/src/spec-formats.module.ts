import { Global, Module } from '@nestjs/common';
import { AsyncApiFormat } from './formats/asyncapi/asyncapi.format.js';
import { GraphqlFormat } from './formats/graphql/graphql.format.js';
import { GrpcFormat } from './formats/grpc/grpc.format.js';
import { McpFormat } from './formats/mcp/mcp.format.js';
import { OpenApiFormat } from './formats/openapi/openapi.format.js';
import type { SpecFormat } from './formats/spec-format.js';
import { SPEC_FORMATS, SpecFormats } from './formats/spec-formats.js';

/**
 * Every spec format, in the order they are asked to recognise a spec (the JSON/YAML ones by
 * their marker field, then .proto before SDL: a .proto file is the stricter to recognise).
 * Adding a format means a folder under `formats/` with its `SpecFormat` class, and its class in this list.
 */
export const SPEC_FORMAT_PLUGINS = [OpenApiFormat, AsyncApiFormat, GrpcFormat, GraphqlFormat, McpFormat] as const;

/** Each format a provider, collected under `SPEC_FORMATS` as one `SpecFormats`. */
@Global()
@Module({
  providers: [
    ...SPEC_FORMAT_PLUGINS,
    { provide: SPEC_FORMATS, useFactory: (...formats: SpecFormat[]) => new SpecFormats(formats), inject: [...SPEC_FORMAT_PLUGINS] },
  ],
  exports: [SPEC_FORMATS],
})
export class SpecFormatsModule {}

/** The same formats outside Nest (scripts, tests). */
export function defaultSpecFormats(): SpecFormats {
  return new SpecFormats(SPEC_FORMAT_PLUGINS.map((Format) => new Format()));
}
