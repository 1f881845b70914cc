import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { BeforeBody, pathParam, refuseNonObjectBody } from '../http/before-body';
import { WebhooksService } from './webhooks.service';

/**
 * The gates of a webhook's create and change, before the body is read (the contract's order): the
 * webhook of the path must exist, and a sent address passes its whole check (allow list, DNS),
 * which no DTO can make.
 */
@Injectable()
export class WebhookAddressCheck extends BeforeBody {
  constructor(private readonly webhooks: WebhooksService) {
    super();
  }

  protected async check(request: FastifyRequest): Promise<void> {
    refuseNonObjectBody(request);
    const url = (request.body as { url?: unknown } | undefined)?.url;
    const projectId = request.auth?.project?.id;
    if (!projectId) throw new Error('WebhookAddressCheck runs behind a project gate');
    const webhookId = pathParam(request, 'webhookId');
    if (webhookId !== undefined) await this.webhooks.assertFound(projectId, webhookId);
    // A new webhook needs an address (its absence is refused here); a change may keep its own.
    if (webhookId === undefined || url !== undefined) await this.webhooks.checkAddress(url);
  }
}
