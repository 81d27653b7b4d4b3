import type { AppModule } from '../../app-modules';
import { DepositsResolver } from './deposits.resolver';
import { DepositConnectionResolver } from './trading.types';
import { depositsRoutes } from './deposits.routes';
import { DepositsService } from './deposits.service';
import { ParticipationService } from './participation.service';
import { ReserveService } from './reserve.service';
import { rejectUnpaidParticipants, returnDeposits } from './trading.cleaners';
import { Deposit, Participant, WinnerDetails } from './trading.entity';
import { TradingResolver } from './trading.resolver';
import { tradingRoutes } from './trading.routes';
import { WinnersResolver } from './winners.resolver';
import { WinnersService } from './winners.service';

declare module '../../services' {
  interface Services {
    participation: ParticipationService;
    winners: WinnersService;
    deposits: DepositsService;
    reserve: ReserveService;
  }
}

export const tradingModule: AppModule = {
  name: 'trading',
  entities: [Participant, Deposit, WinnerDetails],
  services: {
    participation: (s) => new ParticipationService(s.notifications),
    winners: (s) => new WinnersService(s.notifications, s.lots, s.bidLog, s.live, s.lotClock, s.rules, s.winnerPower),
    deposits: (s) => new DepositsService(s.notifications),
    reserve: (s) => new ReserveService(s.notifications, s.bidLog, s.live, s.rules),
  },
  routes: (router) => {
    tradingRoutes(router);
    depositsRoutes(router);
  },
  resolvers: [TradingResolver, WinnersResolver, DepositsResolver, DepositConnectionResolver],
  // Unpaid participants are rejected before the deposits of the rejected go back.
  jobs: () => [rejectUnpaidParticipants, returnDeposits],
};
