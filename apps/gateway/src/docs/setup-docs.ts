import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { deriveQueryParameters } from './derived-parameters.js';
import { deriveSchemas, validatorSchemas } from './derived-schemas.js';

export const DOCS_PATH = 'docs';

/** This gateway's own OpenAPI document: routes from its controllers, schemas from the contract types and validators. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('API discovery platform')
    .setDescription(
      'Register OpenAPI specs and find APIs by describing what you need. Every `/api-management/**` call needs ' +
        '`Authorization: Bearer <JWT>` with `orgs` and `roles` (reader < publisher < admin) claims. Every error is ' +
        '`application/problem+json` whose `instance` is the request id (also sent as `X-Request-Id`).',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  const validated = validatorSchemas();
  deriveSchemas(document, validated);
  deriveQueryParameters(document, app, validated);
  return document;
}

/** `GET /docs` (Swagger UI), `/docs/openapi.json` and `/docs/openapi.yaml`; public, like the health checks. */
export function serveDocs(app: INestApplication): void {
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: `${DOCS_PATH}/openapi.json`,
    yamlDocumentUrl: `${DOCS_PATH}/openapi.yaml`,
    customSiteTitle: 'API discovery platform — API docs',
  });
}
