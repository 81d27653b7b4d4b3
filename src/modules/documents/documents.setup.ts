import { hkdfSync } from 'node:crypto';
import path from 'node:path';
import type { Keypair } from '@stellar/stellar-sdk';
import type { Config } from '../../config';
import { DocumentsService } from './documents.service';
import { LinkSigner, LocalStorage, type DocumentStorage } from './documents.storage';

/** The documents service over the configured storage: S3 when S3_BUCKET is set, else DATA_DIR/documents. */
export function createDocumentsService(config: Config, master: Keypair): DocumentsService {
  return new DocumentsService(storageOf(config, master), config.STORAGE_LINK_TTL, config.DOCUMENT_QUOTA_BYTES);
}

function storageOf(config: Config, master: Keypair): DocumentStorage {
  if (config.S3_BUCKET) {
    // The AWS SDK (a quarter of a second to load) is loaded by the instances that store in S3 only.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { S3Storage } = require('./documents.s3') as typeof import('./documents.s3');
    return new S3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    });
  }
  // A key of its own for links, so that a leaked link key reveals nothing of the master seed.
  const key = config.STORAGE_LINK_SECRET
    ? Buffer.from(config.STORAGE_LINK_SECRET, 'utf8')
    : Buffer.from(hkdfSync('sha256', master.rawSecretKey(), Buffer.alloc(0), 'auction documents: storage links', 32));
  const baseUrl = (config.PUBLIC_URL ?? '').replace(/\/+$/, '');
  return new LocalStorage(path.join(config.DATA_DIR, 'documents'), new LinkSigner(key, baseUrl));
}
