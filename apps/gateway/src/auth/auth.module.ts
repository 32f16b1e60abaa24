import { Module } from '@nestjs/common';
import { DevLoginController } from './dev-login.controller.js';
import { TokenVerifierService } from './token-verifier.service.js';

/** Token verification; the guards are registered in order by the root module. */
@Module({
  controllers: [DevLoginController],
  providers: [TokenVerifierService],
  exports: [TokenVerifierService],
})
export class AuthModule {}
