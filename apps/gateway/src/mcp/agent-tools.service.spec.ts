import { jest } from '@jest/globals';
import type { SpecFormats } from '#api-specs';
import type { Caller } from '../auth/caller.js';
import { AI_ROUTES } from '#contracts';
import { type AiClient, AiAnswer } from '../ai-client/ai-client.js';
import type { ConsumersService } from '../registry/consumers.service.js';
import type { ApiVersionsService } from '../registry/api-versions.service.js';
import type { RegistryService } from '../registry/registry.service.js';
import { AgentToolsService, ToolError } from './agent-tools.service.js';
import type { ImplicitFeedback } from './implicit-feedback.js';

/** `rate_result`'s vote as the AI app receives it, and its refusals as the agent reads them. */
describe(`${AgentToolsService.name} rate`, () => {
  const caller = { sub: 'agent-7', orgs: ['acme', 'globex'], roles: ['reader'] } as Caller;
  const searchId = '0190a1b2-0000-7000-8000-000000000001';
  const apiId = '0190a1b2-0000-7000-8000-0000000000aa';
  let call: jest.Mock<AiClient['request']>;
  let queryOf: jest.Mock<ImplicitFeedback['queryOf']>;
  let tools: AgentToolsService;

  beforeEach(() => {
    call = jest.fn<AiClient['request']>().mockResolvedValue(new AiAnswer(204, 'application/json', ''));
    queryOf = jest.fn<ImplicitFeedback['queryOf']>().mockResolvedValue('refund a card payment');
    tools = new AgentToolsService(
      { request: call } as unknown as AiClient,
      {} as RegistryService,
      {} as ApiVersionsService,
      { queryOf } as unknown as ImplicitFeedback,
      {} as ConsumersService,
      {} as SpecFormats,
    );
  });

  it('should send a vote from the caller, with their orgs, as the REST feedback route does', async () => {
    const rated = await tools.rate(caller, { searchId, apiId, operation: { method: 'post', path: '/refunds' }, helpful: false }, 'request-1');

    expect(call).toHaveBeenCalledWith(AI_ROUTES.feedback, {
      body: { searchId, apiId, operation: { method: 'POST', path: '/refunds' }, helpful: false, signal: 'vote', person: 'agent-7', orgIds: ['acme', 'globex'] },
      requestId: 'request-1',
    });
    expect(rated).toEqual({ searchId, apiId, operation: { method: 'POST', path: '/refunds' }, helpful: false, signal: 'vote', query: 'refund a card payment' });
  });

  it("should refuse with the AI app's words and status when it refuses the vote", async () => {
    const detail = `Search "${searchId}" is unknown or older than 7 days (FEEDBACK_WINDOW_DAYS): search again and give feedback on that answer`;
    call.mockResolvedValue(new AiAnswer(404, 'application/problem+json', JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail })));

    const refused = tools.rate(caller, { searchId, apiId, helpful: true });
    await expect(refused).rejects.toThrow(ToolError);
    await expect(refused).rejects.toMatchObject({ message: detail, status: 404 });
    expect(queryOf).not.toHaveBeenCalled();
  });
});
