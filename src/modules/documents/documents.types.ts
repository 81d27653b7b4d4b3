import { Extensions, Field, Int, ObjectType } from 'type-graphql';
import { rfc3339 } from '../../core/time';
import { listItems } from '../../graphql/list-items';
import type { StoredDocument } from './documents.entity';
import { MAX_OWNERS } from './documents.input';
import { NodeGql } from '../../graphql/types/node';

@ObjectType('Document', { implements: NodeGql, description: 'An uploaded document (upload through REST POST /documents)' })
export class DocumentGql {
  @Field(() => String, { description: 'Random, ending with the extension of the detected type' }) id!: string;
  @Field(() => String) fileName!: string;
  @Field(() => String, { description: 'public or private' }) documentType!: string;
  @Field(() => String, { description: 'Detected from the bytes: application/pdf, image/png, image/jpeg or text/html' }) contentType!: string;
  @Field(() => Int, { description: 'Bytes' }) size!: number;
  @Extensions(listItems(MAX_OWNERS))
  @Field(() => [String], { nullable: true, description: 'Account ids, at most 100; null when none were given' }) owners!: string[] | null;
  @Field(() => String, { description: 'A signed link valid for STORAGE_LINK_TTL; empty in lists' }) storageLink!: string;
  @Field(() => String, { description: 'RFC 3339', deprecationReason: 'Use `createdTime`' }) createdAt!: string;
  @Field(() => Date, { description: 'The time of `createdAt`' }) createdTime!: Date;
  @Field(() => String, { nullable: true, description: 'RFC 3339', deprecationReason: 'Use `expiryTime`' }) expiresAt!: string | null;
  @Field(() => Date, { nullable: true, description: 'The time of `expiresAt`' }) expiryTime!: Date | null;
}

@ObjectType('DocumentPage', { description: 'A page of GET /documents' })
export class DocumentPageGql {
  @Field(() => [DocumentGql]) items!: DocumentGql[];
  @Field(() => Int) totalItems!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) size!: number;
}

export const documentGql = (d: StoredDocument, storageLink: string): DocumentGql => ({
  id: d.id,
  fileName: d.fileName,
  documentType: d.documentType,
  contentType: d.contentType,
  size: d.size,
  owners: d.owners,
  storageLink,
  createdAt: rfc3339(d.createdAt),
  createdTime: d.createdAt,
  expiresAt: d.expiresAt ? rfc3339(d.expiresAt) : null,
  expiryTime: d.expiresAt ?? null,
});
