import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { BeforeBody, pathParam, refuseNonObjectBody } from '../http/before-body';
import { ChartsService } from './charts.service';

/**
 * A chart must be the caller's (else 404) before its change or its data query is read: the
 * contract's order. A chart's data is a heavy read, so this runs inside the caller's slot.
 */
@Injectable()
export class ChartOwnerCheck extends BeforeBody {
  constructor(private readonly charts: ChartsService) {
    super();
  }

  protected async check(request: FastifyRequest): Promise<void> {
    // A query route reads no body; a body route refuses one that is not a JSON object first.
    if (request.method !== 'GET') refuseNonObjectBody(request);
    const { auth } = request;
    if (!auth) throw new Error('ChartOwnerCheck runs behind the access guard');
    await this.charts.checkOwned(auth.caller.id, pathParam(request, 'chartId') ?? '');
  }
}
