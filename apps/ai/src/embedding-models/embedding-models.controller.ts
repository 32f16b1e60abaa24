import { Controller, Get, Headers } from '@nestjs/common';
import { decodeOrgList, type EmbeddingModelsStatus, InternalHeader } from '#contracts';
import { EmbeddingModelsService } from './embedding-models.service.js';

/** The gateway has checked the caller is an admin; failures are listed for the caller's orgs only. */
@Controller('admin/embedding-models')
export class EmbeddingModelsController {
  constructor(private readonly models: EmbeddingModelsService) {}

  @Get()
  status(@Headers(InternalHeader.CallerOrgs) callerOrgs: string | undefined): Promise<EmbeddingModelsStatus> {
    return this.models.status(decodeOrgList(callerOrgs));
  }
}
