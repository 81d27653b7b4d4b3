// What other areas may use of credentials: nothing outside this folder imports another file of it.
export { Credential } from './credentials.entity';
export { looseDocument } from './credentials.schema';
export { findAccount, findAccountByEmail } from './credentials.service';
export { accountSubject, emailSubject, type SignInLimit } from './sign-in-limit';
