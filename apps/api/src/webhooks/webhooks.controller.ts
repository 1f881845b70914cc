import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseInterceptors } from '@nestjs/common';
import { Admin } from '../auth/access.decorator';
import { ProjectScope } from '../auth/auth-context';
import { CreateWebhookBody, UpdateWebhookBody } from './webhooks.dto';
import { WebhookAddressCheck } from './webhook-address.check';
import { WebhooksService } from './webhooks.service';

type Scope = { id: string };

@Controller('projects/:projectId/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Admin('see webhooks')
  @Get()
  async list(@ProjectScope() scope: Scope) {
    return { webhooks: await this.webhooks.list(scope.id) };
  }

  @Admin('add webhooks')
  @Post()
  @HttpCode(201)
  @UseInterceptors(WebhookAddressCheck)
  create(@ProjectScope() scope: Scope, @Body() body: CreateWebhookBody) {
    return this.webhooks.create(scope.id, body);
  }

  @Admin('change webhooks')
  @Patch(':webhookId')
  @UseInterceptors(WebhookAddressCheck)
  update(@ProjectScope() scope: Scope, @Param('webhookId') id: string, @Body() body: UpdateWebhookBody) {
    return this.webhooks.update(scope.id, id, body);
  }

  @Admin('test webhooks')
  @Post(':webhookId')
  @HttpCode(202)
  test(@ProjectScope() scope: Scope, @Param('webhookId') id: string) {
    return this.webhooks.test(scope.id, id);
  }

  @Admin('remove webhooks')
  @Delete(':webhookId')
  async remove(@ProjectScope() scope: Scope, @Param('webhookId') id: string) {
    await this.webhooks.remove(scope.id, id);
    return { ok: true };
  }

  @Admin('see webhooks')
  @Get(':webhookId/count')
  count(@ProjectScope() scope: Scope, @Param('webhookId') id: string) {
    return this.webhooks.count(scope.id, id);
  }

  @Admin('see webhooks')
  @Get(':webhookId/deliveries')
  deliveries(@ProjectScope() scope: Scope, @Param('webhookId') id: string) {
    return this.webhooks.deliveries(scope.id, id);
  }
}
