import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { type Role, ROLES } from '#contracts';

/** The authenticated principal, from the verified token. */
export interface Caller {
  sub: string;
  orgs: string[];
  roles: Role[];
  /** The application the token was issued to (`azp`, else `client_id`), if it names one. */
  client?: string;
  /** The person's teams (a `teams` claim), for their notifications feed. */
  teams?: string[];
}

export type AuthenticatedRequest = Request & { caller?: Caller };

/** Each role includes what the roles before it may do. */
export function hasRole(caller: Caller, required: Role): boolean {
  const rank = ROLES.indexOf(required);
  return caller.roles.some((role) => ROLES.indexOf(role) >= rank);
}

export const CurrentCaller = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (!caller) throw new Error('CurrentCaller used on a route without authentication');
  return caller;
});
