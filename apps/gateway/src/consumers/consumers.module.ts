import { Module } from '@nestjs/common';
import { ConsumersRepository } from './consumers.repository.js';

/** Who uses which API, as the registry reads it before a change and for its impact; its routes are the registry's. */
@Module({
  providers: [ConsumersRepository],
  exports: [ConsumersRepository],
})
export class ConsumersModule {}
