import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { bodyObject } from '../http/json-body';
import { WebhooksService } from './webhooks.service';

/**
 * The gates of a webhook's create and change, before the body is read (the contract's order): the
 * webhook of the path must exist, and a sent address passes its whole check (allow list, DNS),
 * which no DTO can make. Runs after the global AccessGuard (the project and the role).
 */
@Injectable()
export class WebhookAddressGuard implements CanActivate {
  constructor(private readonly webhooks: WebhooksService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    // A body that is no JSON object is refused first, as for every route.
    const body = bodyObject(request.body);
    const projectId = request.auth?.project?.id;
    if (!projectId) throw new Error('WebhookAddressGuard used on a route without a project gate');
    const webhookId = (request.params as Record<string, string | undefined>).webhookId;
    if (webhookId !== undefined) await this.webhooks.assertFound(projectId, webhookId);
    // A new webhook needs an address (its absence is refused here); a change may keep its own.
    if (webhookId === undefined || body.url !== undefined) await this.webhooks.checkAddress(body.url);
    return true;
  }
}
