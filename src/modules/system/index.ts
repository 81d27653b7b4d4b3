// What other areas may use of system: nothing outside this folder imports another file of it.
export {};
