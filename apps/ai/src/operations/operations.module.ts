import { Module } from '@nestjs/common';
import { LiveSpecRepository } from './live-spec.repository.js';
import { OperationsController } from './operations.controller.js';
import { OperationsService } from './operations.service.js';

@Module({ controllers: [OperationsController], providers: [OperationsService, LiveSpecRepository] })
export class OperationsModule {}
