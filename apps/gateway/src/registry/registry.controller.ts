import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import type { ApiListResponse, ApiRecord } from '#contracts';
import { RequireRole } from '../auth/auth.decorators.js';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { ApiBodyDto, ListApisQueryDto } from './api.dto.js';
import { RegistryService } from './registry.service.js';

@Controller('api-management/apis')
export class RegistryController {
  constructor(private readonly registry: RegistryService) {}

  @Post()
  @RequireRole('publisher')
  create(@CurrentCaller() caller: Caller, @Body() body: ApiBodyDto): Promise<ApiRecord> {
    return this.registry.create(caller, body);
  }

  @Get()
  list(@CurrentCaller() caller: Caller, @Query() query: ListApisQueryDto): Promise<ApiListResponse> {
    return this.registry.list(caller, query);
  }

  @Get(':apiId')
  get(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string): Promise<ApiRecord> {
    return this.registry.get(caller, apiId);
  }

  @Put(':apiId')
  @RequireRole('publisher')
  update(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Body() body: ApiBodyDto): Promise<ApiRecord> {
    return this.registry.update(caller, apiId, body);
  }

  @Delete(':apiId')
  @HttpCode(204)
  @RequireRole('publisher')
  remove(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string): Promise<void> {
    return this.registry.remove(caller, apiId);
  }
}
