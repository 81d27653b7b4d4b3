import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

export type DocumentType = 'public' | 'private';

/** An uploaded file; its bytes live in the document storage under its id. */
@Entity({ tableName: 'documents' })
export class StoredDocument {
  [OptionalProps]?: 'createdAt' | 'expiresAt' | 'owners';

  /** Random, URL-safe, ending with the extension of the detected type; also the storage key. */
  @PrimaryKey({ type: 'string', length: 64 })
  id!: string;

  @Property({ type: 'string', length: 255 })
  fileName!: string;

  @Property({ type: 'string', length: 40 })
  contentType!: string;

  @Property({ type: 'integer' })
  size!: number;

  @Property({ type: 'string', length: 10 })
  documentType!: DocumentType;

  /** Account ids; null when none were given (a public document may have none). */
  @Property({ type: 'text[]', nullable: true })
  owners: string[] | null = null;

  @Property({ type: 'string', length: 56 })
  uploadedBy!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  expiresAt: Date | null = null;
}
