// What other areas may use of viewer: nothing (it is GraphQL's view of the signed-in account).
export {};
