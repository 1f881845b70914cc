import { fail } from '@board/kernel';
import { ObjectStore } from '@board/files';

/** The object store of a server with no S3_BUCKET: attachments are off (503), whoever asks. */
export class BucketOff extends ObjectStore {
  private off(): never {
    return fail('attachment.off');
  }
  put = async () => this.off();
  head = async () => this.off();
  readRange = async () => this.off();
  copy = async () => this.off();
  signedUploadUrl = async () => this.off();
  signedReadUrl = async () => this.off();
  delete = async () => this.off();
}
