// What other areas may use of trading: nothing outside this folder imports another file of it.
export type { DepositsService } from './deposits.service';
export type { ParticipationService } from './participation.service';
export { Deposit, DepositState, Participant, ParticipantState, WinnerDetails } from './trading.entity';
export { WINNER_DETAILS_FIELDS } from './trading.input';
export { depositGql, participantGql, participationGql, winnerDetailsGql } from './trading.mappers';
export { presentDeposit, presentParticipant, presentWinnerDetails } from './trading.presenter';
export { LotNotices } from './trading.notices';
export { requireId, requireManager, requireTradable, settleLosers } from './trading.rules';
export { participantColumns, type ParticipantColumns, participantOfColumns } from './participants.columns';
export type { Standing } from './standings.sql';
export { DepositConnectionGql, DepositGql, DepositStateGql, ParticipantGql, ParticipantStateGql, ParticipationGql, WinnerDetailsGql } from './trading.types';
export type { WinnerPower, WinnersService } from './winners.service';
