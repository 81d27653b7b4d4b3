// What other areas may use of blacklist: nothing outside this folder imports another file of it.
export {};
