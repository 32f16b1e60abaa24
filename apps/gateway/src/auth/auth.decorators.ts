import { SetMetadata } from '@nestjs/common';
import type { Role } from '#contracts';

export { Public, PUBLIC_KEY } from '#http';
export const ROLE_KEY = 'auth:role';

/** The least role the route needs; `admin` also satisfies `publisher`, which satisfies `reader`. */
export const RequireRole = (role: Role) => SetMetadata(ROLE_KEY, role);
