// What other areas may use of documents: nothing outside this folder imports another file of it.
export { requireInvoice } from './documents.repository';
