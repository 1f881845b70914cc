import { DomainError } from '@board/kernel';
import { ChartDataQuery, CreateChartBody, UpdateChartBody } from '../../charts/charts.dto';
import { FeedPageQuery, PresenceBody } from '../../events/events.dto';
import { UploadRequestBody } from '../../files/files.dto';
import { CreateListBody, UpdateListBody } from '../../lists/lists.dto';
import { CreateWebhookBody, UpdateWebhookBody } from '../../webhooks/webhooks.dto';
import { parseRequest } from './request-dto.pipe';

const ID = '0b6c1f0e-3f4a-4c8e-9a51-2d7f9e1c5a10';

/** The code a read refuses with; null when it passes. */
function refused(call: () => unknown): string | null {
  try {
    call();
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return error.code;
  }
}

describe('request DTOs of feed, presence, files, charts, lists, webhooks: first refusal in the contract order', () => {
  it('feed page: after, then afterId, then limit', () => {
    expect(refused(() => parseRequest(FeedPageQuery, { after: '2024-02-30T00:00:00Z', afterId: 'x', limit: '0' }))).toBe('feed.after_invalid');
    expect(refused(() => parseRequest(FeedPageQuery, { afterId: 'x', limit: '0' }))).toBe('feed.after_id_invalid');
    expect(refused(() => parseRequest(FeedPageQuery, { limit: '501' }))).toBe('query.limit_invalid');
    expect(refused(() => parseRequest(FeedPageQuery, { limit: '1.5' }))).toBe('query.limit_invalid');
    expect(refused(() => parseRequest(FeedPageQuery, { after: '2024-02-29T10:00:00Z', afterId: ID, limit: '500' }))).toBeNull();
  });

  it('presence: clientId, then taskId, then field', () => {
    expect(refused(() => parseRequest(PresenceBody, { taskId: 'x', field: 'nope' }))).toBe('text.empty');
    expect(refused(() => parseRequest(PresenceBody, { clientId: 'c', taskId: 'x', field: 'nope' }))).toBe('id.invalid');
    expect(refused(() => parseRequest(PresenceBody, { clientId: 'c', taskId: ID, field: 'nope' }))).toBe('presence.field_invalid');
    expect(refused(() => parseRequest(PresenceBody, { clientId: 'c', taskId: ID, field: `CHECKLIST:${ID}` }))).toBeNull();
  });

  it('upload request: name, then mime; the size is left to the policy that follows the type', () => {
    expect(refused(() => parseRequest(UploadRequestBody, { name: ' ', mime: '' }))).toBe('attachment.name_missing');
    expect(refused(() => parseRequest(UploadRequestBody, { name: 'a.png', mime: 5 }))).toBe('attachment.mime_missing');
    expect(refused(() => parseRequest(UploadRequestBody, { name: 'a.png', mime: 'image/png' }))).toBeNull();
  });

  it('charts: a flow chart needs its property, others ignore it; the data query checks to before from', () => {
    const base = { name: 'C', projectIds: [ID] };
    expect(refused(() => parseRequest(CreateChartBody, { ...base, kind: 'flow' }))).toBe('chart.flow_property');
    expect(refused(() => parseRequest(CreateChartBody, { ...base, kind: 'burnup', propertyId: 'x' }))).toBeNull();
    expect(refused(() => parseRequest(CreateChartBody, { name: 'C', kind: 'pie', projectIds: 5 }))).toBe('chart.kind_invalid');
    expect(refused(() => parseRequest(UpdateChartBody, { projectIds: [] }))).toBe('chart.projects');
    expect(refused(() => parseRequest(ChartDataQuery, { from: 'x', to: 'y' }))).toBe('chart.day_invalid');
    expect(() => parseRequest(ChartDataQuery, { from: 'x', to: 'y' })).toThrow(expect.objectContaining({ params: { name: 'To' } }));
  });

  it('lists and webhooks reuse the domain readers', () => {
    expect(refused(() => parseRequest(CreateListBody, {}))).toBe('text.empty');
    expect(refused(() => parseRequest(UpdateListBody, { afterId: 5 }))).toBeNull();
    expect(refused(() => parseRequest(CreateWebhookBody, { url: 'ftp://x', kinds: 5 }))).toBe('webhook.url_invalid');
    expect(refused(() => parseRequest(CreateWebhookBody, { url: 'https://example.com', kinds: 5 }))).toBe('webhook.kinds_not_list');
    expect(refused(() => parseRequest(UpdateWebhookBody, { enabled: 'yes' }))).toBe('input.boolean');
    expect(refused(() => parseRequest(UpdateWebhookBody, { roll: 'yes' }))).toBeNull();
  });
});
