// What other areas may use of offers: nothing outside this folder imports another file of it.
export {};
