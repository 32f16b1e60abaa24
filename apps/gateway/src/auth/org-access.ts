import { ForbiddenException } from '@nestjs/common';
import type { Caller } from './caller.js';

/** A caller may only act in the orgs its token lists. */
export function assertOrgMember(caller: Caller, orgId: string): void {
  if (!caller.orgs.includes(orgId)) {
    throw new ForbiddenException(`You are not a member of org "${orgId}"`);
  }
}
