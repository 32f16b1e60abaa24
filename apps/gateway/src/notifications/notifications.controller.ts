import { Controller, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GATEWAY_ROUTES, type NotificationFeed, type WatchState } from '#contracts';
import { Route } from '#http';
import { ApiProblems, AUTHENTICATED_ERRORS } from '../docs/api-docs.decorators.js';
import { NotificationFeedDoc, WatchStateDoc } from '../docs/openapi-models.js';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { NotificationQueryDto } from './notifications.dto.js';
import { NotificationsService } from './notifications.service.js';

@ApiTags('Notifications')
@ApiBearerAuth()
@ApiProblems(...AUTHENTICATED_ERRORS)
@Controller()
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Route(GATEWAY_ROUTES.getWatch)
  @ApiOperation({ summary: 'Whether you watch the API' })
  @ApiOkResponse({ type: WatchStateDoc })
  @ApiProblems(404)
  state(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string): Promise<WatchState> {
    return this.notifications.watchState(caller, apiId);
  }

  @Route(GATEWAY_ROUTES.watchApi)
  @ApiOperation({ summary: 'Watch the API: its events come to your notifications (send `{}`)' })
  @ApiOkResponse({ type: WatchStateDoc })
  @ApiProblems(404)
  watch(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string): Promise<WatchState> {
    return this.notifications.watch(caller, apiId, true);
  }

  @Route(GATEWAY_ROUTES.unwatchApi)
  @ApiOperation({ summary: 'Stop watching the API' })
  @ApiOkResponse({ type: WatchStateDoc })
  @ApiProblems(404)
  unwatch(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string): Promise<WatchState> {
    return this.notifications.watch(caller, apiId, false);
  }

  @Route(GATEWAY_ROUTES.notifications)
  @ApiOperation({
    summary: 'Your notifications, newest first: the events of the APIs you watch, and of those your services or your teams use (as declared consumers)',
  })
  @ApiOkResponse({ type: NotificationFeedDoc })
  @ApiProblems(400)
  feed(@CurrentCaller() caller: Caller, @Query() query: NotificationQueryDto): Promise<NotificationFeed> {
    return this.notifications.feed(caller, query);
  }
}
