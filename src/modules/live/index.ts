// What other areas may use of live: nothing outside this folder imports another file of it.
export {};
