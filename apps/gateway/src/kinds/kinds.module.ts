import { Module } from '@nestjs/common';
import { KindsController } from './kinds.controller.js';

/** `GET /api-management/kinds`: the spec format plugins' kinds (`SPEC_FORMATS`, from the global `SpecFormatsModule`). */
@Module({
  controllers: [KindsController],
})
export class KindsModule {}
