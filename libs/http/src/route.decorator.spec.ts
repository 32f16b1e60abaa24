import { Controller, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { route } from '#contracts';
import { Route } from './route.decorator.js';

describe(Route.name, () => {
  it("should mount the handler on the route's method and full path", () => {
    const erase = route<unknown>()('DELETE', '/admin/feedback/:apiId');
    @Controller()
    class FeedbackController {
      @Route(erase)
      erase(): void {}
    }
    expect(Reflect.getMetadata(PATH_METADATA, FeedbackController.prototype.erase)).toBe('/admin/feedback/:apiId');
    expect(Reflect.getMetadata(METHOD_METADATA, FeedbackController.prototype.erase)).toBe(RequestMethod.DELETE);
  });
});
