import { jest } from '@jest/globals';
import type { Request, Response } from 'express';
import { ServiceBusyException } from '#http';
import type { Caller } from '../auth/caller.js';
import type { RegistryService } from '../registry/registry.service.js';
import { type AiClient, AiAnswer } from '../ai-client/ai-client.js';
import { AiProxyController } from './ai-proxy.controller.js';

describe('AiProxyController.search', () => {
  const caller = { sub: 'reader', orgs: ['acme'], roles: ['reader'] } as unknown as Caller;
  const request = { body: { orgId: 'acme', query: 'refunds' }, headers: {} } as unknown as Request;
  const response = () =>
    ({ status: jest.fn().mockReturnThis(), type: jest.fn().mockReturnThis(), send: jest.fn().mockReturnThis(), setHeader: jest.fn() }) as unknown as Response;
  const answer = (status: number, retryAfter?: string) => new AiAnswer(status, 'application/json', '{}', retryAfter);

  it('should refuse searches itself for a moment after the AI app said it is at its limit, then ask it again', async () => {
    const call = jest.fn<AiClient['request']>().mockResolvedValueOnce(answer(503, '1')).mockResolvedValue(answer(200));
    const controller = new AiProxyController({ request: call } as unknown as AiClient, {} as RegistryService);

    const refused = response();
    await controller.search(caller, 'acme', request, refused);
    expect(refused.status).toHaveBeenCalledWith(503);
    expect(refused.setHeader).toHaveBeenCalledWith('Retry-After', '1');
    await expect(controller.search(caller, 'acme', request, response())).rejects.toThrow(ServiceBusyException);
    expect(call).toHaveBeenCalledTimes(1);

    await new Promise((resolve) => setTimeout(resolve, 150));
    const answered = response();
    await controller.search(caller, 'acme', request, answered);
    expect(answered.status).toHaveBeenCalledWith(200);
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('should go on asking the AI app after an answer that is not a refusal', async () => {
    const call = jest.fn<AiClient['request']>().mockResolvedValueOnce(answer(503)).mockResolvedValue(answer(200));
    const controller = new AiProxyController({ request: call } as unknown as AiClient, {} as RegistryService);
    await controller.search(caller, 'acme', request, response());
    await controller.search(caller, 'acme', request, response());
    expect(call).toHaveBeenCalledTimes(2);
  });
});
