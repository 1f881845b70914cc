import { Inject, Module, OnModuleDestroy } from '@nestjs/common';
import { AttachmentRepository, BucketCleanup, ObjectStore } from '@board/files';
import { AttachmentQuery, PgAttachmentQuery, PgAttachmentRepository, PgBucketCleanupRepository } from '@board/persistence';
import { S3ObjectStore } from '@board/platform';
import { AppConfig } from '../config/app-config';
import { BucketOff } from './bucket-off';
import { FilesController } from './files.controller';
import { FilesService } from './files.service';
import { FilesSweeper } from './files.sweeper';

/** The S3 bucket of the configuration, or none (every file route then answers 503). */
const objectStore = (config: AppConfig): ObjectStore =>
  config.S3_BUCKET
    ? new S3ObjectStore({
        bucket: config.S3_BUCKET,
        region: config.S3_REGION,
        endpoint: config.S3_ENDPOINT,
        publicEndpoint: config.S3_PUBLIC_ENDPOINT,
        accessKeyId: config.S3_ACCESS_KEY_ID,
        secretAccessKey: config.S3_SECRET_ACCESS_KEY,
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
      })
    : new BucketOff();

@Module({
  controllers: [FilesController],
  providers: [
    FilesService,
    FilesSweeper,
    { provide: AttachmentQuery, useClass: PgAttachmentQuery },
    { provide: AttachmentRepository, useClass: PgAttachmentRepository },
    { provide: BucketCleanup, useClass: PgBucketCleanupRepository },
    { provide: ObjectStore, useFactory: objectStore, inject: [AppConfig] },
  ],
})
export class FilesModule implements OnModuleDestroy {
  constructor(@Inject(ObjectStore) private readonly store: ObjectStore) {}

  onModuleDestroy(): void {
    if (this.store instanceof S3ObjectStore) this.store.destroy();
  }
}
