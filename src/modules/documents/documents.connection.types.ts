import { connectionTypes } from '../../graphql/types/connection';
import { DocumentGql } from './documents.types';

export const { Connection: DocumentConnectionGql, Resolver: DocumentConnectionResolver } = connectionTypes('Document', () => DocumentGql);
