import { Body, Controller, HttpCode } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GATEWAY_ROUTES, TREE_IMPORT_LIMITS, type TreePlan } from '#contracts';
import { Route } from '#http';
import { ApiProblems, AUTHENTICATED_ERRORS } from '../docs/api-docs.decorators.js';
import { TreePlanDoc } from '../docs/openapi-models.js';
import { RequireRole } from '../auth/auth.decorators.js';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { TreeImportDto } from './tree-import.dto.js';
import { TreeImportService } from './tree-import.service.js';

const HOW =
  'The body holds every item of the tree (path, API key, name, version, SHA-256) each time, and the texts of at most ' +
  `${TREE_IMPORT_LIMITS.maxSpecsPerCall} of them in \`specs\`: an item whose text is needed and was not sent says \`needsSpec\`. ` +
  'Items with one key are versions of one API; a version whose file now holds another version stays; with `prune`, a version whose file is gone ' +
  'or now holds another API is deleted, never one whose file is present but failed or no longer reads as a spec (that fails)';

@ApiTags('Import')
@ApiBearerAuth()
@ApiProblems(...AUTHENTICATED_ERRORS)
@Controller()
export class TreeImportController {
  constructor(private readonly imports: TreeImportService) {}

  @Route(GATEWAY_ROUTES.planTreeImport)
  @HttpCode(200)
  @ApiOperation({
    summary: 'What importing a tree of specs would do (npm run import --dry-run): added, updated, unchanged, deleted, failed, with the change reports',
    description: `Nothing is written. Each text sent is checked as a registration would be and compared with the version it replaces or follows; \`blocking\` marks a change that breaks a version in production without a new major version, or could not be compared in full. ${HOW}`,
  })
  @ApiOkResponse({ type: TreePlanDoc })
  @ApiProblems(400, 413)
  plan(@CurrentCaller() caller: Caller, @Body() body: TreeImportDto): Promise<TreePlan> {
    return this.imports.plan(caller, body);
  }

  @Route(GATEWAY_ROUTES.applyTreeImport)
  @HttpCode(200)
  @RequireRole('publisher')
  @ApiOperation({
    summary: 'Import a tree of specs (publisher): writes the entries whose text is sent (and those that need none), then deletes with `prune`',
    description: `Each entry is written on its own: one that fails says why (\`reason\`) and the others go on. ${HOW}`,
  })
  @ApiOkResponse({ type: TreePlanDoc })
  @ApiProblems(400, 413)
  apply(@CurrentCaller() caller: Caller, @Body() body: TreeImportDto): Promise<TreePlan> {
    return this.imports.apply(caller, body);
  }
}
