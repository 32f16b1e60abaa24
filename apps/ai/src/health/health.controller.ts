import { Controller } from '@nestjs/common';
import { AI_ROUTES } from '#contracts';
import { Route } from '#http';

@Controller()
export class HealthController {
  @Route(AI_ROUTES.healthz)
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
