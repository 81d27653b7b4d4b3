import type { AppModule } from '../../app-modules';
import { StoredDocument } from './documents.entity';
import { DocumentConnectionResolver } from './documents.connection.types';
import { DocumentsResolver } from './documents.resolver';
import { documentsRoutes } from './documents.routes';
import type { DocumentsService } from './documents.service';
import { createDocumentsService } from './documents.setup';
import { Migration20261122080000Documents } from './migrations/Migration20261122080000Documents';

declare module '../../services' {
  interface Services {
    documents: DocumentsService;
  }
}

export const documentsModule: AppModule = {
  name: 'documents',
  entities: [StoredDocument],
  migrations: [{ name: 'Migration20261122080000Documents', class: Migration20261122080000Documents }],
  services: { documents: (_, { config, master }) => createDocumentsService(config, master) },
  routes: documentsRoutes,
  resolvers: [DocumentsResolver, DocumentConnectionResolver],
  jobs: (services) => [{ kind: 'cleaner', name: 'expired documents', run: (em) => services.documents.purgeExpired(em) }],
};
