// What other areas may use of reference: nothing outside this folder imports another file of it.
export { FUEL_IDS, ReferenceService } from './reference.service';
