import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module.js';
import { ConsumersController } from './consumers.controller.js';
import { ConsumersRepository } from './consumers.repository.js';
import { ConsumersService } from './consumers.service.js';

/** Who uses which API: the registry asks it for the impact of a change and before retiring or deleting. */
@Module({
  imports: [EventsModule],
  controllers: [ConsumersController],
  providers: [ConsumersService, ConsumersRepository],
  exports: [ConsumersService, ConsumersRepository],
})
export class ConsumersModule {}
