import { RequestMapping, RequestMethod } from '@nestjs/common';
import type { AnyRoute } from '#contracts';

/**
 * Mounts a handler on a route of a route table (`@Route(AI_ROUTES.search)`): its method and full
 * path come from the table, so the controller is `@Controller()` with no prefix of its own.
 */
export function Route(route: AnyRoute): MethodDecorator {
  return RequestMapping({ path: route.path, method: RequestMethod[route.method] });
}
