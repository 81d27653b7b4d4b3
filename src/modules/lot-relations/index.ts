// What other areas may use of lot-relations: nothing (it fills lots' `LotIncluder` port and adds fields to GraphQL's Lot).
export {};
