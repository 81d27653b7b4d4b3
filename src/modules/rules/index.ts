// What other areas may use of rules: nothing outside this folder imports another file of it.
export { buyerFee } from './fees';
export { shownSteps, type Steps, stepsAbove } from './increments';
export { lapseTimeOf, reserveRecipients } from './reserve.service';
export { requireReserveAccepted, requireReserveChangeable, reserveFault, reserveLapsed, reserveMet } from './reserve';
export { type IncrementBand, SECOND_CHANCE_DEFAULT_TTL } from './rules.model';
export type { RulesService } from './rules.service';
export { type LotRules, lotRulesColumn, lotRulesOf } from './rules.sql';
export { softClose } from './soft-close';
