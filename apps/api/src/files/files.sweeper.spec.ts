import { BackgroundWork, NoMetrics } from '@board/kernel';
import { HeldCalls, turnsUntil, stopWaitsFor } from '../../../../test/support/held-calls';
import { InMemoryAttachmentRepository, InMemoryBucketCleanup } from '../../../../test/support/in-memory/attachment-repository';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { AloneLiveness } from '../../../../test/support/in-memory/liveness';
import { InMemoryObjectStore } from '../../../../test/support/in-memory/object-store';
import { AppConfig } from '../config/app-config';
import { FilesSweeper } from './files.sweeper';

// The sweeper's schedule is Nest's: its library (cron, luxon) costs a third of a second to load and is not what is tested here.
jest.mock('@nestjs/schedule', () => ({ Interval: () => () => undefined }));

/** A bucket whose deletes answer once the spec lets them. */
class HeldBucket extends InMemoryObjectStore {
  readonly held = new HeldCalls();

  override async delete(key: string): Promise<void> {
    await this.held.hold();
    return super.delete(key);
  }
}

describe('FilesSweeper, stopping', () => {
  it('waits for the bucket deletes under way and forgets their keys, then claims no more', async () => {
    const attachments = new InMemoryAttachmentRepository();
    // Two claims' worth (a claim takes a hundred).
    for (let i = 0; i < 150; i++) attachments.queued.add(`files/p/${i}`);
    const bucket = new HeldBucket();
    const inline: BackgroundWork = { run: (work) => work() };
    const config = Object.assign(new AppConfig(), { S3_BUCKET: 'board' });
    const sweeper = new FilesSweeper(new InMemoryBucketCleanup(attachments), bucket, new SteppedClock(), inline, new NoMetrics(), new AloneLiveness(), config);
    const sweep = sweeper.sweep();
    await turnsUntil(() => bucket.held.waitingNow === 100);
    await stopWaitsFor(() => sweeper.onModuleDestroy(), () => bucket.held.release());
    await expect(sweep).resolves.toEqual({ expired: 0, deleted: 100 });
    expect(attachments.queued.size).toBe(50);
    await expect(sweeper.sweep()).resolves.toEqual({ expired: 0, deleted: 0 });
    expect(bucket.held.calls).toBe(100);
  });
});
