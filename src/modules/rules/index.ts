// What other areas may use of rules: nothing outside this folder imports another file of it.
export { buyerFee } from './fees';
export { type Steps, stepsAbove } from './increments';
export { type IncrementBand, SECOND_CHANCE_DEFAULT_TTL } from './rules.model';
export type { RulesService } from './rules.service';
export { type LotRules, lotRulesColumn, lotRulesOf } from './rules.sql';
