import { Body, Controller, Get, HttpCode, Inject, NotFoundException, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { GatewayConfig } from '#config';
import { type AuthInfo, type DevTokenRequest, type DevTokenResponse, type Role, ROLES } from '#contracts';
import { ApiProblems } from '../docs/api-docs.decorators.js';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { ORG_ID, ORG_ID_RULE } from '../registry/api.dto.js';
import { Public } from './auth.decorators.js';
import { signDevToken } from './dev-token.js';

const DEV_TOKEN_TTL_SECONDS = 12 * 3600;

class DevTokenRequestDto implements DevTokenRequest {
  @ApiProperty({ type: [String], example: ['demo'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @Matches(ORG_ID, { each: true, message: `each of orgs must be ${ORG_ID_RULE}` })
  orgs: string[];

  @ApiProperty({ type: [String], enum: ROLES, example: ['reader', 'publisher', 'admin'] })
  @IsArray()
  @IsIn(ROLES, { each: true, message: `roles must be among ${ROLES.join(', ')}` })
  roles: Role[];

  @ApiPropertyOptional({ default: 'dev-user' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  sub?: string;
}

class AuthInfoDoc implements AuthInfo {
  @ApiProperty({ description: 'Whether POST /auth/dev-token is open (development only)' }) devLogin: boolean;
}

class DevTokenResponseDoc implements DevTokenResponse {
  @ApiProperty() token: string;
  @ApiProperty() expiresIn: number;
}

/** How to sign in; and, on a development stack only (AUTH_DEV_LOGIN), a token for the asking. */
@ApiTags('Sign-in')
@Controller('auth')
@Public()
export class DevLoginController {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  @Get('info')
  @ApiOperation({ summary: 'How this gateway signs callers in' })
  @ApiOkResponse({ type: AuthInfoDoc })
  info(): AuthInfo {
    return { devLogin: this.config.auth.devLogin };
  }

  @Post('dev-token')
  @HttpCode(200)
  @ApiOperation({ summary: 'A development token with the orgs and roles asked for (only when AUTH_DEV_LOGIN=true)' })
  @ApiOkResponse({ type: DevTokenResponseDoc })
  @ApiProblems(400, 404)
  async devToken(@Body() body: DevTokenRequestDto): Promise<DevTokenResponse> {
    const { devLogin, jwtSecret } = this.config.auth;
    if (!devLogin || !jwtSecret) throw new NotFoundException('Development sign-in is off on this gateway (AUTH_DEV_LOGIN)');
    const token = await signDevToken(jwtSecret, { sub: body.sub ?? 'dev-user', orgs: body.orgs, roles: body.roles, ttlSeconds: DEV_TOKEN_TTL_SECONDS });
    return { token, expiresIn: DEV_TOKEN_TTL_SECONDS };
  }
}
