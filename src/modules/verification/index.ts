// What other areas may use of verification: nothing outside this folder imports another file of it.
export {};
