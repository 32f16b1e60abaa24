import { SetMetadata } from '@nestjs/common';

export const PUBLIC_KEY = 'auth:public';

/** The route needs no credentials (health checks, metrics, sign-in). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);
