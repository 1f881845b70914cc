import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { Metrics, NoticeFeed } from '@board/kernel';

/** Counts the notices this instance's listener hears, by type (`board_notices_heard_total`). */
@Injectable()
export class NoticeCountListener implements OnApplicationBootstrap, OnModuleDestroy {
  private subscription?: Subscription;

  constructor(
    private readonly feed: NoticeFeed,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.feed.stream.subscribe((notice) => this.metrics.noticeHeard(notice.type));
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}
