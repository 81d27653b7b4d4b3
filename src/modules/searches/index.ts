// What other areas may use of searches: nothing outside this folder imports another file of it.
export { SavedSearchGql, savedSearchGql } from './searches.types';
