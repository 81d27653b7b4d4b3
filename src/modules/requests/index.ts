// What other areas may use of requests: nothing outside this folder imports another file of it.
export { RequestStateGql } from './requests.types';
