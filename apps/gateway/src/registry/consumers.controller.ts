import { Body, Controller, HttpCode, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ConsumerDependencyView, type ConsumerList, type ConsumerRecord, GATEWAY_ROUTES } from '#contracts';
import { Route } from '#http';
import { ApiProblems, AUTHENTICATED_ERRORS } from '../docs/api-docs.decorators.js';
import { ConsumerDependencyViewDoc, ConsumerListDoc, ConsumerRecordDoc } from '../docs/openapi-models.js';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { ConsumerDeclarationDto, ConsumerDependencyQueryDto } from './consumers.dto.js';
import { ConsumersService } from './consumers.service.js';

@ApiTags('Consumers')
@ApiBearerAuth()
@ApiProblems(...AUTHENTICATED_ERRORS)
@Controller()
export class ConsumersController {
  constructor(private readonly consumers: ConsumersService) {}

  @Route(GATEWAY_ROUTES.listConsumers)
  @ApiOperation({ summary: "An API's consumers: declared by teams, from a tree's Backstage components (catalog), or observed from client tokens' MCP reads" })
  @ApiOkResponse({ type: ConsumerListDoc })
  @ApiProblems(404)
  list(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string): Promise<ConsumerList> {
    return this.consumers.list(caller, apiId);
  }

  @Route(GATEWAY_ROUTES.addConsumer)
  @ApiOperation({
    summary: 'Declare a service that uses the API (any member of its org)',
    description: 'Name the version and the operations it calls to be told only of the changes that reach it; the same name and version again updates it',
  })
  @ApiCreatedResponse({ type: ConsumerRecordDoc })
  @ApiProblems(400, 404, 409)
  declare(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Body() body: ConsumerDeclarationDto): Promise<ConsumerRecord> {
    return this.consumers.declare(caller, apiId, body);
  }

  @Route(GATEWAY_ROUTES.deleteConsumer)
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a consumer (whoever declared it, a publisher or an admin)' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiProblems(404)
  remove(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Param('consumerId') consumerId: string): Promise<void> {
    return this.consumers.remove(caller, apiId, consumerId);
  }

  @Route(GATEWAY_ROUTES.consumerDependencies)
  @ApiOperation({
    summary: "The org's dependency view: each consumer with the API versions it uses and their stages (`stage=deprecated&stage=retired`: who still uses them)",
  })
  @ApiOkResponse({ type: ConsumerDependencyViewDoc })
  @ApiProblems(400)
  dependencies(@CurrentCaller() caller: Caller, @Query() query: ConsumerDependencyQueryDto): Promise<ConsumerDependencyView> {
    return this.consumers.dependencies(caller, query);
  }
}
