import { SetMetadata } from '@nestjs/common';
import type { Role } from './caller.js';

export const PUBLIC_KEY = 'auth:public';
export const ROLE_KEY = 'auth:role';

/** The route needs no token (health checks). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** The least role the route needs; `admin` also satisfies `publisher`, which satisfies `reader`. */
export const RequireRole = (role: Role) => SetMetadata(ROLE_KEY, role);
