import type { AppModule } from '../../app-modules';
import { Migration20261124100000PlatformRules } from './migrations/Migration20261124100000PlatformRules';
import { Migration20261124110000SoftClose } from './migrations/Migration20261124110000SoftClose';
import { Migration20261125100000ReservePrice } from './migrations/Migration20261125100000ReservePrice';
import { Migration20261127160000ExtensionSeconds } from './migrations/Migration20261127160000ExtensionSeconds';
import { PlatformRules } from './rules.entity';
import { RulesResolver } from './rules.resolver';
import { rulesRoutes } from './rules.routes';
import { RulesService } from './rules.service';

declare module '../../services' {
  interface Services {
    rules: RulesService;
  }
}

export const rulesModule: AppModule = {
  name: 'rules',
  entities: [PlatformRules],
  migrations: [
    { name: 'Migration20261124100000PlatformRules', class: Migration20261124100000PlatformRules },
    { name: 'Migration20261124110000SoftClose', class: Migration20261124110000SoftClose },
    { name: 'Migration20261125100000ReservePrice', class: Migration20261125100000ReservePrice },
    { name: 'Migration20261127160000ExtensionSeconds', class: Migration20261127160000ExtensionSeconds },
  ],
  services: { rules: () => new RulesService() },
  routes: rulesRoutes,
  resolvers: [RulesResolver],
};
