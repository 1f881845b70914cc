import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { Admin } from '../auth/access.decorator';
import { ProjectScope } from '../auth/auth-context';
import { bodyObject } from '../http/json-body';
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
  create(@ProjectScope() scope: Scope, @Body() body: unknown) {
    return this.webhooks.create(scope.id, bodyObject(body));
  }

  @Admin('change webhooks')
  @Patch(':webhookId')
  update(@ProjectScope() scope: Scope, @Param('webhookId') id: string, @Body() body: unknown) {
    return this.webhooks.update(scope.id, id, bodyObject(body));
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
