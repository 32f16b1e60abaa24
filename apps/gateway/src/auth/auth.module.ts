import { Module } from '@nestjs/common';
import { TokenVerifierService } from './token-verifier.service.js';

/** Token verification; the guards are registered in order by the root module. */
@Module({
  providers: [TokenVerifierService],
  exports: [TokenVerifierService],
})
export class AuthModule {}
