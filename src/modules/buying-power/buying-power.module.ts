import type { AppModule } from '../../app-modules';
import type { WinnerPower } from '../trading';
import { requireWinnerPower } from './buying-power.round';
import { BuyingPowerResolver } from './buying-power.resolver';
import { buyingPowerRoutes } from './buying-power.routes';
import { BuyingPowerService } from './buying-power.service';

declare module '../../services' {
  interface Services {
    buyingPower: BuyingPowerService;
    winnerPower: WinnerPower;
  }
}

/** Buying power (docs/auction-rules.md): its rule lives in the platform rules, its check in the bid round. */
export const buyingPowerModule: AppModule = {
  name: 'buying-power',
  services: { buyingPower: (s) => new BuyingPowerService(s.rules), winnerPower: () => ({ requireWinnerPower }) },
  routes: buyingPowerRoutes,
  resolvers: [BuyingPowerResolver],
};
