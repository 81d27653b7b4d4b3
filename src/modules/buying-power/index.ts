// What other areas may use of buying-power: nothing outside this folder imports another file of it.
export { requireBuyingPower, roundPower, type RoundPower } from './buying-power.round';
