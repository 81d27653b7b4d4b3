// What other areas may use of platforms: nothing outside this folder imports another file of it.
export {};
