// What other areas may use of recovery: nothing outside this folder imports another file of it.
export {};
