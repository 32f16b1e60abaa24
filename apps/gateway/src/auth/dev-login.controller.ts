import { Body, Controller, ForbiddenException, HttpCode, Inject, NotFoundException, Req } from '@nestjs/common';
import { ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { Request } from 'express';
import type { GatewayConfig } from '#config';
import {
  type AuthInfo,
  type DevTokenRequest,
  type DevTokenResponse,
  GATEWAY_ROUTES,
  ORG_ID,
  ORG_ID_RULE,
  PROBLEM_CONTENT_TYPE,
  type Role,
  ROLES,
} from '#contracts';
import { Route } from '#http';
import { ApiProblems } from '../docs/api-docs.decorators.js';
import { ProblemDoc } from '../docs/openapi-models.js';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { Public } from './auth.decorators.js';
import { signDevToken } from './dev-token.js';
import { isLoopbackAddress } from './loopback.js';

const DEV_TOKEN_TTL_SECONDS = 12 * 3600;

class DevTokenRequestDto implements DevTokenRequest {
  @ApiProperty({ type: [String], example: ['demo'] })
  @IsArray()
  @ArrayMinSize(1, { message: 'orgs needs at least one org' })
  @ArrayMaxSize(20)
  @Matches(ORG_ID, { each: true, message: `each of orgs must be ${ORG_ID_RULE}` })
  orgs: string[];

  @ApiProperty({ type: [String], enum: ROLES, example: ['reader', 'publisher', 'admin'] })
  @IsArray()
  // A token without a role is refused on every route: not one to hand out.
  @ArrayMinSize(1, { message: 'roles needs at least one role' })
  @IsIn(ROLES, { each: true, message: `roles must be among ${ROLES.join(', ')}` })
  roles: Role[];

  @ApiPropertyOptional({ default: 'dev-user' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  sub?: string;
}

class AuthInfoDoc implements AuthInfo {
  @ApiProperty({ description: 'Whether POST /auth/dev-token gives this caller a token (development only)' }) devLogin: boolean;
}

class DevTokenResponseDoc implements DevTokenResponse {
  @ApiProperty() token: string;
  @ApiProperty() expiresIn: number;
}

/**
 * How to sign in; and, on a development stack only (AUTH_DEV_LOGIN), a token for the asking —
 * to callers on the gateway's own machine unless AUTH_DEV_LOGIN_REMOTE allows the network.
 */
@ApiTags('Sign-in')
@Controller()
@Public()
export class DevLoginController {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  @Route(GATEWAY_ROUTES.authInfo)
  @ApiOperation({ summary: 'How this gateway signs callers in' })
  @ApiOkResponse({ type: AuthInfoDoc })
  info(@Req() request: Request): AuthInfo {
    // The web UI offers dev sign-in on this answer: not to a caller who would be refused.
    return { devLogin: this.config.auth.devLogin && this.mayUseDevLogin(request) };
  }

  @Route(GATEWAY_ROUTES.devToken)
  @HttpCode(200)
  @ApiOperation({
    summary: 'A development token with the orgs and roles asked for (only when AUTH_DEV_LOGIN=true; from another machine only with AUTH_DEV_LOGIN_REMOTE=true)',
  })
  @ApiOkResponse({ type: DevTokenResponseDoc })
  @ApiProblems(400, 404)
  // Not ApiProblems' 403, which is about orgs and roles.
  @ApiForbiddenResponse({
    description: 'Asked from another machine, and AUTH_DEV_LOGIN_REMOTE is off',
    content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: getSchemaPath(ProblemDoc) } } },
  })
  async devToken(@Body() body: DevTokenRequestDto, @Req() request: Request): Promise<DevTokenResponse> {
    const { devLogin, jwtSecret } = this.config.auth;
    if (!devLogin || !jwtSecret) throw new NotFoundException('Development sign-in is off on this gateway (AUTH_DEV_LOGIN)');
    if (!this.mayUseDevLogin(request)) {
      throw new ForbiddenException(
        "Development sign-in is only for callers on the gateway's own machine (loopback); set AUTH_DEV_LOGIN_REMOTE=true to open it to the network",
      );
    }
    const token = await signDevToken(jwtSecret, { sub: body.sub ?? 'dev-user', orgs: body.orgs, roles: body.roles, ttlSeconds: DEV_TOKEN_TTL_SECONDS });
    return { token, expiresIn: DEV_TOKEN_TTL_SECONDS };
  }

  // By the socket's own address: `trust proxy` is off, and X-Forwarded-For is the caller's to write.
  private mayUseDevLogin(request: Request): boolean {
    return this.config.auth.devLoginRemote || isLoopbackAddress(request.socket.remoteAddress);
  }
}
