import { Body, Controller, HttpCode, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ApiRecord, type ApiRefreshResult, GATEWAY_ROUTES } from '#contracts';
import { Route } from '#http';
import { ApiProblems, AUTHENTICATED_ERRORS } from '../docs/api-docs.decorators.js';
import { ApiRecordDoc, ApiRefreshResultDoc } from '../docs/openapi-models.js';
import { RequireRole } from '../auth/auth.decorators.js';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { ImportBodyDto } from './import.dto.js';
import { ImportService } from './import.service.js';

@ApiTags('Import')
@ApiBearerAuth()
@ApiProblems(...AUTHENTICATED_ERRORS)
@Controller()
export class ImportController {
  constructor(private readonly imports: ImportService) {}

  @Route(GATEWAY_ROUTES.importApi)
  @RequireRole('publisher')
  @ApiOperation({
    summary: 'Register an API from a spec at a URL (publisher); it keeps the URL as its `source` to refresh from',
    description:
      'Only http and https. Loopback, private, link-local and metadata addresses are refused (422) unless IMPORT_ALLOWED_HOSTS lists the host and port, ' +
      'checked on the address connected to and on every redirect (at most 5). Within SPEC_MAX_BYTES (413) and IMPORT_TIMEOUT_MS (504); ' +
      "JSON, YAML or text (415 otherwise); then checked as an upload. Name and version from the spec's `info` when left out. " +
      'At most IMPORT_MAX_IN_FLIGHT_PER_CALLER imports and refreshes in flight per caller (429 with Retry-After past it) and IMPORT_MAX_IN_FLIGHT in all (503 with Retry-After), refused before anything is fetched',
  })
  @ApiCreatedResponse({ type: ApiRecordDoc, description: 'Registered with its `source`; `indexing.status` is PENDING' })
  @ApiProblems(400, 409, 413, 415, 422, 503, 504)
  import(@CurrentCaller() caller: Caller, @Body() body: ImportBodyDto, @Res({ passthrough: true }) response: Response): Promise<ApiRecord> {
    return this.imports.import(caller, body, whileConnected(response));
  }

  @Route(GATEWAY_ROUTES.refreshApi)
  @HttpCode(200)
  @RequireRole('publisher')
  @ApiOperation({
    summary: "Fetch an imported API's URL again now (publisher): `unchanged`, `updated` with the new revision, or `failed` with why",
    description:
      "A conditional request (If-None-Match / If-Modified-Since). A changed text makes one new revision of the source's version; a failure keeps the last good spec",
  })
  @ApiOkResponse({ type: ApiRefreshResultDoc })
  @ApiProblems(404, 409, 503)
  refresh(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string): Promise<ApiRefreshResult> {
    return this.imports.refresh(caller, apiId);
  }
}

/** Aborted when the client goes away before its answer is sent: a fetch it started stops, and frees its slot. */
function whileConnected(response: Response): AbortSignal {
  const gone = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) gone.abort();
  });
  return gone.signal;
}
