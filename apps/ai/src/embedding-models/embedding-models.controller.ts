import { Controller, Headers } from '@nestjs/common';
import { AI_ROUTES, decodeOrgList, type EmbeddingModelsStatus, InternalHeader } from '#contracts';
import { Route } from '#http';
import { EmbeddingModelsService } from './embedding-models.service.js';

/** The gateway has checked the caller is an admin; failures are listed for the caller's orgs only. */
@Controller()
export class EmbeddingModelsController {
  constructor(private readonly models: EmbeddingModelsService) {}

  @Route(AI_ROUTES.embeddingModels)
  status(@Headers(InternalHeader.CallerOrgs) callerOrgs: string | undefined): Promise<EmbeddingModelsStatus> {
    return this.models.status(decodeOrgList(callerOrgs));
  }
}
